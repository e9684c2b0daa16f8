package minicodex_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/reference/minicodex"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestFlood: 2000 pings without reading the answers; then every one is
// answered (or the connection closed with 1013), never a panic or hang.
func TestFlood(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _, _ := hello(t, srv, "")
	const n = 2000
	for i := 0; i < n; i++ {
		c.Send(`{"type":"ping"}`)
	}
	got := 0
	for got < n {
		m := c.Next()
		switch m.Type {
		case "accepted":
			got++
		case "backpressure":
		default:
			t.Fatalf("unexpected %s", m)
		}
	}
	send(t, c, "still alive")
	c.Until("turn_done")
}

// TestBackpressure: a client slower than the stream gets drain, then ok,
// and the stream waits for it instead of overflowing its queue.
func TestBackpressure(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{QueueSize: 16})
	c, _, _ := hello(t, srv, "?fault=delay=1ms")
	send(t, c, "/stream 60")
	ms := c.Until("turn_done")
	var states []string
	chunks := 0
	for _, m := range ms {
		switch m.Type {
		case "backpressure":
			states = append(states, m.Str("/state"))
		case "assistant_text":
			chunks++
		}
	}
	if chunks != 60 {
		t.Errorf("%d chunks, want 60", chunks)
	}
	if len(states) < 2 || states[0] != "drain" || states[1] != "ok" {
		t.Errorf("backpressure states %v, want drain, ok, …", states)
	}
	for i := 1; i < len(states); i++ {
		if states[i] == states[i-1] {
			t.Errorf("backpressure repeats %q: %v", states[i], states)
		}
	}
}

func TestFaults(t *testing.T) {
	t.Parallel()
	t.Run("drop-after=3", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		c := srv.Dial(t, "/ws?fault=drop-after=3")
		c.Send(map[string]any{"type": "hello", "v": "1.0.0"})
		c.ExpectSeq("welcome", "snapshot")
		c.Send(map[string]any{"type": "send", "text": "/stream 5"})
		c.ExpectSeq("accepted")
		if code, _ := c.Closed(); code != 1006 {
			t.Errorf("closed with %d, want 1006", code)
		}
	})
	t.Run("close=4000", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		c := srv.Dial(t, "/ws?fault=close=4000")
		if code, _ := c.Closed(); code != 4000 {
			t.Errorf("closed with %d, want 4000", code)
		}
	})
	t.Run("duplicate=2", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		c := srv.Dial(t, "/ws?fault=duplicate=2")
		c.Send(map[string]any{"type": "hello", "v": "1.0.0"})
		ms := c.ExpectSeq("welcome", "snapshot", "snapshot")
		if !bytes.Equal(ms[1].Raw, ms[2].Raw) {
			t.Errorf("duplicate differs")
		}
		if rest := barrier(t, c, "end"); len(rest) != 0 {
			t.Errorf("more after the duplicate: %s", types(rest))
		}
	})
	t.Run("duplicate an event", func(t *testing.T) {
		t.Parallel()
		// The server sends user_text twice on purpose: the check engine
		// must notice the repeated event_id.
		srv := reftest.Start(t, "minicodex", minicodex.New, reftest.Options{ExpectFindings: true,
			Config: server.Config{Heartbeat: -1}})
		c, _, _ := hello(t, srv, "?fault=duplicate=user_text")
		send(t, c, "hi")
		ms := c.Until("turn_done")
		if got := types(ms); !strings.HasPrefix(got, "run_status:starting user_text user_text run_status:running") {
			t.Errorf("events: %s", got)
		}
		srv.RequireFinding(t, "minicodex.event-id-order")
	})
}

// TestDeterminism: the same conversation on two fresh servers with
// sequential ids and a fixed clock gives byte-identical frames.
func TestDeterminism(t *testing.T) {
	t.Parallel()
	fixed := time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)
	conversation := func() []string {
		srv := start(t, server.Config{Now: func() time.Time { return fixed }})
		c, sid, _ := hello(t, srv, "")
		var frames []string
		add := func(ms []reftest.Msg) {
			for _, m := range ms {
				frames = append(frames, string(m.Raw))
			}
		}
		c.Send(map[string]any{"type": "send", "text": `/tool grep {"q":"x"}`, "req_id": "1"})
		ms := untilStatus(t, c, "awaiting_approval")
		add(ms)
		c.Send(map[string]any{"type": "approve", "call_id": "call_1", "req_id": "2"})
		add(untilStatus(t, c, "finished"))
		c.Send(map[string]any{"type": "send", "text": "/think deep thought", "client_msg_id": "m"})
		add(c.Until("turn_done"))
		c.Send(map[string]any{"type": "get_snapshot", "include_transcript_window": true})
		add(c.ExpectSeq("snapshot"))
		c.Drop()
		b := srv.Dial(t, "/ws")
		b.Send(resume(sid, 3))
		add(barrier(t, b, "end"))
		return frames
	}
	a, b := conversation(), conversation()
	if len(a) != len(b) {
		t.Fatalf("%d frames vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("frame %d differs:\n%s\n%s", i, a[i], b[i])
		}
	}
}

// TestShutdownMidRun leaves a run waiting for approval and one streaming
// slowly: cleanup's leak check proves both goroutines end on shutdown.
func TestShutdownMidRun(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	a, _, _ := hello(t, srv, "")
	send(t, a, "/tool ls")
	a.Expect("approval_pending")
	b, _, _ := hello(t, srv, "", reftest.Group("b"))
	send(t, b, "/slow 1000")
	b.Expect("assistant_text")
	a.Drop() // the session and its run outlive the connection
}
