package reftest

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// The relay benchmarks (internal/proxy, internal/web) measure round trips
// of 1 KiB minicodex frames: the client sends `send` commands, the upstream
// answers each with an `assistant_text` event carrying the next event_id.
// Both are valid, so a validating proxy does the full work of a clean
// session (decode, schema, ordering and state rules) and prints nothing.
var (
	// RelaySend is 1024 bytes; the answers are 1024 bytes with a
	// four-digit event_id (1020 to 1026 in all).
	RelaySend = []byte(`{"type":"send","text":"` + strings.Repeat("s", 1024-25) + `"}`)
	padding   = strings.Repeat("a", 1024-47-4)
)

// RelayUpstream serves the benchmarks' upstream on loopback: welcome to
// hello, the next assistant_text to anything else. It returns its ws://
// URL and stops with tb.
func RelayUpstream(tb testing.TB) string { return BurstUpstream(tb, 1) }

// BurstUpstream is RelayUpstream answering each message with n
// assistant_text frames, each written with its own WriteMessage, as fast
// as the socket takes them. Each connection is a session of its own, so
// that event_ids starting again at 1 are not a replay.
func BurstUpstream(tb testing.TB, n int) string {
	var sessions atomic.Int64
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
				_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"welcome","v":"1.0.0","session_state":{"session_id":"b`+
					strconv.FormatInt(sessions.Add(1), 10)+`","version":"1.0.0","capabilities":[],"run_counter":0}}`))
				continue
			}
			for range n {
				id++
				buf = append(buf[:0], `{"type":"assistant_text","event_id":`...)
				buf = strconv.AppendInt(buf, id, 10)
				buf = append(buf, `,"text":"`...)
				buf = append(buf, padding...)
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

// RelayDial connects to url's /ws and says hello; the connection closes
// with tb.
func RelayDial(tb testing.TB, url string) *websocket.Conn {
	ws, _, err := (&websocket.Dialer{ReadBufferSize: 16 << 10, WriteBufferSize: 16 << 10}).Dial(url+"/ws", nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ws.Close() })
	if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"hello","v":"1.0.0"}`)); err != nil {
		tb.Fatal(err)
	}
	if _, _, err := ws.ReadMessage(); err != nil {
		tb.Fatal(err)
	}
	return ws
}

// RoundTrips sends n messages one at a time, each after the previous
// answer, and returns every round-trip time.
func RoundTrips(tb testing.TB, ws *websocket.Conn, n int) []time.Duration {
	rtts := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		if err := ws.WriteMessage(websocket.TextMessage, RelaySend); err != nil {
			tb.Fatal(err)
		}
		if _, _, err := ws.ReadMessage(); err != nil {
			tb.Fatal(err)
		}
		rtts = append(rtts, time.Since(start))
	}
	return rtts
}

// Quantile is the q-quantile (0 to 1) of d.
func Quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}
