package proxy

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestStoppedReaderSees1006: a client that stops reading cannot be sent a
// close frame (its TCP window is shut), so the proxy cuts its connection
// after the write timeout: once the proxy is done, the client reads what
// was on its way and then the end of a connection without a close frame,
// 1006, never a 1013. The upstream is told 1001; the recording says 1006
// by proxy (README "Bad input"; TestSlowReader covers the finding).
func TestStoppedReaderSees1006(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", WriteTimeout: 300 * time.Millisecond, QueueMessages: 16})
	ws, _, err := (&websocket.Dialer{HandshakeTimeout: timeout}).Dial(tp.url+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := ws.WriteMessage(websocket.TextMessage, []byte("flood:12000")); err != nil {
		t.Fatal(err)
	}
	if got := up.waitEnd(); got.code != websocket.CloseGoingAway {
		t.Errorf("upstream got %d %q, want 1001", got.code, got.text)
	}
	r := tp.Stop() // every connection has ended: the client's was cut
	if len(r.Sessions) != 1 || len(r.Sessions[0].Conns) != 1 || r.Sessions[0].Conns[0].CloseCode != websocket.CloseAbnormalClosure {
		t.Fatalf("recorded: %+v", r.Sessions)
	}
	n := 0
	for {
		_ = ws.SetReadDeadline(time.Now().Add(timeout))
		_, _, err := ws.ReadMessage()
		if err == nil {
			n++
			continue
		}
		var ce *websocket.CloseError
		switch {
		case errors.As(err, &ce) && ce.Code != websocket.CloseAbnormalClosure:
			t.Errorf("after %d messages: close frame %d %q, want none (1006)", n, ce.Code, ce.Text)
		case strings.Contains(err.Error(), "timeout"):
			t.Errorf("after %d messages: %v, want the connection cut", n, err)
		}
		return
	}
}
