// Package mcptest starts what the MCP server's live tools read, for the
// tests of internal/mcpserver and of the real-client test in ci/: a
// wsproxy with its web view in front of a minicodex reference server.
package mcptest

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/web"
	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/server"
)

// Timeout bounds every network wait of the stack.
const Timeout = 60 * time.Second

// LiveStack is wsproxy --web in front of a reference server whose
// mutation (minicodex-event-id-repeats) makes the proxy find
// minicodex.event-id-order on every turn.
type LiveStack struct {
	WebURL   string // the web view, http://127.0.0.1:PORT/
	ProxyURL string // ws://127.0.0.1:PORT
	proxy    *proxy.Proxy
	hs       *http.Server
}

// StartLiveStack starts it; everything stops when the test ends.
func StartLiveStack(t testing.TB) *LiveStack {
	t.Helper()
	ref, err := reference.Start(context.Background(), "127.0.0.1:0", reference.Options{Dialects: []string{"minicodex"},
		Mutate: []string{"minicodex-event-id-repeats"}, Config: server.Config{Heartbeat: -1}})
	if err != nil {
		t.Fatal(err)
	}
	lv, err := web.Listen(context.Background(), web.Config{Listen: "127.0.0.1:0", Title: "test"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := proxy.New(proxy.Config{Upstream: ref.URL, Dialect: "minicodex", Live: lv.Observer(), Console: discard{}, Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	lv.Start(p)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: p, ReadHeaderTimeout: Timeout}
	go func() { _ = hs.Serve(ln) }()
	s := &LiveStack{WebURL: lv.URL, ProxyURL: "ws://" + ln.Addr().String(), proxy: p, hs: hs}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), Timeout)
		defer cancel()
		s.stopProxy(ctx)
		lv.Stop()
		_ = ref.Shutdown(ctx)
	})
	return s
}

// Drain stops the proxy, which drains its validator: the web view keeps
// serving the final report, with every finding of the turns played.
func (s *LiveStack) Drain(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if err := s.stopProxy(ctx); err != nil {
		t.Fatal(err)
	}
}

// stopProxy shuts the proxy down (once: Proxy.Shutdown is idempotent).
func (s *LiveStack) stopProxy(ctx context.Context) error {
	go func() { _ = s.hs.Shutdown(ctx) }()
	return s.proxy.Shutdown(ctx)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Turn plays one minicodex turn through the proxy: hello, send, up to
// turn_done, then a normal close.
func Turn(t testing.TB, proxyURL string) {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(proxyURL+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	send := func(v any) {
		_ = ws.SetWriteDeadline(time.Now().Add(Timeout))
		if err := ws.WriteJSON(v); err != nil {
			t.Fatal(err)
		}
	}
	until := func(typ string) {
		for {
			_ = ws.SetReadDeadline(time.Now().Add(Timeout))
			var m struct {
				Type string `json:"type"`
			}
			if err := ws.ReadJSON(&m); err != nil {
				t.Fatalf("reading up to %s: %v", typ, err)
			}
			if m.Type == typ {
				return
			}
		}
	}
	send(map[string]any{"type": "hello", "v": "1.0.0", "client_capabilities": []string{}})
	until("welcome")
	send(map[string]any{"type": "send", "text": "hi", "req_id": "r1"})
	until("turn_done")
	_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1000, "done"), time.Now().Add(Timeout))
}
