package myagent_test

import (
	"fmt"
	"testing"

	"github.com/wsconform/wsconform/reference/myagent"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// BenchmarkSessions runs 1,000 concurrent sessions, each a user.message
// streaming 20 chunks through the whole pipeline, read to
// agent.final_answer.
func BenchmarkSessions(b *testing.B) {
	srv := reftest.Start(b, "myagent", myagent.New, reftest.Options{Config: server.Config{Heartbeat: -1}})
	reftest.Bench(b, srv, 1000, "/ws", func(c *reftest.BenchConn) error {
		if m, err := c.Read(); err != nil || m.Type != "system.connected" {
			return fmt.Errorf("first event %q: %w", m.Type, err)
		}
		if err := c.Send(map[string]any{"event": "user.message", "timestamp": clientStamp, "content": "/stream 20"}); err != nil {
			return err
		}
		msgs, err := c.ReadUntil("agent.final_answer")
		if err != nil {
			return err
		}
		if n := len(msgs); n != 30 {
			return fmt.Errorf("%d events to agent.final_answer, want 30", n)
		}
		return nil
	})
}
