package myagent_test

import (
	"testing"
	"time"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestSessionRetention: on a loopback server keeping 2 sessions without a
// connection for a minute, four sessions left one after the other leave
// the newest two: the two oldest are unknown to a reconnect, the newest
// resumes with its replay; past the minute a kept one is gone too.
func TestSessionRetention(t *testing.T) {
	t.Parallel()
	clk := &reftest.Clock{}
	srv := start(t, server.Config{MaxSessions: 2, SessionTTL: time.Minute, Now: clk.Now})
	var ids []string
	for i := range 4 {
		c := dial(t, srv, reftest.Group(string(rune('a'+i))))
		ids = append(ids, session(t, c))
		c.Close()
		if err := srv.Env.WaitIdle(t.Context()); err != nil {
			t.Fatal(err) // the server has detached it: the next one is left later
		}
		clk.Advance(time.Second)
	}
	for i, id := range ids[:2] {
		c := dial(t, srv, reftest.Group(string(rune('a'+i))))
		c.Send(ev("user.reconnect", "session_id", id))
		expectError(t, c, "error.recovery_failed", "SESSION_NOT_FOUND")
		c.Close()
	}

	c := dial(t, srv, reftest.Group("d"))
	c.Send(ev("user.reconnect_with_state", "session_id", ids[3], "last_seq", 0))
	c.Expect("system.notice")
	if m := c.Expect("agent.session_created"); m.Str("/session_id") != ids[3] {
		t.Fatalf("replay of %s: %s", ids[3], m.Raw)
	}
	c.Expect("agent.state_restored")
	c.Close()

	clk.Advance(2 * time.Minute)
	c = dial(t, srv, reftest.Group("c"))
	c.Send(ev("user.reconnect", "session_id", ids[2]))
	expectError(t, c, "error.recovery_failed", "SESSION_NOT_FOUND")
}
