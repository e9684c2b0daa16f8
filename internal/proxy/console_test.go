package proxy

import (
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/console/consoletest"
	"github.com/wsconform/wsconform/internal/wire"
)

// TestConsoleRepeats: a problem the session already showed (same rule,
// side, type and member) is one line pointing at its first finding; the
// report keeps every finding. ConsoleShows leaves findings off the
// console, not out of the report.
func TestConsoleRepeats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		shows      func(check.Finding) bool
		full, line int // client-side hello findings printed in full; repeats in one line
		serverSide bool
	}{
		{"all sides", nil, 1, 4, true},
		{"client side only", func(f check.Finding) bool { return f.Dir == wire.ClientToServer }, 1, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			up := startEcho(t)
			tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", Quiet: true, ConsoleShows: tt.shows})
			c := dial(t, tp.url+"/ws", nil)
			for range 3 { // hello without its required v, echoed back by the upstream
				c.sendRaw(websocket.TextMessage, []byte(`{"type":"hello"}`))
				c.next()
			}
			c.closeWith(websocket.CloseNormalClosure, "")
			r := tp.Stop()
			out := tp.console.String()
			full := strings.Count(out, "→ hello\n")
			line := strings.Count(out, "· same problem as frame ")
			if full != tt.full || !strings.Contains(out, `missing at /v · same problem as frame 1`) {
				t.Errorf("%d findings on the client's hello in full, want %d; console:\n%s", full, tt.full, out)
			}
			serverSide := strings.Contains(out, "← hello")
			if serverSide != tt.serverSide {
				t.Errorf("server-side findings on the console: %v, want %v; console:\n%s", serverSide, tt.serverSide, out)
			}
			if line != tt.line {
				t.Errorf("%d one-line repeats, want %d; console:\n%s", line, tt.line, out)
			}
			client := 0
			for _, f := range findings(r) {
				if f.Dir == wire.ClientToServer && f.Type == "hello" {
					client++
				}
			}
			if client < 3 {
				t.Errorf("the report kept %d client findings on hello, want every one (3)", client)
			}
		})
	}
}

// TestConsoleHostilePeer: whatever a peer puts in its path, session id,
// message types, members, values, close reason or in a frame that is not
// JSON or not UTF-8, the live console shows it and the terminal does
// nothing: no control character but the console's own newlines (and,
// with colour, its own SGR sequences), with one line per event, not one
// per newline a peer sent.
func TestConsoleHostilePeer(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(22, 4))
	for round := range 6 {
		h := []string{consoletest.Attack}
		for len(h) < 10 {
			h = append(h, consoletest.Hostile(rng, 8))
		}
		for _, mode := range []string{console.ColorNever, console.ColorAlways} {
			up := startEcho(t)
			tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", Color: mode})
			c := dial(t, tp.url+"/ws/"+url.PathEscape(h[0]), nil)
			for _, v := range []any{
				map[string]any{"type": "hello", "v": "1.0.0", "client_capabilities": []string{h[1]}},
				// echoed back as the server's welcome: the session id is the peer's
				map[string]any{"type": "welcome", "v": h[2], "session_state": map[string]any{"session_id": h[3], "version": "1.0.0", "capabilities": []string{}, "last_event_id": nil, "active_run_id": nil, "run_counter": 0}},
				map[string]any{"type": h[4], h[5]: h[6]},
				map[string]any{"type": "send", "text": h[7], "client_msg_id": h[8]},
			} {
				c.send(v)
				c.next()
			}
			c.sendRaw(websocket.TextMessage, []byte(`{"type":"`+h[9]+`"`))
			c.next()
			reason := strings.ToValidUTF8(h[1], "?")
			for len(reason) > 120 {
				_, size := utf8.DecodeLastRuneInString(reason)
				reason = reason[:len(reason)-size]
			}
			c.closeWith(4000, reason)
			c.closed()
			tp.Stop()
			out := tp.console.String()
			if !strings.Contains(out, "closed 4000") || !strings.Contains(out, "frame.type-unknown") {
				t.Fatalf("round %d, color %s: the console lacks the close or the finding:\n%s", round, mode, out)
			}
			if bad := consoletest.Unsafe([]byte(out), mode == console.ColorAlways); bad != "" {
				t.Fatalf("round %d, color %s: %s\n%s", round, mode, bad, out)
			}
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				plain := strings.TrimLeft(line, "\x1b[0123456789;m")
				if strings.HasPrefix(plain, "PASS") || strings.HasPrefix(plain, "FAKE") {
					t.Fatalf("round %d, color %s: a peer forged the line %q:\n%s", round, mode, line, out)
				}
			}
		}
	}
}
