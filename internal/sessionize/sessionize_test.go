package proxy

import (
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/wire"
)

func TestSessionizer(t *testing.T) {
	t.Parallel()
	t.Run("minicodex binds on the server's word", func(t *testing.T) {
		s := newSessionizer("minicodex")
		c1 := &sessConn{id: "c1"}
		if _, ok := s.atOpen(c1, "ws://x/ws?session_id=hint"); ok {
			t.Fatal("a query must not bind")
		}
		if _, ok := s.frame(c1, wire.ClientToServer, wire.OpText, []byte(`{"type":"resume","session_id":"claimed"}`)); ok {
			t.Fatal("a client's claim must not bind")
		}
		got, ok := s.frame(c1, wire.ServerToClient, wire.OpText, []byte(`{"type":"welcome","session_state":{"session_id":"sess_1"}}`))
		if !ok || got != "sess_1" {
			t.Fatalf("welcome bound %q %v", got, ok)
		}
		s.joined(c1)
		s.closed(c1)
		c2 := &sessConn{id: "c2"}
		got, _ = s.frame(c2, wire.ServerToClient, wire.OpText, []byte(`{"type":"welcome","session_state":{"session_id":"sess_1"}}`))
		if got != "sess_1" || s.parent(c2) != "c1" {
			t.Errorf("c2 in %q reconnecting %q", got, s.parent(c2))
		}
	})
	t.Run("hints and giving up", func(t *testing.T) {
		s := newSessionizer("minicodex")
		c := &sessConn{id: "c1"}
		s.atOpen(c, "ws://x/ws?session_id=q")
		if got := s.giveUp(c); got != "q" {
			t.Errorf("gave up to %q, want the query hint", got)
		}
		c2 := &sessConn{id: "c2"}
		var got string
		var ok bool
		for range maxHeldFrames {
			got, ok = s.frame(c2, wire.ServerToClient, wire.OpText, []byte(`{"type":"heartbeat"}`))
		}
		if !ok || got != "c2" {
			t.Errorf("after %d frames without a session: %q %v, want a session of its own", maxHeldFrames, got, ok)
		}
	})
	t.Run("names are unique and printable", func(t *testing.T) {
		s := newSessionizer("myagent")
		own := &sessConn{id: "c1"}
		s.giveUp(own) // session "c1"
		clash := &sessConn{id: "c2"}
		got, _ := s.frame(clash, wire.ServerToClient, wire.OpText, []byte(`{"event":"x","session_id":"c1"}`))
		if got == "c1" {
			t.Errorf("a protocol key equal to a connection's own session merged them")
		}
		long := &sessConn{id: "c3"}
		got, _ = s.frame(long, wire.ServerToClient, wire.OpText, []byte(`{"event":"x","session_id":"`+strings.Repeat("é", 200)+`\n"}`))
		if len([]rune(got)) != maxSessionKey || strings.ContainsAny(got, "\n\"") {
			t.Errorf("session name %q", got)
		}
	})
	t.Run("hostd shares, coworker splits", func(t *testing.T) {
		h := newSessionizer("hostd")
		a, _ := h.atOpen(&sessConn{id: "c1"}, "ws://x/ws/app")
		b, _ := h.atOpen(&sessConn{id: "c2"}, "ws://x/ws/host")
		if a != "hostd" || b != "hostd" {
			t.Errorf("hostd sessions %q %q", a, b)
		}
		w := newSessionizer("coworker")
		a, _ = w.atOpen(&sessConn{id: "c1"}, "")
		b, _ = w.atOpen(&sessConn{id: "c2"}, "")
		if a == b {
			t.Errorf("coworker connections share %q", a)
		}
	})
}
