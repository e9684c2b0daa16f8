package minicodex_test

import (
	"errors"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestInvalidUTF8Fails: a text frame that is not UTF-8 fails the
// connection with 1007 (RFC 6455 §8.1); nothing is answered, so no req_id
// comes back altered, and a command after it is not handled.
func TestInvalidUTF8Fails(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	ws, _, err := websocket.DefaultDialer.Dial(srv.URL+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"hello","v":"1.0.0"}`))
	_ = ws.WriteMessage(websocket.TextMessage, []byte("{\"type\":\"ping\",\"req_id\":\"r\xff\"}"))
	_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"ping","req_id":"after"}`))
	got, code := readToClose(t, ws)
	if code != websocket.CloseInvalidFramePayloadData {
		t.Errorf("close code %d, want 1007", code)
	}
	if len(got) != 2 {
		t.Errorf("got %q, want welcome and snapshot only", got)
	}
}

// readToClose reads until the server closes and returns the messages and
// the close code (1006 for a drop).
func readToClose(t *testing.T, ws *websocket.Conn) ([]string, int) {
	t.Helper()
	var got []string
	for {
		_ = ws.SetReadDeadline(time.Now().Add(reftest.Timeout))
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
