package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/fixture"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/web"
	"github.com/wsconform/wsconform/reports"
)

// startGateWeb listens on addr (loopback only, as wsproxy --web) for the
// live view of the gate's proxy; recording is the JSONL file "Save HAR"
// reads. The page is served once the proxy runs (Listening.Start with a
// gateSource).
func startGateWeb(ctx context.Context, addr, recording string, keepSecrets, replays bool, command string) (*web.Listening, error) {
	if err := web.CheckListen(addr, false); err != nil {
		return nil, usageErr("gate: --web: %v", err)
	}
	lv, err := web.Listen(ctx, web.Config{Listen: addr, Recording: recording, KeepSecrets: keepSecrets, Replays: replays,
		Title: "wsconform gate", Command: command})
	if err != nil {
		return nil, harnessErr(fmt.Errorf("gate: --web: %w", err))
	}
	return lv, nil
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
// gate has no --record: a temporary file, removed on exit
// (removeGateRecording), as wsproxy --web's: --record keeps one.
func gateWebRecording() (string, error) {
	f, err := os.CreateTemp("", "wsconform-gate-*.jsonl")
	if err != nil {
		return "", harnessErr(fmt.Errorf("gate: create a recording for --web: %w", err))
	}
	name := f.Name()
	f.Close()
	return name, nil
}

// removeGateRecording removes the temporary recording of gate --web and
// says so.
func removeGateRecording(stderr io.Writer, colorMode, path string) {
	con := console.New(stderr, colorMode)
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		con.Warn("warning: could not remove the temporary recording: %v\n", err)
		return
	}
	con.Dim("removed the temporary recording %s (--record FILE keeps a recording)\n", path)
}
