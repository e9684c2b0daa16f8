package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/console/consoletest"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// hostileTexts are the texts of one round of a property test: the attack
// of issue 22 first, then random ones.
func hostileTexts(rng *rand.Rand, n int) []string {
	out := []string{consoletest.Attack}
	for len(out) < n {
		out = append(out, consoletest.Hostile(rng, 8))
	}
	return out
}

// assertTerminalSafe fails when out holds anything a terminal acts on
// (consoletest.Unsafe) or a line a peer forged: a verdict word at column 0
// other than the tool's own final verdict.
func assertTerminalSafe(t *testing.T, what, out string, colour bool) {
	t.Helper()
	if bad := consoletest.Unsafe([]byte(out), colour); bad != "" {
		t.Fatalf("%s: %s\n%s", what, bad, out)
	}
	verdicts := 0
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimLeft(line, "\x1b[0123456789;m") // the tool's colour
		if strings.HasPrefix(line, "PASS") || strings.HasPrefix(line, "FAIL") || strings.HasPrefix(line, "FAKE") {
			verdicts++
		}
	}
	if verdicts > 1 {
		t.Fatalf("%s: %d verdict lines, a peer forged one:\n%s", what, verdicts, out)
	}
}

// hostileRecording writes a minicodex recording whose peer-controlled
// parts are hostile: the URL, session ids, message types, member names
// and values (JSON-escaped, so that they decode to control characters),
// raw text that is not JSON, a text frame that is not UTF-8, close
// reasons.
func hostileRecording(t *testing.T, dir string, rng *rand.Rand) string {
	t.Helper()
	h := hostileTexts(rng, 12)
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	var lines []any
	lines = append(lines, recording.Line{Kind: "header", Format: "wsconform-recording", Version: 1, Dialect: "minicodex", Tool: "term_test", Time: at})
	lines = append(lines, recording.Line{Kind: "open", Conn: "c1", Session: "s1", URL: "ws://127.0.0.1:7337/ws?x=" + h[0], Time: at})
	frame := func(i int64, dir wire.Direction, payload string) recording.Line {
		return recording.FrameLine("s1", wire.Frame{Conn: "c1", Dir: dir, Index: i, Time: at.Add(time.Duration(i) * time.Second), Op: wire.OpText, Payload: []byte(payload)})
	}
	js := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	payloads := []string{
		js(map[string]any{"type": "hello", "v": "1.0.0", "client_capabilities": []string{h[1]}}),
		js(map[string]any{"type": "welcome", "v": h[2], "session_state": map[string]any{"session_id": h[3], "version": h[4], "capabilities": []string{}, "last_event_id": nil, "active_run_id": nil, "run_counter": 0}}),
		js(map[string]any{"type": h[5], h[6]: h[7]}),
		js(map[string]any{"type": "send", "text": h[8], "client_msg_id": h[9], "req_id": "r1", h[10]: 1}),
		js(map[string]any{"type": "assistant_text", "text": h[11], "event_id": 1}),
		js(map[string]any{"type": "assistant_text", "text": h[0], "event_id": 1}), // a replay that differs: a diff
		`{"type":"` + h[1] + `","v":` + h[2],                                      // raw, not JSON
		"\xff\xfe" + h[3],                                                         // not UTF-8
	}
	for i, p := range payloads {
		dir := wire.ServerToClient
		if i%3 == 0 {
			dir = wire.ClientToServer
		}
		lines = append(lines, frame(int64(i+1), dir, p))
	}
	lines = append(lines, recording.Line{Kind: "close", Conn: "c1", Session: "s1", Time: at.Add(time.Minute), Code: 4000, Reason: h[4], By: "server"})
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(js(l))
		b.WriteByte('\n')
	}
	path := filepath.Join(dir, fmt.Sprintf("hostile-%d.jsonl", rng.Uint32()))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestValidateHostileFrames: whatever the frames of a recording hold, the
// console of validate shows it and the terminal does nothing: no control
// character but the tool's newlines (and, with colour, its own SGR
// sequences), no forged verdict line.
func TestValidateHostileFrames(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(22, 2))
	dir := t.TempDir()
	for round := range 12 {
		path := hostileRecording(t, dir, rng)
		for _, colour := range []string{"never", "always"} {
			code, out, errs := wsconform(t, "validate", "--color", colour, path)
			if code == exitUsage {
				t.Fatalf("round %d: exit %d\n%s%s", round, code, out, errs)
			}
			if !strings.Contains(out, "frame") {
				t.Fatalf("round %d: validate judged nothing:\n%s%s", round, out, errs)
			}
			assertTerminalSafe(t, fmt.Sprintf("round %d, --color %s, stdout", round, colour), out, colour == "always")
			assertTerminalSafe(t, fmt.Sprintf("round %d, --color %s, stderr", round, colour), errs, colour == "always")
		}
	}
}

