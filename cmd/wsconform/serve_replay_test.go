package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

const realCoworker = "../../internal/fixture/testdata/coworker-real.jsonl"

// TestReplayUsage: the replay flags' mistakes are usage errors (exit 2).
func TestReplayUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--pace", "original"}, "--pace applies to --replay only"},
		{[]string{"serve", "--replay", "/nonexistent/rec.jsonl"}, "open recording"},
		{[]string{"serve", "--replay", realCoworker, "--dialect", "mitto"}, "--dialect does not apply to --replay"},
		{[]string{"serve", "--replay", realCoworker, "--pace", "slow"}, `--pace "slow"`},
		{[]string{"serve", "--replay", realCoworker, "--ignore", "a/b"}, "a pointer starts with /"},
		{[]string{"gate", "--replay", realCoworker, "--fault", "drop-after=1", "--", "true"}, "--fault does not apply to --replay"},
		{[]string{"gate", "--replay", realCoworker, "--dialect", "mitto", "--", "true"}, "the recording is coworker"},
	}
	for _, tt := range tests {
		code, _, stderr := wsconform(t, tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// TestServeReplay: serve --replay prints its listening line with the
// recording's dialect and endpoints, a client's mismatch live on stderr,
// and a summary on exit.
func TestServeReplay(t *testing.T) {
	t.Parallel()
	l, stop := serving(t, "--replay", realCoworker, "--color", "never")
	if l.Replay != realCoworker || len(l.Dialects) != 1 || l.Dialects[0] != "coworker" || l.Endpoints["coworker"][0] != "/ws" {
		t.Fatalf("listening line %+v", l)
	}
	ws, _, err := websocket.DefaultDialer.Dial(l.URL+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, first, err := ws.ReadMessage(); err != nil || !strings.Contains(string(first), "server_hello") {
		t.Fatalf("first frame %s, %v", first, err)
	}
	_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"client_hullo","client":"wsconform-field-drive","version":"0.1"}`))
	_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1000, ""), time.Now().Add(time.Second))
	for {
		if _, _, err := ws.ReadMessage(); err != nil {
			break
		}
	}
	ws.Close()
	if _, _, err := websocket.DefaultDialer.Dial(l.URL+"/ws", nil); err == nil {
		t.Error("a second connection was served; the recording has one (want 410 without --loop)")
	}
	code, stderr := stop()
	for _, want := range []string{"replay.client-mismatch", "/type", "client_hullo", "replay summary", "r1 ← recorded c1", "410"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != 0 {
		t.Errorf("exit %d, want 0 (serve ends on a signal)", code)
	}
}
