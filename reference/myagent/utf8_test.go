package myagent_test

import (
	"errors"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestInvalidUTF8Fails: a text frame that is not UTF-8 fails the
// connection with 1007 (RFC 6455 §8.1) instead of being decoded with
// replaced bytes; a message after it is not handled.
func TestInvalidUTF8Fails(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	ws, _, err := websocket.DefaultDialer.Dial(srv.URL+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	_ = ws.WriteMessage(websocket.TextMessage, []byte("{\"event\":\"user.message\",\"content\":\"hi \xff\"}"))
	_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"event":"user.message","content":"after"}`))
	var got []string
	for {
		_ = ws.SetReadDeadline(time.Now().Add(reftest.Timeout))
		_, data, err := ws.ReadMessage()
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			if ce.Code != websocket.CloseInvalidFramePayloadData {
				t.Errorf("close code %d, want 1007", ce.Code)
			}
			break
		}
		if err != nil {
			t.Fatalf("after %q: %v", got, err)
		}
		got = append(got, string(data))
	}
	if len(got) != 1 {
		t.Errorf("got %q, want system.connected only", got)
	}
}
