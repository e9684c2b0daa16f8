package proxy

import (
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/check"
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
