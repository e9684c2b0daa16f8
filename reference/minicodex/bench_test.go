package minicodex_test

import (
	"fmt"
	"testing"

	"github.com/wsconform/wsconform/reference/minicodex"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// BenchmarkSessions runs 1000 concurrent sessions per iteration, each
// streaming a 20-chunk reply: frames/s and p99 fan-out latency.
func BenchmarkSessions(b *testing.B) {
	srv := reftest.Start(b, "minicodex", minicodex.New, reftest.Options{Config: server.Config{Heartbeat: -1}})
	reftest.Bench(b, srv, 1000, "/ws", func(c *reftest.BenchConn) error {
		if err := c.Send(map[string]any{"type": "hello", "v": "1.0.0"}); err != nil {
			return err
		}
		if _, err := c.ReadUntil("snapshot"); err != nil {
			return err
		}
		if err := c.Send(map[string]any{"type": "send", "text": "/stream 20"}); err != nil {
			return err
		}
		ms, err := c.ReadUntil("turn_done")
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m.Type == "error" {
				return fmt.Errorf("server error: %s", m.Raw)
			}
		}
		return nil
	})
}

// BenchmarkFanOut runs 500 sessions with two clients each: the second
// joins the first's session and reads the same stream.
func BenchmarkFanOut(b *testing.B) {
	srv := reftest.Start(b, "minicodex", minicodex.New, reftest.Options{Config: server.Config{Heartbeat: -1}})
	reftest.Bench(b, srv, 500, "/ws", func(c *reftest.BenchConn) error {
		if err := c.Send(map[string]any{"type": "hello", "v": "1.0.0"}); err != nil {
			return err
		}
		ms, err := c.ReadUntil("snapshot")
		if err != nil {
			return err
		}
		sid := ms[0].Str("/session_state/session_id")
		second, err := c.Dial("/ws?session_id=" + sid)
		if err != nil {
			return err
		}
		if err := second.Send(map[string]any{"type": "hello", "v": "1.0.0"}); err != nil {
			return err
		}
		if _, err := second.ReadUntil("snapshot"); err != nil {
			return err
		}
		if err := c.Send(map[string]any{"type": "send", "text": "/stream 20"}); err != nil {
			return err
		}
		if _, err := c.ReadUntil("turn_done"); err != nil {
			return err
		}
		_, err = second.ReadUntil("turn_done")
		return err
	})
}
