package reports

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

// BigReport is a proxy report of one long failing session of frames frames
// (a finding every 250 frames, a reconnect every 1,000) and 40 short
// passing sessions of 100 frames each: the page must open at once.
func BigReport(frames int) *Report {
	r := New(KindProxy, "wsconform test", t0)
	r.Dialects = []string{"minicodex"}
	r.Targets = []Target{{Name: "upstream", URL: "ws://127.0.0.1:7337/ws"}}
	session := func(id string, n int, marks bool) Session {
		b := NewSessionBuilder("minicodex", "--dialect minicodex", "", WireLimits{Head: n, Tail: 200, Marked: 200, Payload: 4 << 10})
		conn := ""
		for i := 1; i <= n; i++ {
			at := t0.Add(time.Duration(i) * 7 * time.Millisecond)
			if (i-1)%1000 == 0 {
				parent := conn
				conn = fmt.Sprintf("%s-c%d", id, i/1000+1)
				b.OpenConn(conn, "ws://127.0.0.1:7337/ws", at)
				b.SetParent(conn, parent)
				b.Bind(conn, id)
				if parent != "" {
					b.CloseConn(parent, at, 1006, "", "network")
				}
			}
			dir, payload := wire.ServerToClient, fmt.Sprintf(`{"type":"assistant_text","text":"chunk %d of a long answer, with some words to make it a realistic size","run_id":"3f1c2a9e-8b7d-4c6e-9f00-123456789abc","event_id":%d}`, i, i)
			if i%10 == 1 {
				dir, payload = wire.ClientToServer, fmt.Sprintf(`{"type":"send","text":"message %d","client_msg_id":"m%d","req_id":"r%d"}`, i, i, i)
			}
			var fs []Finding
			if marks && i%250 == 0 {
				fs = []Finding{{Finding: check.Finding{Rule: "minicodex.event-id-order", Severity: check.Error, Spec: "minicodex-v1.md §Semantics: Ordering",
					Message: fmt.Sprintf("event_id %d after %d on this connection", i, i+1), Pointer: "/event_id",
					Expected: fmt.Sprintf("> %d", i+1), Actual: fmt.Sprint(i), Conn: conn, Dir: dir, Frame: int64(i), Related: []int64{int64(i - 1)}}}}
			}
			b.Frame(id, wire.Frame{Conn: conn, Index: int64(i), Dir: dir, Time: at, Op: wire.OpText, Payload: []byte(payload)},
				"assistant_text", fmt.Sprint(i), fs)
		}
		return b.Sessions()[0]
	}
	r.Sessions = append(r.Sessions, session("long", frames, true))
	for i := range 40 {
		r.Sessions = append(r.Sessions, session(fmt.Sprintf("short%02d", i), 100, false))
	}
	r.Finished = t0.Add(time.Duration(frames) * 7 * time.Millisecond)
	r.Tally()
	return r
}

// BenchmarkReportWriteHTML writes the page of a 9,000-frame report.
func BenchmarkReportWriteHTML(b *testing.B) {
	r := BigReport(5000)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteHTML(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}
