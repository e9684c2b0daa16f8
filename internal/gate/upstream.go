package gate

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/server"
)

// upstream is the server behind the gate's proxy: the reference server,
// or Options.Upstream (a replay fixture) on a free loopback port.
type upstream struct {
	name, url string
	once      sync.Once
	err       error
	shutdown  func(context.Context) error
}

// stop ends the upstream once; later calls return the first result.
func (u *upstream) stop(ctx context.Context) error {
	u.once.Do(func() { u.err = u.shutdown(ctx) })
	return u.err
}

func startUpstream(ctx context.Context, dialect string, opts Options) (*upstream, error) {
	if opts.Upstream == nil {
		ref, err := reference.Start(ctx, "127.0.0.1:0", reference.Options{
			Config: server.Config{Faults: opts.Faults, Seed: opts.Seed}, Dialects: []string{dialect}})
		if err != nil {
			return nil, fmt.Errorf("start reference server: %w", err)
		}
		return &upstream{name: "reference", url: ref.URL, shutdown: ref.Shutdown}, nil
	}
	u := opts.Upstream
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start %s server: %w", u.Name, err)
	}
	srv := &http.Server{Handler: u.Handler, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // ends with Close in stop
	stop := func(ctx context.Context) error {
		var err error
		if u.Shutdown != nil {
			err = u.Shutdown(ctx)
		}
		_ = srv.Close()
		if err != nil {
			return fmt.Errorf("stop %s server: %w", u.Name, err)
		}
		return nil
	}
	name := u.Name
	if name == "" {
		name = "upstream"
	}
	return &upstream{name: name, url: "ws://" + ln.Addr().String(), shutdown: stop}, nil
}
