package proxy

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/reftest"
)

// burstUpstream answers hello with a welcome (a session of its own per
// connection) and any other message with n assistant_text frames, each
// written with its own WriteMessage, as fast as the socket takes them.
func burstUpstream(tb testing.TB, n int) string {
	var sessions int
	pad := strings.Repeat("a", 1024-47-4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{ReadBufferSize: 16 << 10, WriteBufferSize: 16 << 10}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		var id int64
		buf := make([]byte, 0, 2048)
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			if strings.Contains(string(data[:min(len(data), 20)]), `"hello"`) {
				sessions++
				_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"welcome","v":"1.0.0","session_state":{"session_id":"b`+
					strconv.Itoa(sessions)+`","version":"1.0.0","capabilities":[],"run_counter":0}}`))
				continue
			}
			for range n {
				id++
				buf = append(buf[:0], `{"type":"assistant_text","event_id":`...)
				buf = strconv.AppendInt(buf, id, 10)
				buf = append(buf, `,"text":"`...)
				buf = append(buf, pad...)
				buf = append(buf, `"}`...)
				if ws.WriteMessage(websocket.TextMessage, buf) != nil {
					return
				}
			}
		}
	}))
	tb.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// BenchmarkBurst relays bursts of 10,000 server→client frames through the
// proxy with validation and recording to a file on (and directly, for
// comparison), and reports frames/s and the share of frames the validator
// did not check.
//
//	go test -run XXX -bench BenchmarkBurst -benchtime 5x ./internal/proxy
func BenchmarkBurst(b *testing.B) {
	const n = 10_000
	for _, mode := range []string{"direct", "proxy"} {
		b.Run(mode, func(b *testing.B) {
			up := burstUpstream(b, n)
			url := up
			var tp *testProxy
			if mode == "proxy" {
				tp = benchProxy(b, up)
				url = tp.url
			}
			ws := reftest.RelayDial(b, url)
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				if err := ws.WriteMessage(websocket.TextMessage, reftest.RelaySend); err != nil {
					b.Fatal(err)
				}
				for range n {
					if _, _, err := ws.NextReader(); err != nil {
						b.Fatal(err)
					}
				}
			}
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(n*b.N)/elapsed.Seconds(), "frames/s")
			if tp != nil {
				tp.Stop()
				b.ReportMetric(100*float64(tp.p.tap.uncheckedFrames())/float64(n*b.N), "unchecked-%")
			}
		})
	}
}
