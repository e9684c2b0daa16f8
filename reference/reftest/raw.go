package reftest

import (
	"errors"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// ReadToClose reads a raw connection until the server closes it and
// returns the messages it sent before and its close code. Each read waits
// up to Timeout; a connection that ends without a close frame fails the
// test.
func ReadToClose(t testing.TB, ws *websocket.Conn) ([]string, int) {
	t.Helper()
	var got []string
	for {
		_ = ws.SetReadDeadline(time.Now().Add(Timeout))
		_, data, err := ws.ReadMessage()
		var ce *websocket.CloseError
		switch {
		case errors.As(err, &ce):
			return got, ce.Code
		case err != nil:
			t.Fatalf("after %q: %v", got, err)
		}
		got = append(got, string(data))
	}
}
