package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/server"
)

// ReferenceConfig is the embedded reference server's configuration for a
// run: timings short enough that scenarios about heartbeats and slow
// replies do not wait for production intervals.
func ReferenceConfig() server.Config {
	return server.Config{
		Heartbeat:     time.Second,
		Slow:          50 * time.Millisecond,
		PromptTimeout: 30 * time.Second,
		ReplayWindow:  1000,
	}
}

// ReferenceVars are the variables scenarios need to talk to the reference
// server: the demo credentials of hostd.
func ReferenceVars() map[string]string {
	a := server.DefaultAuth
	return map[string]string{"user": a.User, "password": a.Password, "host_token": a.HostToken}
}

// StartReference starts the embedded reference server on an ephemeral
// loopback port, serving dialects (all when empty) with mutations, and
// returns it as a target.
func StartReference(ctx context.Context, dialects, mutate []string) (*reference.Server, Target, error) {
	srv, err := reference.Start(ctx, "127.0.0.1:0", reference.Options{
		Config: ReferenceConfig(), Dialects: dialects, Mutate: mutate,
	})
	if err != nil {
		return nil, Target{}, fmt.Errorf("start reference server: %w", err)
	}
	t := Target{Name: "reference", URL: srv.URL, Reference: true, URLs: map[string]string{}}
	for _, d := range srv.Dialects {
		t.URLs[d] = srv.Endpoints(d)[0]
	}
	return srv, t, nil
}
