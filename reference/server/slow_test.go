package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/server"
)

// onLog is a slog handler that calls f for every record with message msg:
// tests wait for what the server says it did instead of sleeping.
type onLog struct {
	msg string
	f   func()
}

func (h onLog) Enabled(context.Context, slog.Level) bool { return true }
func (h onLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.f()
	}
	return nil
}
func (h onLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h onLog) WithGroup(string) slog.Handler      { return h }

// StallLog returns a logger that closes the returned channel when the
// server logs that a client stopped reading.
func stallLog() (*slog.Logger, <-chan struct{}) {
	ch := make(chan struct{})
	var once sync.Once
	return slog.New(onLog{msg: server.LogStalled, f: func() { once.Do(func() { close(ch) }) }}), ch
}

// A client that stops reading in the middle of a large stream is closed
// with 1013 (try again later), which it reads after everything sent
// before it, every frame whole: not a dropped connection (1006). The
// stream respects backpressure as the dialects' streams do, so the send
// queue never fills: the stalled write is what tells the server.
func TestStoppedReaderIsClosedWith1013(t *testing.T) {
	t.Parallel()
	log, stalled := stallLog()
	var env *server.Env
	// The write timeout is short so that the test is quick; the grace
	// long so that a loaded machine still reads again within it:
	// the test waits for what the server logs, never for a fixed time.
	url, env := start(t, server.Config{WriteTimeout: 500 * time.Millisecond, CloseGrace: time.Minute, Log: log},
		func(c *server.Conn, _ *echo) { streamTo(env, c) })
	ws := dial(t, url)
	select {
	case <-stalled:
	case <-time.After(time.Minute):
		t.Fatal("the server never noticed that the client stopped reading")
	}
	n := 0
	for {
		_ = ws.SetReadDeadline(time.Now().Add(time.Minute))
		_, data, err := ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != websocket.CloseTryAgainLater {
				t.Fatalf("after %d messages: %v, want close 1013", n, err)
			}
			break
		}
		var m struct{ I int }
		if err := json.Unmarshal(data, &m); err != nil || m.I != n {
			t.Fatalf("message %d: %.60s (%v)", n, data, err)
		}
		n++
	}
	if n == 0 {
		t.Error("closed before streaming anything")
	}
}

// streamTo streams numbered messages to c as fast as its queue allows,
// waiting while it drains, until the connection refuses them.
func streamTo(env *server.Env, c *server.Conn) {
	var draining atomic.Bool
	room := make(chan struct{}, 1)
	c.OnPressure(func(drain bool) {
		draining.Store(drain)
		if !drain {
			select {
			case room <- struct{}{}:
			default:
			}
		}
	})
	env.Go(func(ctx context.Context) {
		pad := strings.Repeat("x", 512)
		for i := 0; i < 1_000_000; i++ {
			for draining.Load() {
				select {
				case <-room:
				case <-c.Done():
					return
				case <-ctx.Done():
					return
				}
			}
			if c.Send(map[string]any{"i": i, "pad": pad}) != nil {
				return
			}
		}
	})
}