// hostileFeature is a user's feature run against hostileServer: each
// scenario makes the console quote the server (a failed expectation, a
// close reason, an HTTP body, a diff) and one sends a --var secret that
// the server echoes.
const hostileFeature = `@minicodex
Feature: the server's words on the console

  @id:hostile.echo @must
  Scenario: a failed expectation quotes the server
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0", "note": "{host_token}"}
      """
    Then the client receives "welcome"
    And its "v" is "1.0.0"

  @id:hostile.with @must
  Scenario: a failed match quotes the server
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome" within 300ms with:
      """
      {"v": "1.0.0"}
      """

  @id:hostile.close @must
  Scenario: a close reason
    Given a client connects to "/close"
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome" within 2s

  @id:hostile.http @must
  Scenario: an HTTP body
    When I GET "/health"
    Then the HTTP status is 200
`

// hostileServer answers every message with a frame of a hostile type and
// member, and a welcome whose v is hostile and ends with what the client
// sent as its note; on /close it closes with a hostile reason; over HTTP
// it answers 500 with a hostile body and header.
func hostileServer(t *testing.T, h []string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !websocket.IsWebSocketUpgrade(r) {
			w.Header().Set("X-Why", strings.ToValidUTF8(strings.NewReplacer("\r", "", "\n", "").Replace(h[0]), "?"))
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(h[1]))
			return
		}
		up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		for {
			_, msg, err := ws.ReadMessage()
			if err != nil {
				return
			}
			if r.URL.Path == "/close" {
				reason := strings.ToValidUTF8(h[2], "?")
				for len(reason) > 120 {
					_, size := utf8.DecodeLastRuneInString(reason)
					reason = reason[:len(reason)-size]
				}
				_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(4000, reason), time.Now().Add(time.Second))
				return
			}
			var in struct{ Note string }
			_ = json.Unmarshal(msg, &in)
			for _, v := range []any{map[string]any{"type": h[3], h[4]: h[5]}, map[string]any{"type": "welcome", "v": h[6] + in.Note}} {
				b, _ := json.Marshal(v)
				if ws.WriteMessage(websocket.TextMessage, b) != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// TestRunHostileTarget: a failing run against a server whose every word is
// hostile prints it escaped (failed steps, expected/actual, diffs, close
// reasons, HTTP bodies, root causes), with and without colour; the
// console shows neither the --header credential nor the --var secret,
// not even in the re-run command or where the server echoes it, and the
// JSON report still redacts them.
func TestRunHostileTarget(t *testing.T) {
	t.Parallel()
	const bearer, hostToken = "sk-test-SECRETVALUE123", "SECRET-host-token-0123456789"
	dir := t.TempDir()
	features := filepath.Join(dir, "features", "minicodex")
	if err := os.MkdirAll(features, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(features, "hostile.feature"), []byte(hostileFeature), 0o644); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(22, 3))
	for round := range 2 {
		target := hostileServer(t, hostileTexts(rng, 7))
		for _, colour := range []string{"never", "always"} {
			report := filepath.Join(dir, fmt.Sprintf("r%d-%s.json", round, colour))
			code, out, errs := wsconform(t, "run", "--features", filepath.Dir(features), "--target", target+"/ws", "--color", colour,
				"--header", "Authorization: Bearer "+bearer, "--var", "host_token="+hostToken, "--json", report)
			what := fmt.Sprintf("round %d, --color %s", round, colour)
			if code != exitFail {
				t.Fatalf("%s: exit %d, want %d (the scenarios fail)\n%s\n%s", what, code, exitFail, out, errs)
			}
			if !strings.Contains(out, "To re-run a failed scenario:") || !strings.Contains(out, "Authorization: Bearer ") {
				t.Fatalf("%s: no re-run command with its header:\n%s", what, out)
			}
			assertTerminalSafe(t, what+", stdout", out, colour == "always")
			assertTerminalSafe(t, what+", stderr", errs, colour == "always")
			rep, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			for _, secret := range []string{bearer, hostToken} {
				if strings.Contains(out+errs, secret) {
					t.Errorf("%s: the console shows %s:\n%s\n%s", what, secret, out, errs)
				}
				if strings.Contains(string(rep), secret) {
					t.Errorf("%s: the JSON report holds %s", what, secret)
				}
			}
		}
	}
}

// TestServeLogEscapes: serve --verbose's log quotes and escapes what a
// client controls, whatever it is, in values, errors and messages alike.
func TestServeLogEscapes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(22, 5))
	for _, s := range hostileTexts(rng, 200) {
		var b strings.Builder
		log := verboseLog(&b)
		log.Info("connection opened", "conn", s, "path", "/ws/"+s)
		log.Error("coworker: drop event", "err", errors.New(s))
		log.Info(s)
		if bad := consoletest.Unsafe([]byte(b.String()), false); bad != "" || strings.Count(b.String(), "\n") != 3 {
			t.Fatalf("logging %q: %s (%d lines, want 3)\n%s", s, bad, strings.Count(b.String(), "\n"), b.String())
		}
	}
}
