package minicodex_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/server"
)

// onStall is a slog handler that calls f when the server logs that a
// client stopped reading.
type onStall struct{ f func() }

func (h onStall) Enabled(context.Context, slog.Level) bool { return true }
func (h onStall) Handle(_ context.Context, r slog.Record) error {
	if r.Message == server.LogStalled {
		h.f()
	}
	return nil
}
func (h onStall) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h onStall) WithGroup(string) slog.Handler      { return h }

// TestStoppedReaderGets1013: a real client that stops reading during a
// large stream (/stream 100000, which waits for the client's queue to
// drain) is closed with 1013 after every event sent before it, as the
// README promises, rather than dropped (1006). The test waits for the
// server to notice, then reads again; no fixed wait.
func TestStoppedReaderGets1013(t *testing.T) {
	t.Parallel()
	stalled := make(chan struct{})
	var once sync.Once
	log := slog.New(onStall{f: func() { once.Do(func() { close(stalled) }) }})
	srv := start(t, server.Config{WriteTimeout: 500 * time.Millisecond, CloseGrace: time.Minute, Log: log})
	ws, _, err := websocket.DefaultDialer.Dial(srv.URL+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	_ = ws.WriteJSON(map[string]any{"type": "hello", "v": "1.0.0"})
	_ = ws.WriteJSON(map[string]any{"type": "send", "text": "/stream 100000"})
	select {
	case <-stalled:
	case <-time.After(time.Minute):
		t.Fatal("the server never noticed that the client stopped reading")
	}
	last := int64(0)
	for {
		_ = ws.SetReadDeadline(time.Now().Add(time.Minute))
		var m struct {
			Type    string
			EventID int64 `json:"event_id"`
		}
		err := ws.ReadJSON(&m)
		if err != nil {
			if !websocket.IsCloseError(err, websocket.CloseTryAgainLater) {
				t.Fatalf("after event %d: %v, want close 1013", last, err)
			}
			break
		}
		if m.EventID != 0 {
			if m.EventID != last+1 {
				t.Fatalf("event %d after %d", m.EventID, last)
			}
			last = m.EventID
		}
	}
	if last < 100 {
		t.Errorf("closed after event %d: the stream had barely started", last)
	}
}
