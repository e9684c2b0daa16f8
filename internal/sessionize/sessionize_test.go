package sessionize

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/wire"
)

func TestSessionizer(t *testing.T) {
	t.Parallel()
	t.Run("minicodex binds on the server's word", func(t *testing.T) {
		s := New("minicodex")
		c1 := &Conn{ID: "c1"}
		if _, ok := s.AtOpen(c1, "ws://x/ws?session_id=hint"); ok {
			t.Fatal("a query must not bind")
		}
		if _, ok := s.Frame(c1, wire.ClientToServer, wire.OpText, []byte(`{"type":"resume","session_id":"claimed"}`)); ok {
			t.Fatal("a client's claim must not bind")
		}
		got, ok := s.Frame(c1, wire.ServerToClient, wire.OpText, []byte(`{"type":"welcome","session_state":{"session_id":"sess_1"}}`))
		if !ok || got != "sess_1" {
			t.Fatalf("welcome bound %q %v", got, ok)
		}
		s.Joined(c1)
		s.Closed(c1)
		c2 := &Conn{ID: "c2"}
		got, _ = s.Frame(c2, wire.ServerToClient, wire.OpText, []byte(`{"type":"welcome","session_state":{"session_id":"sess_1"}}`))
		if got != "sess_1" || s.Parent(c2) != "c1" {
			t.Errorf("c2 in %q reconnecting %q", got, s.Parent(c2))
		}
	})
	t.Run("hints and giving up", func(t *testing.T) {
		s := New("minicodex")
		c := &Conn{ID: "c1"}
		s.AtOpen(c, "ws://x/ws?session_id=q")
		if got := s.GiveUp(c); got != "q" {
			t.Errorf("gave up to %q, want the query hint", got)
		}
		c2 := &Conn{ID: "c2"}
		var got string
		var ok bool
		for range MaxHeldFrames {
			got, ok = s.Frame(c2, wire.ServerToClient, wire.OpText, []byte(`{"type":"heartbeat"}`))
		}
		if !ok || got != "c2" {
			t.Errorf("after %d frames without a session: %q %v, want a session of its own", MaxHeldFrames, got, ok)
		}
	})
	t.Run("minicodex: a refused resume without session id joins the only session", func(t *testing.T) {
		s := New("minicodex")
		c1 := &Conn{ID: "c1"}
		s.Frame(c1, wire.ServerToClient, wire.OpText, []byte(`{"type":"welcome","session_state":{"session_id":"sess_1"}}`))
		s.Joined(c1)
		c2 := &Conn{ID: "c2"}
		s.Frame(c2, wire.ClientToServer, wire.OpText, []byte(`{"type":"resume","last_seen_event_id":99}`))
		s.Frame(c2, wire.ServerToClient, wire.OpText, []byte(`{"type":"error","code":"BAD_ARGUMENT"}`))
		if got := s.GiveUp(c2); got != "sess_1" || s.Parent(c2) != "c1" {
			t.Errorf("bare resume gave up to %q (parent %q), want sess_1 after c1", got, s.Parent(c2))
		}
		// A connection that never resumed keeps a session of its own, and
		// with two sessions a bare resume cannot tell which.
		c3 := &Conn{ID: "c3"}
		s.Frame(c3, wire.ClientToServer, wire.OpText, []byte(`{"type":"ping"}`))
		if got := s.GiveUp(c3); got != "c3" {
			t.Errorf("a ping-only connection gave up to %q", got)
		}
		s.Frame(&Conn{ID: "c4"}, wire.ServerToClient, wire.OpText, []byte(`{"type":"welcome","session_state":{"session_id":"sess_2"}}`))
		c5 := &Conn{ID: "c5"}
		s.Frame(c5, wire.ClientToServer, wire.OpText, []byte(`{"type":"resume","last_seen_event_id":1}`))
		if got := s.GiveUp(c5); got != "c5" {
			t.Errorf("with two sessions a bare resume gave up to %q", got)
		}
	})
	t.Run("names are unique and printable", func(t *testing.T) {
		s := New("myagent")
		own := &Conn{ID: "c1"}
		s.GiveUp(own) // session "c1"
		clash := &Conn{ID: "c2"}
		got, _ := s.Frame(clash, wire.ServerToClient, wire.OpText, []byte(`{"event":"x","session_id":"c1"}`))
		if got == "c1" {
			t.Errorf("a protocol key equal to a connection's own session merged them")
		}
		long := &Conn{ID: "c3"}
		got, _ = s.Frame(long, wire.ServerToClient, wire.OpText, []byte(`{"event":"x","session_id":"`+strings.Repeat("é", 200)+`\n"}`))
		if len([]rune(got)) != maxSessionKey || strings.ContainsAny(got, "\n\"") {
			t.Errorf("session name %q", got)
		}
	})
	t.Run("hostd shares, coworker splits", func(t *testing.T) {
		h := New("hostd")
		a, _ := h.AtOpen(&Conn{ID: "c1"}, "ws://x/ws/app")
		b, _ := h.AtOpen(&Conn{ID: "c2"}, "ws://x/ws/host")
		if a != "hostd" || b != "hostd" {
			t.Errorf("hostd sessions %q %q", a, b)
		}
		w := New("coworker")
		a, _ = w.Frame(&Conn{ID: "c1"}, wire.ServerToClient, wire.OpText, []byte(`{"type":"server_hello","sessionId":"A"}`))
		b, _ = w.Frame(&Conn{ID: "c2"}, wire.ServerToClient, wire.OpText, []byte(`{"type":"server_hello","sessionId":"B"}`))
		if a == b || a == "" {
			t.Errorf("coworker connections with their own server_hello share %q", a)
		}
	})
}

