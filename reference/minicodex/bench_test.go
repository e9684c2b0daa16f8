package minicodex_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/minicodex"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// BenchmarkSessions runs 1000 concurrent sessions per iteration, each
// streaming a 20-chunk reply: frames/s and p99 fan-out latency.
func BenchmarkSessions(b *testing.B) {
	srv := reftest.Start(b, "minicodex", minicodex.New, reftest.Options{Config: server.Config{Heartbeat: -1}})
	reftest.Bench(b, srv, 1000, "/ws", func(c *reftest.BenchConn) error {
		if err := c.Send(map[string]any{"type": "hello", "v": "1.0.0"}); err != nil {
			return err
		}
		if _, err := c.ReadUntil("snapshot"); err != nil {
			return err
		}
		if err := c.Send(map[string]any{"type": "send", "text": "/stream 20"}); err != nil {
			return err
		}
		ms, err := c.ReadUntil("turn_done")
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m.Type == "error" {
				return fmt.Errorf("server error: %s", m.Raw)
			}
		}
		return nil
	})
}

// BenchmarkFanOut runs 500 sessions with two clients each: the second
// joins the first's session and reads the same stream.
func BenchmarkFanOut(b *testing.B) {
	srv := reftest.Start(b, "minicodex", minicodex.New, reftest.Options{Config: server.Config{Heartbeat: -1}})
	reftest.Bench(b, srv, 500, "/ws", func(c *reftest.BenchConn) error {
		if err := c.Send(map[string]any{"type": "hello", "v": "1.0.0"}); err != nil {
			return err
		}
		ms, err := c.ReadUntil("snapshot")
		if err != nil {
			return err
		}
		sid := ms[0].Str("/session_state/session_id")
		second, err := c.Dial("/ws?session_id=" + sid)
		if err != nil {
			return err
		}
		if err := second.Send(map[string]any{"type": "hello", "v": "1.0.0"}); err != nil {
			return err
		}
		if _, err := second.ReadUntil("snapshot"); err != nil {
			return err
		}
		if err := c.Send(map[string]any{"type": "send", "text": "/stream 20"}); err != nil {
			return err
		}
		if _, err := c.ReadUntil("turn_done"); err != nil {
			return err
		}
		_, err = second.ReadUntil("turn_done")
		return err
	})
}

// BenchmarkLongSession measures what one session retains after N events,
// streamed as N/100 turns of 100 chunks, with a replay window of 100: it
// must level off, not grow with N. The client is a bare gorilla connection
// (no check engine, whose own window would be measured too).
func BenchmarkLongSession(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			srv := reftest.Start(b, "minicodex", minicodex.New, reftest.Options{Config: server.Config{Heartbeat: -1, ReplayWindow: 100}})
			var retained int64
			for i := 0; i < b.N; i++ {
				before := heapInUse()
				ws, _, err := websocket.DefaultDialer.Dial(srv.URL+"/ws", nil)
				if err != nil {
					b.Fatal(err)
				}
				wsSend(b, ws, `{"type":"hello","v":"1.0.0"}`)
				for turn := 0; turn < n/100; turn++ {
					wsSend(b, ws, `{"type":"send","text":"/stream 100"}`)
					wsReadUntil(b, ws, `"type":"turn_done"`)
				}
				// The session is still open: what it holds now is what a
				// long session costs.
				retained += int64(heapInUse()) - int64(before)
				ws.Close()
			}
			b.ReportMetric(float64(retained)/float64(b.N)/1024, "retained-KiB")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func wsSend(b *testing.B, ws *websocket.Conn, msg string) {
	if err := ws.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
		b.Fatal(err)
	}
}

func wsReadUntil(b *testing.B, ws *websocket.Conn, marker string) {
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			b.Fatal(err)
		}
		if strings.Contains(string(data), marker) {
			return
		}
	}
}

func heapInUse() uint64 { // live bytes after a collection
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
