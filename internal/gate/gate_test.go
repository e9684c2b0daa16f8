package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// The test binary doubles as the client under test: run with
// WSCONFORM_GATE_CLIENT set, TestClientProcess plays that client.
const clientEnv = "WSCONFORM_GATE_CLIENT"

// TestClientProcess is the client program; it is skipped in normal runs.
func TestClientProcess(t *testing.T) {
	mode := os.Getenv(clientEnv)
	if mode == "" {
		t.Skip("only runs as the client of a gate test")
	}
	if err := minicodexClient(mode, os.Getenv("WSCONFORM_URL")); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(7)
	}
	os.Exit(0)
}

// minicodexClient says hello, streams a reply and, when the connection
// drops, resumes. mode is a comma-separated set of flags: "bad-resume"
// resumes from an event it never saw (5 past the last, "far": 1000 past);
// "nosid" resumes as the spec's Resume reads, without session_id;
// "1006-only" reconnects only when the connection dropped (1006) and ends
// quietly on any close frame; "fail" exits non-zero after a clean
// exchange; "silent" never connects; "other-text" asks for another turn
// than the recorded one (a replay mismatch). A refused resume ends the client
// quietly (exit 0): the gate must fail it on its frames alone.
func minicodexClient(mode, url string) error {
	flags := map[string]bool{}
	for _, f := range strings.Split(mode, ",") {
		flags[f] = true
	}
	if flags["silent"] {
		return nil
	}
	conn, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		return err
	}
	send := func(v any) error { return conn.WriteJSON(v) }
	if err := send(map[string]any{"type": "hello", "v": "1.0.0"}); err != nil {
		return err
	}
	sid, last, sent, resumed := "", int64(0), false, false
	for {
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		var m map[string]any
		if err := conn.ReadJSON(&m); err != nil {
			conn.Close()
			if sid == "" {
				return err
			}
			if flags["1006-only"] && !websocket.IsCloseError(err, websocket.CloseAbnormalClosure) {
				return nil // not a drop: this client gives up, as it would in production
			}
			from := last
			switch {
			case flags["bad-resume"] && flags["far"]:
				from = last + 1000
			case flags["bad-resume"]:
				from = last + 5
			}
			if conn, _, err = websocket.DefaultDialer.Dial(url, nil); err != nil {
				return err
			}
			msg := map[string]any{"type": "resume", "v": "1.0.0", "session_id": sid, "last_seen_event_id": from}
			if flags["nosid"] {
				delete(msg, "session_id")
			}
			if err := conn.WriteJSON(msg); err != nil {
				return err
			}
			resumed = true
			send = func(v any) error { return conn.WriteJSON(v) }
			continue
		}
		if e, ok := m["event_id"].(float64); ok && int64(e) > last {
			last = int64(e)
		}
		switch m["type"] {
		case "welcome":
			if st, ok := m["session_state"].(map[string]any); ok {
				sid, _ = st["session_id"].(string)
			}
			if !sent {
				sent = true
				text := "/stream 6"
				if flags["other-text"] {
					text = "/stream 5"
				}
				if err := send(map[string]any{"type": "send", "text": text, "client_msg_id": "m1"}); err != nil {
					return err
				}
			}
		case "error":
			if resumed {
				_ = conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(1000, "resume refused"))
				conn.Close()
				return nil
			}
		case "turn_done":
			_ = conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(1000, "done"))
			time.Sleep(50 * time.Millisecond)
			conn.Close()
			if flags["fail"] {
				return fmt.Errorf("failing on purpose")
			}
			return nil
		}
	}
}

func runGate(t *testing.T, mode string, faults ...string) Result {
	t.Helper()
	res, _ := runGateOut(t, mode, faults...)
	return res
}