func TestResumeTies(t *testing.T) {
	t.Parallel()
	frame := func(s *Sessionizer, c *Conn, dir wire.Direction, text string) (string, bool) {
		return s.Frame(c, dir, wire.OpText, []byte(text))
	}
	c2s, s2c := wire.ClientToServer, wire.ServerToClient
	t.Run("myagent: reconnect_with_state joins the session its signed_state names", func(t *testing.T) {
		s := New("myagent")
		c1 := &Conn{ID: "c1"}
		frame(s, c1, s2c, `{"event":"system.connected","seq":1}`)
		if got, _ := frame(s, c1, s2c, `{"event":"agent.session_created","session_id":"old","seq":2}`); got != "old" {
			t.Fatalf("c1 in %q", got)
		}
		s.Joined(c1)
		s.Closed(c1)
		// JasonDZS/myagent: no session_id at the top, the old one inside
		// the signed_state object; the answer names a new session.
		c2 := &Conn{ID: "c2"}
		frame(s, c2, s2c, `{"event":"system.connected","seq":1}`)
		frame(s, c2, c2s, `{"event":"user.reconnect_with_state","signed_state":{"state":{"session_id":"old"},"signature":"ab"},"last_event_id":"x-1"}`)
		got, ok := frame(s, c2, s2c, `{"event":"agent.state_restored","session_id":"new","metadata":{"original_session_id":"old"},"seq":2}`)
		if !ok || got != "old" || s.Parent(c2) != "c1" {
			t.Fatalf("c2 in %q (ok %v, parent %q), want old after c1", got, ok, s.Parent(c2))
		}
		s.Joined(c2)
		// The new id is another name of the session: a connection the
		// server names "new" later joins it too.
		c3 := &Conn{ID: "c3"}
		if got, _ := frame(s, c3, s2c, `{"event":"agent.session_created","session_id":"new"}`); got != "old" || s.Parent(c3) != "c2" {
			t.Errorf("c3 in %q after %q, want old after c2", got, s.Parent(c3))
		}
	})
	t.Run("myagent: signed_state as base64 and as a JWT", func(t *testing.T) {
		b64 := base64.StdEncoding.EncodeToString([]byte(`{"session_id":"sess-b64","current_step":3}`))
		jwt := "eyJhbGciOiJIUzI1NiJ9." + base64.RawURLEncoding.EncodeToString([]byte(`{"state":{"session_id":"sess-jwt"}}`)) + ".c2ln"
		for want, req := range map[string]string{
			"sess-b64": `{"event":"user.reconnect_with_state","signed_state":"` + b64 + `","content":{"last_seq":4}}`,
			"sess-jwt": `{"event":"user.reconnect_with_state","content":{"last_seq":4,"signed_state":"` + jwt + `"}}`,
			"sess-top": `{"event":"user.reconnect_with_state","session_id":"sess-top","signed_state":"opaque"}`,
		} {
			s := New("myagent")
			c := &Conn{ID: "c9"}
			frame(s, c, c2s, req)
			if got, _ := frame(s, c, s2c, `{"event":"agent.state_restored","session_id":"fresh"}`); got != want {
				t.Errorf("%s: bound to %q", req, got)
			}
		}
	})
	t.Run("myagent: a refusal naming a session does not tie", func(t *testing.T) {
		s := New("myagent")
		c := &Conn{ID: "c1"}
		frame(s, c, c2s, `{"event":"user.reconnect_with_state","signed_state":{"state":{"session_id":"old"}}}`)
		if got, _ := frame(s, c, s2c, `{"event":"error.recovery_failed","session_id":"other"}`); got != "other" {
			t.Errorf("refused reconnect bound to %q", got)
		}
		// refused without naming any session: the client's claim is a hint
		c2 := &Conn{ID: "c2"}
		frame(s, c2, c2s, `{"event":"user.reconnect_with_state","signed_state":{"state":{"session_id":"old"}}}`)
		frame(s, c2, s2c, `{"event":"system.error","content":"Missing signed_state in reconnect request"}`)
		if got := s.GiveUp(c2); got != "old" {
			t.Errorf("refused reconnect gave up to %q", got)
		}
	})
	t.Run("coworker: a server_hello with an earlier connection's sessionId continues it", func(t *testing.T) {
		s := New("coworker")
		c1 := &Conn{ID: "c1"}
		if _, ok := s.AtOpen(c1, "ws://x/ws"); ok {
			t.Fatal("coworker binds at open: the server_hello decides")
		}
		a, _ := frame(s, c1, s2c, `{"type":"server_hello","sessionId":"S1"}`)
		s.Joined(c1)
		s.Closed(c1)
		c2 := &Conn{ID: "c2"}
		s.AtOpen(c2, "ws://x/ws?resumeSessionId=S1")
		b, _ := frame(s, c2, s2c, `{"type":"server_hello","sessionId":"S1"}`)
		if a != "S1" || b != "S1" || s.Parent(c2) != "c1" {
			t.Errorf("sessions %q %q, parent %q: want one session continued by c2", a, b, s.Parent(c2))
		}
		s.Joined(c2)
		c3 := &Conn{ID: "c3"}
		s.AtOpen(c3, "ws://x/ws?resumeSessionId=S1")
		if got, _ := frame(s, c3, s2c, `{"type":"server_hello","sessionId":"S2"}`); got != "S2" || s.Parent(c3) != "" {
			t.Errorf("a refused resume (new sessionId) in %q after %q, want a session of its own", got, s.Parent(c3))
		}
	})
}
