package proxy

import (
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/reftest"
)

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
			up := reftest.BurstUpstream(b, n)
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
