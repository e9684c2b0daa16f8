package web

import (
	"fmt"
	"strconv"
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
// events after it, not the window again.
func TestStreamResume(t *testing.T) {
	s := startStack(t, Config{})
	c := dialClient(t, s.proxyURL)
	c.turn("/stream 3")
	first := openSSE(t, s.webURL, "")
	evs := first.until(func(ev sseEvent) bool { return ev.data["y"] == "turn_done" })
	var mid sseEvent
	for _, ev := range evs {
		if ev.id != "" && ev.data["y"] == "accepted" {
			mid = ev
		}
	}
	if mid.id == "" {
		t.Fatal("no accepted frame in the stream")
	}
	again := openSSE(t, s.webURL, mid.id)
	if h := again.next(); h.data["k"] != "hello" {
		t.Fatalf("first event %s", h.raw)
	}
	next := again.next()
	if want := fmt.Sprint(mustAtoi(t, mid.id) + 1); next.id != want {
		t.Errorf("resumed at id %s, want %s", next.id, want)
	}
	c.close()
}

func mustAtoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
