package minicodex_test

import (
	"testing"

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
	got, code := reftest.ReadToClose(t, ws)
	if code != websocket.CloseInvalidFramePayloadData {
		t.Errorf("close code %d, want 1007", code)
	}
	if len(got) != 2 {
		t.Errorf("got %q, want welcome and snapshot only", got)
	}
}
