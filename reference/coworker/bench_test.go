package coworker_test

import (
	"fmt"
	"testing"

	"github.com/wsconform/wsconform/reference/coworker"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// BenchmarkSessions runs 1,000 concurrent sessions, each streaming a
// 20-chunk turn, and reports frames/s and the fan-out latency.
func BenchmarkSessions(b *testing.B) {
	srv := reftest.Start(b, "coworker", coworker.New, reftest.Options{Config: server.Config{Heartbeat: -1}})
	reftest.Bench(b, srv, 1000, "/ws", func(c *reftest.BenchConn) error {
		hello, err := c.ReadUntil("observability_status")
		if err != nil {
			return err
		}
		id := hello[0].Str("/sessionId")
		if hello[0].Type != "server_hello" || id == "" {
			return fmt.Errorf("first message is not a server_hello with a sessionId: %s", hello[0])
		}
		if err := c.Send(map[string]any{"type": "user_message", "sessionId": id, "text": "/stream 20"}); err != nil {
			return err
		}
		msgs, err := c.ReadUntil("assistant_message")
		if err != nil {
			return err
		}
		if n := countChunks(msgs); n != 26 {
			return fmt.Errorf("turn streamed %d chunks, want 26 (start, start_step, text_start, 20 deltas, text_end, finish_step, finish)", n)
		}
		for {
			m, err := c.Read()
			if err != nil {
				return err
			}
			if m.Type == "session_busy" {
				if v, _ := m.Get("/busy"); v == false {
					return nil
				}
				return fmt.Errorf("unexpected %s", m)
			}
		}
	})
}

func countChunks(msgs []reftest.Msg) int {
	n := 0
	for _, m := range msgs {
		if m.Type == "model_stream_chunk" {
			n++
		}
	}
	return n
}
