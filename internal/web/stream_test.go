package web

import (
	"strings"
	"testing"
)

// TestStreamFramesAndFindings: a client talks through the proxy to a
// reference server that leaves run_state out of run_status (a planted
// schema violation); the page's stream carries the connection, its
// session, every frame with type and event_id, and the findings on their
// frames rendered by the report's finding template.
func TestStreamFramesAndFindings(t *testing.T) {
	s := startStack(t, Config{}, "minicodex-run-status-without-state")
	sse := openSSE(t, s.webURL, "")
	if h := sse.next(); h.data["k"] != "hello" {
		t.Fatalf("first event %s, want hello", h.raw)
	}
	c := dialClient(t, s.proxyURL)
	c.turn("hello there")
	var frames, findings int
	var finding sseEvent
	sawSession := false
	sse.until(func(ev sseEvent) bool {
		switch ev.data["k"] {
		case "s":
			sawSession = ev.data["s"] != ""
		case "f":
			frames++
			if ev.id == "" {
				t.Errorf("frame without an id: %s", ev.raw)
			}
		case "x":
			findings++
			finding = ev
		}
		return findings > 0 && frames >= 4
	})
	if !sawSession {
		t.Error("no session event")
	}
	if finding.data["ru"] != "schema.violation" || !strings.Contains(finding.data["h"].(string), `class="finding sev-error`) ||
		!strings.Contains(finding.data["h"].(string), "run_state") {
		t.Errorf("finding %s", finding.raw)
	}
	c.close()
	r := s.stop()
	if r.Verdict != "failed" {
		t.Errorf("verdict %s", r.Verdict)
	}
}

// TestStreamResume: a page that reconnects with Last-Event-ID gets the
// events after it, not the window again. Events come in batches, each
// message with the id of its last event: the stream resumes after the
// batch, at the frame after its last.
func TestStreamResume(t *testing.T) {
	s := startStack(t, Config{})
	c := dialClient(t, s.proxyURL)
	c.turn("/stream 3")
	first := openSSE(t, s.webURL, "")
	evs := first.until(func(ev sseEvent) bool { return ev.data["y"] == "turn_done" })
	var mid string
	lastOf := map[string]float64{} // message id → its last frame index
	for _, ev := range evs {
		if ev.data["k"] == "f" {
			lastOf[ev.id] = ev.data["i"].(float64)
			if ev.data["y"] == "accepted" {
				mid = ev.id
			}
		}
	}
	if mid == "" {
		t.Fatal("no accepted frame in the stream")
	}
	c.turn("/stream 2 after")
	again := openSSE(t, s.webURL, mid)
	if h := again.next(); h.data["k"] != "hello" {
		t.Fatalf("first event %s", h.raw)
	}
	next := again.until(kind("f"))
	if got, want := next[len(next)-1].data["i"], lastOf[mid]+1; got != want {
		t.Errorf("resumed at frame %v, want %v (after message %s)", got, want, mid)
	}
	c.close()
}
