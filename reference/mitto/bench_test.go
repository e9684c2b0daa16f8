package mitto_test

import (
	"fmt"
	"testing"

	"github.com/wsconform/wsconform/reference/mitto"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// BenchmarkSessions runs 1000 concurrent sessions, each with two clients
// (the second one measures fan-out), streaming a 20-chunk reply.
func BenchmarkSessions(b *testing.B) {
	srv := reftest.Start(b, "mitto", mitto.New, reftest.Options{Config: server.Config{Heartbeat: -1}})
	reftest.Bench(b, srv, 1000, "/ws", func(c *reftest.BenchConn) error {
		hello, err := c.Read()
		if err != nil {
			return err
		}
		if hello.Type != "connected" {
			return fmt.Errorf("first message %s, want connected", hello.Raw)
		}
		tab, err := c.Dial("/ws?session_id=" + hello.Str("/data/session_id"))
		if err != nil {
			return err
		}
		if _, err := tab.ReadUntil("connected"); err != nil {
			return err
		}
		if err := c.Send(map[string]any{"type": "prompt", "data": map[string]any{"message": "/stream 20", "prompt_id": "p1"}}); err != nil {
			return err
		}
		for _, conn := range []*reftest.BenchConn{c, tab} {
			msgs, err := conn.ReadUntil("prompt_complete")
			if err != nil {
				return err
			}
			if n := len(msgs); n < 22 {
				return fmt.Errorf("%d messages for a 20-chunk turn", n)
			}
		}
		return nil
	})
}
