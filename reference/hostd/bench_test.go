package hostd_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/wsconform/wsconform/reference/agent"
	"github.com/wsconform/wsconform/reference/hostd"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// BenchmarkSessions: 1000 concurrent sessions, each a host connection
// (all of host "bench") with its own run and an app watching that run
// (?run_id=). The app sends "/stream 20"; the host records it and streams
// 20 chunks back; the server relays each to the app. Latency is measured
// on every message a client reads, mostly the host→app relay.
func BenchmarkSessions(b *testing.B) {
	srv := reftest.Start(b, "hostd", hostd.New, reftest.Options{Config: server.Config{Heartbeat: -1}})
	tok := login(b, srv)
	chunks := agent.Plan("/stream 20", agent.Pace{}).Chunks
	var runs atomic.Int64
	reftest.Bench(b, srv, 1000, "/ws/host?host_id=bench&host_token="+hostToken, func(host *reftest.BenchConn) error {
		n := runs.Add(1)
		run := fmt.Sprintf("bench-%d", n)
		app, err := host.Dial("/ws/app?token=" + tok + "&run_id=" + run)
		if err != nil {
			return err
		}
		if err := host.Send(started(run, 1)); err != nil {
			return err
		}
		if _, err := host.ReadUntil("run.ack"); err != nil {
			return err
		}
		if err := app.Send(sendInput(run, uuid(int(n)), "/stream 20\n")); err != nil {
			return err
		}
		if _, err := host.ReadUntil("run.send_input"); err != nil {
			return err
		}
		seq := int64(2)
		if err := host.Send(ev("run.input", run, seq, map[string]any{"actor": "web", "input_id": uuid(int(n)), "text_redacted": "/stream 20", "text_sha256": sum("/stream 20\n")})); err != nil {
			return err
		}
		for _, c := range chunks {
			seq++
			if err := host.Send(output(run, seq, c)); err != nil {
				return err
			}
		}
		seq++
		if err := host.Send(ev("run.awaiting_input", run, seq, map[string]any{"reason": "prompt", "prompt": "> "})); err != nil {
			return err
		}
		msgs, err := app.ReadUntil("run.awaiting_input")
		if err != nil {
			return err
		}
		if len(msgs) != len(chunks)+3 {
			return fmt.Errorf("%s: app got %d messages, want %d", run, len(msgs), len(chunks)+3)
		}
		return host.Send(exited(run, seq+1, 0))
	})
}