// runGateOut is runGate with the gate's console and the client's output.
func runGateOut(t *testing.T, mode string, faults ...string) (Result, string) {
	t.Helper()
	specs, err := fault.ParseAll(faults)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(clientEnv, mode)
	var out bytes.Buffer
	res, err := Run(context.Background(), Options{Dialect: "minicodex", Faults: specs,
		Command: []string{os.Args[0], "-test.run=^TestClientProcess$"},
		Stdout:  &out, Stderr: &out, Console: &out, Color: "never", Timeout: 30 * time.Second})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Logf("%s", out.String())
	return res, out.String()
}

// TestGateConsoleClientOnly: the gate's console shows what the client is
// blamed for; findings on the server's frames (here from an injected
// duplicate) are in the report, not on the console.
// Not parallel: t.Setenv hands the mode to the client process.
func TestGateConsoleClientOnly(t *testing.T) {
	res, out := runGateOut(t, "good", "duplicate=assistant_text")
	server := 0
	for _, s := range res.Report.Sessions {
		for _, f := range s.Findings {
			if f.Dir == wire.ServerToClient {
				server++
			}
		}
	}
	if server == 0 {
		t.Fatalf("the fault made no finding on a server frame: %s", rules(res.Report))
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, " · ") && strings.Contains(line, " ← ") && (strings.Contains(line, "error ") || strings.Contains(line, "warning ")) {
			t.Errorf("the console shows a server-side finding: %s", line)
		}
	}
}

func rules(r *reports.Report) string {
	var ids []string
	for _, s := range r.Sessions {
		for _, f := range s.Findings {
			ids = append(ids, string(f.Dir)+":"+f.Rule)
		}
	}
	return strings.Join(ids, " ")
}

// Not parallel: t.Setenv hands the mode to the client process.
func TestGate(t *testing.T) {
	tests := []struct {
		name, mode string
		faults     []string
		pass       bool
		want       string // a client-side rule that must fire
		conns      int    // at least this many connections
	}{
		{"good client", "good", nil, true, "", 1},
		{"good client through drops", "good", []string{"drop-after=6"}, true, "", 2},
		{"resume from an unseen event", "bad-resume", []string{"drop-after=6"}, false, "c2s:minicodex.resume-unseen", 2},
		{"good client resuming without session_id", "nosid", []string{"drop-after=6"}, true, "", 2},
		{"resume without session_id from an unseen event", "bad-resume,nosid", []string{"drop-after=6"}, false, "c2s:minicodex.resume-unseen", 2},
		{"refused resume without session_id from an unseen event", "bad-resume,nosid,far", []string{"drop-after=6"}, false, "c2s:minicodex.resume-unseen", 2},
		// drop-after reaches the client as a dropped TCP connection (1006),
		// as in production, so a client that reconnects only then is tried.
		{"client reconnecting only on 1006", "1006-only", []string{"drop-after=6"}, true, "", 2},
		{"client reconnecting only on 1006, from an unseen event", "1006-only,bad-resume", []string{"drop-after=6"}, false, "c2s:minicodex.resume-unseen", 2},
		{"command fails", "fail", nil, false, "", 1},
		{"client never connects", "silent", nil, false, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runGate(t, tt.mode, tt.faults...)
			if res.Passed() != tt.pass {
				t.Fatalf("passed = %v, want %v; command: %v; findings: %s", res.Passed(), tt.pass, res.CommandErr, rules(res.Report))
			}
			if res.Connections < tt.conns {
				t.Errorf("%d connections, want at least %d", res.Connections, tt.conns)
			}
			if tt.want != "" && !strings.Contains(rules(res.Report), tt.want) {
				t.Errorf("findings %q lack %s", rules(res.Report), tt.want)
			}
			if v := res.Report.Verdict; (v == reports.Passed || v == reports.NonStrict) != tt.pass {
				t.Errorf("report verdict %s, gate passed %v", v, res.Passed())
			}
			if _, err := json.Marshal(res.Report); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestGateCommandNotFound(t *testing.T) {
	_, err := Run(context.Background(), Options{Dialect: "minicodex", Command: []string{"/nonexistent/client"}})
	if err == nil || !strings.Contains(err.Error(), "could not be started") {
		t.Errorf("err = %v", err)
	}
}
