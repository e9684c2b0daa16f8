package sessionize

import (
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
		a, _ = w.AtOpen(&Conn{ID: "c1"}, "")
		b, _ = w.AtOpen(&Conn{ID: "c2"}, "")
		if a == b {
			t.Errorf("coworker connections share %q", a)
		}
	})
}
