package main

import (
	"context"
	"fmt"
	"net"
	"os"

	"github.com/wsconform/wsconform/internal/fixture"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/web"
	"github.com/wsconform/wsconform/reports"
)

// gateWeb is `gate --web`: wsproxy's live view of the gate's proxy, served
// while the client command runs.
type gateWeb struct {
	srv    *web.Server
	ln     net.Listener
	url    string
	cancel context.CancelFunc
	done   chan error
}

// startGateWeb listens on addr (loopback only, as wsproxy --web) for the
// live view; recording is the JSONL file "Save HAR" reads.
func startGateWeb(ctx context.Context, addr, recording string, keepSecrets, replays bool, command string) (*gateWeb, error) {
	if err := web.CheckListen(addr, false); err != nil {
		return nil, usageErr("gate: --web: %v", err)
	}
	srv, err := web.New(web.Config{Listen: addr, Recording: recording, KeepSecrets: keepSecrets, Replays: replays,
		Title: "wsconform gate", Command: command})
	if err != nil {
		return nil, usageErr("gate: --web: %v", err)
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, harnessErr(fmt.Errorf("gate: listen on %s for --web: %w", addr, err))
	}
	return &gateWeb{srv: srv, ln: ln, url: "http://" + ln.Addr().String() + "/"}, nil
}

// attach serves the page once the gate's proxy runs; the replay fixture's
// comparison so far joins every report the page downloads.
func (g *gateWeb) attach(p *proxy.Proxy, fx *fixture.Fixture) {
	g.srv.Attach(gateSource{p: p, fx: fx})
	ctx, cancel := context.WithCancel(context.Background())
	g.cancel, g.done = cancel, make(chan error, 1)
	go func() { g.done <- g.srv.Serve(ctx, g.ln) }()
}

// stop ends the page's streams and its server.
func (g *gateWeb) stop() {
	if g == nil {
		return
	}
	if g.cancel == nil {
		g.ln.Close()
		return
	}
	g.cancel()
	<-g.done
}

// gateSource is the gate's report so far: the proxy's sessions, plus the
// fixture's diffs and mismatches with --replay.
type gateSource struct {
	p  *proxy.Proxy
	fx *fixture.Fixture
}

func (s gateSource) Snapshot(ctx context.Context) (*reports.Report, error) {
	r, err := s.p.Snapshot(ctx)
	if err != nil || s.fx == nil {
		return r, err
	}
	s.fx.Judge(r)
	r.Tally()
	return r, nil
}

// gateWebRecording is the file the live view's "Save HAR" reads when the
// gate has no --record: a temporary file, kept on exit.
func gateWebRecording() (string, error) {
	f, err := os.CreateTemp("", "wsconform-gate-*.jsonl")
	if err != nil {
		return "", harnessErr(fmt.Errorf("gate: create a recording for --web: %w", err))
	}
	name := f.Name()
	f.Close()
	return name, nil
}
