package minicodex_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestResumeReplay: a client that saw events up to N reconnects and gets
// exactly the events after N, byte for byte, then live events.
func TestResumeReplay(t *testing.T) {
	t.Parallel()
	for _, via := range []string{"envelope", "query"} {
		t.Run(via, func(t *testing.T) {
			t.Parallel()
			srv := start(t, server.Config{})
			a, sid, _ := hello(t, srv, "")
			send(t, a, "/stream 6")
			orig := a.Until("turn_done")
			a.Drop()
			const seen = 3
			b := srv.Dial(t, "/ws")
			msg := resume(sid, seen)
			if via == "query" {
				b = srv.Dial(t, "/ws?session_id="+sid)
				delete(msg, "session_id")
			}
			b.Send(msg)
			w := b.Expect("welcome")
			if w.Str("/req_id") != fmt.Sprint("resume-", seen) || w.Str("/session_state/session_id") != sid {
				t.Errorf("welcome: %s", w)
			}
			replayed := barrier(t, b, "end")
			var want [][]byte
			for _, m := range orig {
				if m.Int("/event_id") > seen {
					want = append(want, m.Raw)
				}
			}
			if len(replayed) != len(want) {
				t.Fatalf("replayed %d events, want %d: %s", len(replayed), len(want), types(replayed))
			}
			for i := range want {
				if !bytes.Equal(replayed[i].Raw, want[i]) {
					t.Errorf("replayed event %d differs:\n got %s\nwant %s", i, replayed[i].Raw, want[i])
				}
			}
			// Live again.
			send(t, b, "after resume")
			requireIncreasing(t, orig[len(orig)-1].Int("/event_id"), b.Until("turn_done"))
		})
	}
}

// TestResumeMidRun: the connection drops (a fault) in the middle of a run;
// the run goes on, and a resume picks up every event without a gap.
func TestResumeMidRun(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	// welcome, snapshot, accepted, starting, user_text, running: then the drop.
	a := srv.Dial(t, "/ws?fault=drop-after=6")
	a.Send(map[string]any{"type": "hello", "v": "1.0.0"})
	sid := a.Expect("welcome").Str("/session_state/session_id")
	a.Send(map[string]any{"type": "send", "text": "/slow 10"})
	got := a.ExpectSeq("snapshot", "accepted", "run_status", "user_text", "run_status")
	if code, _ := a.Closed(); code != 1006 {
		t.Fatalf("drop-after=6 closed with %d, want 1006 (no close frame)", code)
	}
	last := got[len(got)-1].Int("/event_id")
	b := srv.Dial(t, "/ws")
	b.Send(resume(sid, last))
	b.Expect("welcome")
	ms := b.Until("turn_done")
	requireIncreasing(t, last, ms)
	if text(ms, "assistant_text") == "" || ms[len(ms)-2].Str("/run_state/status") != "finished" {
		t.Errorf("resumed run: %s", types(ms))
	}
}

func TestResumeFromStart(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	a, sid, _ := hello(t, srv, "")
	send(t, a, "hi")
	orig := a.Until("turn_done")
	b := srv.Dial(t, "/ws")
	b.Send(map[string]any{"type": "resume", "session_id": sid, "last_seen_event_id": nil})
	b.Expect("welcome")
	if got := barrier(t, b, "end"); len(got) != len(orig) || got[0].Int("/event_id") != 1 {
		t.Errorf("resume from null replayed %s, want %s", types(got), types(orig))
	}
}

// TestReplayWindowExceeded: the missed events left the window, so the
// server says get_snapshot and sends nothing more until it is asked.
func TestReplayWindowExceeded(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{ReplayWindow: 5})
	a, sid, _ := hello(t, srv, "")
	send(t, a, "/stream 10")
	a.Until("turn_done")
	a.Drop()
	b := srv.Dial(t, "/ws")
	b.Send(resume(sid, 1))
	b.Expect("welcome")
	e := expectError(t, b, "REPLAY_WINDOW_EXCEEDED", "resume-1")
	if e.Str("/details/action") != "get_snapshot" || e.Int("/details/oldest_event_id") <= 2 {
		t.Errorf("window error: %s", e)
	}
	// A second client keeps the session busy meanwhile; b gets nothing.
	c, _, _ := hello(t, srv, "?session_id="+sid)
	send(t, c, "meanwhile")
	c.Until("turn_done")
	if ms := barrier(t, b, "quiet"); len(ms) != 0 {
		t.Fatalf("events reached a client that must get_snapshot first: %s", types(ms))
	}
	b.Send(map[string]any{"type": "get_snapshot", "include_transcript_window": true})
	s := b.Expect("snapshot")
	if s.Int("/event_id") != s.Int("/session_state/last_event_id") {
		t.Errorf("snapshot: %s", s)
	}
	send(t, b, "back")
	requireIncreasing(t, s.Int("/event_id"), b.Until("turn_done"))
}

// TestFanOut: every client of a session gets every event, identical bytes.
func TestFanOut(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	a, sid, _ := hello(t, srv, "")
	b, _, _ := hello(t, srv, "?session_id="+sid)
	send(t, a, "/tool ls")
	pa := a.Expect("approval_pending")
	pb := b.Expect("approval_pending")
	if !bytes.Equal(pa.Raw, pb.Raw) {
		t.Errorf("fan-out copies differ:\n%s\n%s", pa.Raw, pb.Raw)
	}
	b.Send(map[string]any{"type": "approve", "call_id": pb.Str("/call_id"), "req_id": "from-b"})
	ea := events(untilStatus(t, a, "finished"))
	eb := events(untilStatus(t, b, "finished"))
	if len(ea) != len(eb) {
		t.Fatalf("a got %s\nb got %s", types(ea), types(eb))
	}
	for i := range ea {
		if !bytes.Equal(ea[i].Raw, eb[i].Raw) {
			t.Errorf("event %d differs:\n%s\n%s", i, ea[i].Raw, eb[i].Raw)
		}
	}
}

// events keeps the messages that carry an event_id.
func events(ms []reftest.Msg) []reftest.Msg {
	var out []reftest.Msg
	for _, m := range ms {
		if m.Has("/event_id") {
			out = append(out, m)
		}
	}
	return out
}
