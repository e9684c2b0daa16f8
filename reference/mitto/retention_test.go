package mitto_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestSessionRetention: on a loopback server keeping 2 sessions without a
// client for a minute, four sessions prompted and left one after the
// other leave the newest two: a client back in the newest finds its last
// prompt, one back in the oldest finds a new, empty session under the id;
// past the minute a kept one is gone too.
func TestSessionRetention(t *testing.T) {
	t.Parallel()
	clk := &reftest.Clock{}
	srv := start(t, server.Config{MaxSessions: 2, SessionTTL: time.Minute, Now: clk.Now})
	for i := range 4 {
		n := strconv.Itoa(i)
		c, _ := join(t, srv, "s"+n)
		ask(c, "p"+n, "hi", "prompt_complete")
		c.Close()
		if err := srv.Env.WaitIdle(t.Context()); err != nil {
			t.Fatal(err) // the server has detached it: the next one is left later
		}
		clk.Advance(time.Second)
	}
	// back rejoins id and leaves again; a forgotten id comes back as a
	// new session, which counts as one more left
	back := func(id, group string) string {
		c, m := join(t, srv, id, reftest.Group(group))
		c.Close()
		if err := srv.Env.WaitIdle(t.Context()); err != nil {
			t.Fatal(err)
		}
		return m.Str("/data/last_user_prompt_id")
	}
	if p := back("s3", "s3"); p != "p3" {
		t.Errorf("s3, the newest, came back with last prompt %q, want p3", p)
	}
	if p := back("s0", "s0-new"); p != "" {
		t.Errorf("s0, the oldest beyond the bound, was kept: its last prompt is %q", p)
	}
	clk.Advance(2 * time.Minute)
	if p := back("s3", "s3-new"); p != "" {
		t.Errorf("s3, kept past the TTL, came back with last prompt %q", p)
	}
}
