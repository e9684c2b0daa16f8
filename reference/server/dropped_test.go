package server_test

import (
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/server"
)

// A client that stops reading and does not read again within the write
// timeout and the grace after it cannot be sent a close frame (its TCP
// window is shut): the server drops the connection, and when the client
// reads again it gets what was on its way and then the end of a
// connection without a close frame: 1006, never 1013 (README "Bad input";
// TestStoppedReaderIsClosedWith1013 is the client that reads again within
// the grace). The one message is larger than every socket buffer between
// the two, so the write cannot complete however the goroutines are
// scheduled: the test does not depend on timing. It waits for the server
// to log the end of the connection before it reads.
func TestStoppedReaderIsDropped(t *testing.T) {
	t.Parallel()
	ended := make(chan struct{})
	var once sync.Once
	log := slog.New(onLog{msg: "connection closed", f: func() { once.Do(func() { close(ended) }) }})
	big := []byte(`"` + strings.Repeat("x", 32<<20) + `"`)
	url, _ := start(t, server.Config{WriteTimeout: 100 * time.Millisecond, CloseGrace: 100 * time.Millisecond, Log: log},
		func(c *server.Conn, _ *echo) { _ = c.SendRaw(big) })
	ws := dial(t, url)
	select {
	case <-ended:
	case <-time.After(time.Minute):
		t.Fatal("the server never dropped the client that stopped reading")
	}
	n := 0
	for {
		_ = ws.SetReadDeadline(time.Now().Add(time.Minute))
		_, _, err := ws.ReadMessage()
		if err == nil {
			n++
			continue
		}
		var ce *websocket.CloseError
		switch {
		case errors.As(err, &ce) && ce.Code != websocket.CloseAbnormalClosure:
			t.Fatalf("after %d messages: close frame %d %q, want none (1006)", n, ce.Code, ce.Text)
		case strings.Contains(err.Error(), "timeout"):
			t.Fatalf("after %d messages: %v, want the connection dropped", n, err)
		}
		break // 1006: the connection ended without a close frame
	}
	if n != 0 {
		t.Errorf("%d whole messages arrived; the one message cannot have", n)
	}
}
