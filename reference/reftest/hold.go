package reftest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"
)

// HoldUpstream serves a minicodex peer that holds a scenario in flight
// for tests of an interrupted run: it answers hello with welcome (the
// frame RelayUpstream sends, valid for the check engine), and calls held
// when a client sends {"type":"send","text":"hold"}, which it never
// answers; it answers nothing else either. held runs on the connection's
// goroutine, after the frame arrived: the test knows a scenario is waiting
// there. It returns its ws:// URL; its connections close with tb.
func HoldUpstream(tb testing.TB, held func()) string {
	var (
		mu    sync.Mutex
		conns []*websocket.Conn
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		mu.Lock()
		conns = append(conns, ws)
		mu.Unlock()
		defer ws.Close()
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			text := strings.ReplaceAll(string(data), " ", "")
			switch {
			case strings.Contains(text, `"type":"hello"`):
				_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"welcome","v":"1.0.0","session_state":{"session_id":"hold","version":"1.0.0","capabilities":[],"run_counter":0}}`))
			case strings.Contains(text, `"text":"hold"`):
				held()
			}
		}
	}))
	tb.Cleanup(func() {
		mu.Lock()
		for _, ws := range conns {
			_ = ws.Close()
		}
		mu.Unlock()
		srv.Close()
	})
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}
