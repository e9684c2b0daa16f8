package replay

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reports"
)

// testTimeout bounds every wait of these tests.
const testTimeout = 20 * time.Second

// lockedBuffer is a bytes.Buffer the proxy writes and the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}

// startReference starts a reference server of one dialect on loopback,
// without hostd's scripted host (the recordings play the host), and stops
// it at cleanup.
func startReference(t testing.TB, name string, mutate ...string) *reference.Server {
	t.Helper()
	ctx := context.Background()
	srv, err := reference.Start(ctx, "127.0.0.1:0", reference.Options{Config: runner.ReferenceConfig(),
		Dialects: []string{name}, Mutate: mutate, NoScriptedHost: true})
	if err != nil {
		t.Fatalf("start reference: %v", err)
	}
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, testTimeout)
		defer cancel()
		_ = srv.Shutdown(sctx)
	})
	return srv
}

// record runs the scenarios of tags (a godog tag expression) with the
// runner through the recording proxy in front of a fresh reference server
// and returns the recording.
func record(t testing.TB, name, tags string) []byte {
	t.Helper()
	srv := startReference(t, name)
	rec := &lockedBuffer{}
	p, err := proxy.New(proxy.Config{Upstream: srv.URL, Dialect: name, Record: rec, Console: &lockedBuffer{}, Quiet: true,
		Tool: "replay-test", Label: "replay-test-" + t.Name()})
	if err != nil {
		t.Fatalf("proxy: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: p, ReadHeaderTimeout: testTimeout}
	go func() { _ = hs.Serve(ln) }()
	ctx, cancel := context.WithTimeout(context.Background(), 2*testTimeout)
	defer cancel()
	target := runner.Target{Name: "proxy", URL: "ws://" + ln.Addr().String(), Reference: true}
	res, err := runner.Run(ctx, runner.Options{Dialects: []string{name}, Targets: []runner.Target{target},
		Tags: tags, Vars: runner.ReferenceVars(), Concurrency: 1, Timeouts: runner.DefaultTimeouts})
	if err != nil {
		t.Fatalf("run %s: %v", tags, err)
	}
	if len(res) == 0 {
		t.Fatalf("no scenario matches %s", tags)
	}
	for _, s := range res {
		if s.Verdict != reports.Passed && s.Verdict != reports.NonStrict {
			t.Fatalf("scenario %s through the proxy: %s %s%s", s.ID, s.Verdict, s.Reason, failedStep(s))
		}
	}
	_ = hs.Shutdown(ctx)
	if err := p.Shutdown(ctx); err != nil {
		t.Fatalf("proxy shutdown: %v", err)
	}
	return rec.Bytes()
}

// failedStep renders a scenario's failed step and the frames it received,
// so that a failure seen once under load can be understood from the log.
func failedStep(s reports.Scenario) string {
	var sb strings.Builder
	for _, st := range s.Steps {
		if st.Status == "failed" {
			fmt.Fprintf(&sb, "\n  step %q\n  expected %s\n  actual   %s", st.Text, st.Expected, st.Actual)
		}
	}
	for _, f := range s.Frames {
		fmt.Fprintf(&sb, "\n  %s #%d %s %.200s", f.Conn, f.Index, f.Type, f.Payload)
	}
	return sb.String()
}
