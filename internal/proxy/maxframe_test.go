package proxy

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/recording"
)

// TestRecordingAtFrameLimit: what the proxy writes, validate reads. Frames
// at the proxy's default limit, a text one of the worst case for JSON
// escaping (control characters: 6 bytes each in the line, over 96 MiB) and
// a binary one (base64), pass through a real loopback proxy into a
// recording file, which the reader of `wsconform validate`
// (recording.Scan) reads back without a problem and byte for byte. With the
// reader's old limit (24 MiB) the text frame's line was refused. (Under
// -race the test takes tens of seconds: over 96 MiB of JSON is encoded and
// decoded once each.)
func TestRecordingAtFrameLimit(t *testing.T) {
	got := make(chan int, 2)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			got <- len(data)
		}
	}))
	t.Cleanup(up.Close)
	path := filepath.Join(t.TempDir(), "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tp := startProxy(t, Config{Upstream: "ws" + strings.TrimPrefix(up.URL, "http"), Dialect: "minicodex", Record: f})
	text := bytes.Repeat([]byte{0x01}, DefaultMaxFrame)
	bin := make([]byte, DefaultMaxFrame)
	for i := range bin {
		bin[i] = byte(i * 7)
	}
	c := dial(t, tp.url+"/ws", nil)
	// The proxy reads the next frame once it has recorded this one (over
	// 96 MiB of JSON, slow under -race): a bound, not a pace.
	_ = c.ws.SetWriteDeadline(time.Now().Add(2 * time.Minute))
	for _, m := range []struct {
		op   int
		data []byte
	}{{websocket.TextMessage, text}, {websocket.BinaryMessage, bin}} {
		if err := c.ws.WriteMessage(m.op, m.data); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if n := <-got; n != DefaultMaxFrame {
			t.Fatalf("the upstream got %d bytes, want %d", n, DefaultMaxFrame)
		}
	}
	c.closeWith(1000, "")
	c.closed()
	tp.Stop()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var payloads [][]byte
	_, problems, err := recording.Scan(r, func(l recording.Line) error {
		if l.Kind == recording.KindFrame && l.Opcode != int(websocket.CloseMessage) {
			f, err := l.Frame()
			payloads = append(payloads, f.Payload)
			return err
		}
		return nil
	})
	if err != nil || len(problems) > 0 || len(payloads) != 2 || !bytes.Equal(payloads[0], text) || !bytes.Equal(payloads[1], bin) {
		t.Fatalf("read back: %v, problems %v, %d frames", err, problems, len(payloads))
	}
}
