package validate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// twoTabHAR writes a HAR with two connections to the same endpoint that
// both carry minicodex event 1, with different content.
func twoTabHAR(t *testing.T) string {
	t.Helper()
	entry := func(text string) map[string]any {
		return map[string]any{
			"startedDateTime": "2026-11-21T10:00:00Z",
			"request":         map[string]any{"url": "ws://127.0.0.1:7337/ws"},
			"_webSocketMessages": []map[string]any{
				{"type": "send", "time": 1795255200.1, "opcode": 1, "data": `{"type":"hello","v":"1.0.0"}`},
				{"type": "receive", "time": 1795255200.2, "opcode": 1, "data": `{"type":"assistant_text","text":"` + text + `","event_id":1}`},
			},
		}
	}
	har := map[string]any{"log": map[string]any{"entries": []any{entry("tab one"), entry("tab two")}}}
	b, err := json.Marshal(har)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tabs.har")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHARConnectionsAreSeparateSessions: two browser tabs are two sessions,
// so their event ids are never compared; --one-session says they are one
// session, and then the second event 1 is a changed replay.
func TestHARConnectionsAreSeparateSessions(t *testing.T) {
	t.Parallel()
	path := twoTabHAR(t)
	res, err := File(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sessions != 2 || res.Conns != 2 || res.Frames != 4 || len(res.Findings) != 0 {
		t.Fatalf("separate: %d sessions %d conns %d frames, findings %+v", res.Sessions, res.Conns, res.Frames, res.Findings)
	}
	res, err = File(context.Background(), path, Options{OneSession: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sessions != 1 || len(res.Findings) != 1 || res.Findings[0].Rule != "minicodex.replay-mismatch" {
		t.Fatalf("one session: %d sessions, findings %+v", res.Sessions, res.Findings)
	}
}

func TestCancelledContextStops(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := File(ctx, twoTabHAR(t), Options{Dialect: "minicodex"}); err == nil {
		t.Fatal("a cancelled validation must report it")
	}
}
