package minicodex_test

import (
	"net/http"
	"testing"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// resumeNoSID is the spec's Resume to the letter: no session_id.
func resumeNoSID(last int64) map[string]any {
	return map[string]any{"type": "resume", "last_seen_event_id": last, "req_id": "r-resume"}
}

// TestResumeWithoutSessionID: a resume that names no session rejoins the
// session of the client's lineage cookie, else the only session, else the
// only one without a connection; otherwise it is refused.
func TestResumeWithoutSessionID(t *testing.T) {
	t.Parallel()
	t.Run("the only session", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		a, sid, _ := hello(t, srv, "")
		send(t, a, "/stream 4")
		orig := a.Until("turn_done")
		a.Drop()
		b := srv.Dial(t, "/ws")
		b.Send(resumeNoSID(2))
		if w := b.Expect("welcome"); w.Str("/session_state/session_id") != sid || w.Str("/req_id") != "r-resume" {
			t.Fatalf("welcome: %s", w)
		}
		if got, want := len(barrier(t, b, "end")), countAfter(orig, 2); got != want {
			t.Errorf("replayed %d events, want %d", got, want)
		}
	})
	t.Run("the lineage cookie among several sessions", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		a := srv.Dial(t, "/ws", reftest.Group("a"))
		cookie := a.Resp.Header.Get("Set-Cookie")
		if cookie == "" {
			t.Fatalf("no lineage cookie on the 101: %v", a.Resp.Header)
		}
		a.Send(map[string]any{"type": "hello", "v": "1.0.0"})
		sid := a.ExpectSeq("welcome", "snapshot")[0].Str("/session_state/session_id")
		b, other, _ := hello(t, srv, "", reftest.Group("b"))
		a.Drop()
		b.Drop()
		// Two sessions, neither with a connection: only the cookie tells.
		jar := http.Header{"Cookie": {(&http.Cookie{Name: "minicodex_client", Value: cookieValue(t, cookie)}).String()}}
		c := srv.Dial(t, "/ws", reftest.Header(jar), reftest.Group("a"))
		if c.Resp.Header.Get("Set-Cookie") != "" {
			t.Errorf("a client with a lineage cookie got a new one: %s", c.Resp.Header.Get("Set-Cookie"))
		}
		c.Send(resumeNoSID(0))
		if w := c.Expect("welcome"); w.Str("/session_state/session_id") != sid {
			t.Fatalf("resumed %s, want the cookie's session %s (other: %s)", w.Str("/session_state/session_id"), sid, other)
		}
	})
	t.Run("the only detached session", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		a, sid, _ := hello(t, srv, "", reftest.Group("a"))
		hello(t, srv, "", reftest.Group("b"))
		a.Drop()
		// a's session has no connection left once the server noticed.
		for i := 0; ; i++ {
			c := srv.Dial(t, "/ws", reftest.Group("a"))
			c.Send(resumeNoSID(0))
			m := c.Next()
			if m.Type == "welcome" {
				if m.Str("/session_state/session_id") != sid {
					t.Fatalf("resumed %s, want the detached %s", m.Str("/session_state/session_id"), sid)
				}
				return
			}
			if m.Str("/code") != "MISSING_FIELD" || i > 2000 {
				t.Fatalf("resume: %s", m)
			}
			c.Close()
		}
	})
	t.Run("ambiguous", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		hello(t, srv, "", reftest.Group("a"))
		hello(t, srv, "", reftest.Group("b"))
		c := srv.Dial(t, "/ws", reftest.Group("c"))
		c.Send(resumeNoSID(0))
		e := expectError(t, c, "MISSING_FIELD", "r-resume")
		if e.Str("/details/field") != "session_id" || e.Int("/details/sessions") != 2 {
			t.Errorf("error: %s", e)
		}
	})
}

func countAfter(ms []reftest.Msg, seen int64) int {
	n := 0
	for _, m := range ms {
		if m.Has("/event_id") && m.Int("/event_id") > seen {
			n++
		}
	}
	return n
}

func cookieValue(t *testing.T, setCookie string) string {
	t.Helper()
	ck, err := http.ParseSetCookie(setCookie)
	if err != nil {
		t.Fatal(err)
	}
	return ck.Value
}
