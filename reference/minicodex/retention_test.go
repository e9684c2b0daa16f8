package minicodex_test

import (
	"testing"
	"time"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestSessionRetention: on a loopback server keeping 2 sessions without a
// connection for a minute, four sessions left one after the other leave
// the newest two: a resume of the two oldest is refused as an unknown
// session, one of the newest replays; past the minute a kept one is gone
// too.
func TestSessionRetention(t *testing.T) {
	t.Parallel()
	clk := &reftest.Clock{}
	srv := start(t, server.Config{MaxSessions: 2, SessionTTL: time.Minute, Now: clk.Now})
	idle := func() {
		t.Helper()
		if err := srv.Env.WaitIdle(t.Context()); err != nil {
			t.Fatal(err) // the server has detached what was left
		}
	}
	var ids []string
	for i := range 4 {
		c, sid, _ := hello(t, srv, "", reftest.Group(string(rune('a'+i))))
		ids = append(ids, sid)
		c.Close()
		idle()
		clk.Advance(time.Second)
	}
	for i, sid := range ids[:2] {
		c := srv.Dial(t, "/ws", reftest.Group(string(rune('a'+i))+"-again"))
		c.Send(resume(sid, 0))
		expectError(t, c, "BAD_ARGUMENT", "resume-0")
		c.Close()
	}
	c := srv.Dial(t, "/ws", reftest.Group("d"))
	c.Send(resume(ids[3], 0))
	if w := c.Expect("welcome"); w.Str("/session_state/session_id") != ids[3] {
		t.Fatalf("resume of %s: %s", ids[3], w)
	}
	c.Close()
	idle()

	clk.Advance(2 * time.Minute)
	c = srv.Dial(t, "/ws", reftest.Group("c-again"))
	c.Send(resume(ids[2], 0))
	expectError(t, c, "BAD_ARGUMENT", "resume-0")
}
