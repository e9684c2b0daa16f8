package proxy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/reports"
)

// minicodexHello opens a minicodex session through the proxy and returns
// the client and the session id.
func minicodexHello(t *testing.T, url string) (*client, string) {
	t.Helper()
	c := dial(t, url+"/ws", nil)
	c.send(map[string]any{"type": "hello", "v": "1.0.0", "client_capabilities": []string{"approvals"}})
	w := c.next()
	sid, _ := w.doc()["session_state"].(map[string]any)["session_id"].(string)
	if w.str("type") != "welcome" || sid == "" {
		t.Fatalf("first message %s, want welcome with a session id", w.data)
	}
	return c, sid
}

// runTurn sends text and reads up to turn_done; it returns the last
// event_id seen.
func runTurn(t *testing.T, c *client, text string) int64 {
	t.Helper()
	c.send(map[string]any{"type": "send", "text": text, "req_id": "r1"})
	var last int64
	for _, m := range c.until("type", "turn_done") {
		if id, ok := m.doc()["event_id"].(float64); ok {
			last = int64(id)
		}
	}
	return last
}

// TestPlantedViolationIsReported: a reference server that repeats an
// event_id (a mutation) is caught live, with the rule, the frame and
// expected vs actual, and printed on the console.
func TestPlantedViolationIsReported(t *testing.T) {
	t.Parallel()
	ref := startRef(t, "minicodex", "minicodex-event-id-repeats")
	tp := startProxy(t, Config{Upstream: ref.URL}) // dialect auto
	c, _ := minicodexHello(t, tp.url)
	runTurn(t, c, "hi there")
	c.closeWith(1000, "done")
	c.closed()
	r := tp.Stop()
	if r.Dialects[0] != "minicodex" || !strings.Contains(r.Sessions[0].Reason, "detected") {
		t.Errorf("dialect %v, reason %q", r.Dialects, r.Sessions[0].Reason)
	}
	var got *reports.Finding
	for _, f := range findings(r) {
		if f.Rule == "minicodex.event-id-order" {
			got = &f
			break
		}
	}
	if got == nil {
		t.Fatalf("no minicodex.event-id-order finding; findings: %s", describeFindings(findings(r)))
	}
	if got.Severity != check.Error || got.Frame == 0 || got.Conn != "c1" || got.Expected == "" || got.Actual == "" {
		t.Errorf("finding %+v", got.Finding)
	}
	if r.Sessions[0].Verdict != reports.Failed || r.Verdict != reports.Failed {
		t.Errorf("verdicts %s / %s, want failed", r.Sessions[0].Verdict, r.Verdict)
	}
	out := tp.console.String()
	for _, want := range []string{"minicodex.event-id-order", "expected:", "→ hello", "← welcome", "c1 session sess_", "event_id=", "dialect minicodex"} {
		if !strings.Contains(out, want) {
			t.Errorf("console lacks %q:\n%s", want, out)
		}
	}
	// The finding's frame is in the wire log.
	found := false
	for _, f := range r.Sessions[0].Frames {
		found = found || f.Index == got.Frame
	}
	if !found {
		t.Errorf("frame %d of the finding is not in the wire log", got.Frame)
	}
	if testing.Verbose() {
		fmt.Println(out)
	}
}

// TestCleanSessionPasses: the reference server without mutations gives
// no error finding through the proxy.
func TestCleanSessionPasses(t *testing.T) {
	t.Parallel()
	ref := startRef(t, "minicodex")
	tp := startProxy(t, Config{Upstream: ref.URL, Dialect: "minicodex"})
	c, _ := minicodexHello(t, tp.url)
	runTurn(t, c, "/stream 5")
	c.closeWith(1000, "done")
	c.closed()
	r := tp.Stop()
	if errs := errorsOf(r); len(errs) > 0 {
		t.Fatalf("errors on a clean session: %s", describeFindings(errs))
	}
	if r.Verdict == reports.Failed || len(r.Sessions) != 1 {
		t.Errorf("verdict %s, %d sessions", r.Verdict, len(r.Sessions))
	}
}

// TestDialectNotDetected: traffic no dialect explains is relayed and
// recorded; after the detection sample the proxy says it cannot tell and
// the report says nothing was checked.
func TestDialectNotDetected(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url})
	c := dial(t, tp.url+"/ws", nil)
	for i := range 40 {
		c.send(map[string]any{"x": i})
		c.next()
	}
	c.closeWith(1000, "")
	c.closed()
	r := tp.Stop()
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0], "dialect not detected") {
		t.Errorf("errors %v", r.Errors)
	}
	if len(r.Sessions) != 1 || r.Sessions[0].FramesTotal != 82 || len(r.Dialects) != 0 {
		t.Errorf("sessions %+v dialects %v", r.Sessions, r.Dialects)
	}
	if !strings.Contains(tp.console.String(), "dialect not detected") {
		t.Errorf("console:\n%s", tp.console.String())
	}
	if n := strings.Count(tp.rec.String(), `"kind":"frame"`); n != 82 {
		t.Errorf("recorded %d frames, want 82", n)
	}
}
