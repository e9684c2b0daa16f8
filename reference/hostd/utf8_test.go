package hostd_test

import (
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestInvalidUTF8Fails: a text frame that is not UTF-8 fails an app's or
// a host's connection with 1007 (RFC 6455 §8.1) instead of being decoded
// with replaced bytes.
func TestInvalidUTF8Fails(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	token := login(t, srv)
	for _, path := range []string{"/ws/app?token=" + token, "/ws/host?host_id=h-utf8&host_token=" + hostToken} {
		t.Run(strings.SplitN(path, "?", 2)[0], func(t *testing.T) {
			ws, _, err := websocket.DefaultDialer.Dial(srv.URL+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			bad := "{\"type\":\"run.output\",\"ts\":\"2025-01-01T00:00:00Z\",\"host_id\":\"h-utf8\",\"run_id\":\"00000000-0000-4000-8000-000000000001\",\"seq\":1,\"data\":{\"text\":\"\xff\"}}"
			_ = ws.WriteMessage(websocket.TextMessage, []byte(bad))
			got, code := reftest.ReadToClose(t, ws)
			if code != websocket.CloseInvalidFramePayloadData {
				t.Errorf("close code %d, want 1007", code)
			}
			for _, m := range got {
				if strings.Contains(m, "run.ack") {
					t.Errorf("the invalid frame was handled: %s", m)
				}
			}
		})
	}
}
