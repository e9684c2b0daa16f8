package proxy

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/reftest"
)

// The benchmark and the RSS measurement relay 1 KiB minicodex frames: the
// client sends `send` commands, the upstream answers each with an
// `assistant_text` event carrying the next event_id. Both are valid, so
// the validator does the full work of a clean session (decode, schema,
// ordering and state rules) and the console prints nothing.
//
//	go test -run XXX -bench BenchmarkRelay -benchtime 20000x ./internal/proxy
//	WSPROXY_RSS=1 go test -run TestRSSMillionFrames -v ./internal/proxy

// benchProxy serves a proxy with validation (minicodex) and recording to a
// temporary file on.
func benchProxy(tb testing.TB, upstream string) *testProxy {
	f, err := os.CreateTemp(tb.TempDir(), "rec-*.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	tp := startProxy(tb, Config{Upstream: upstream, Dialect: "minicodex", Record: f, Console: discard{}, Quiet: true})
	return tp
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// pipelined sends n messages as fast as the connection takes them while
// reading the answers, so that TCP and the relay queues decide how many are
// in flight, and returns how long the n round trips took.
func pipelined(tb testing.TB, ws *websocket.Conn, n int) time.Duration {
	start := time.Now()
	errs := make(chan error, 1)
	go func() {
		for range n {
			if _, _, err := ws.ReadMessage(); err != nil {
				errs <- err
				return
			}
		}
		errs <- nil
	}()
	for range n {
		if err := ws.WriteMessage(websocket.TextMessage, reftest.RelaySend); err != nil {
			tb.Fatal(err)
		}
	}
	if err := <-errs; err != nil {
		tb.Fatal(err)
	}
	return time.Since(start)
}

// BenchmarkRelay measures, in one run on loopback with 1 KiB JSON frames,
// a direct connection and one through the proxy with validation and
// recording on: round trips one at a time (msgs/s, p50 and p99 latency)
// and pipelined (msgs/s, and the share of frames the validator could not
// keep up with).
//
// "relay-only" is the proxy with recording and validation switched off
// (test-only knobs): the cost of the two extra hops alone, for comparison.
func BenchmarkRelay(b *testing.B) {
	up := reftest.RelayUpstream(b)
	target := func(b *testing.B, mode string) (string, *testProxy) {
		switch mode {
		case "proxy":
			tp := benchProxy(b, up)
			return tp.url, tp
		case "relay-only":
			tp := benchProxy(b, up)
			tp.p.tap.stopRecording()
			tp.p.tap.mu.Lock()
			tp.p.tap.rec, tp.p.tap.maxFrames = nil, 0
			tp.p.tap.mu.Unlock()
			return tp.url, nil
		}
		return up, nil
	}
	for _, mode := range []string{"direct", "proxy", "relay-only"} {
		b.Run("rtt/"+mode, func(b *testing.B) {
			url, _ := target(b, mode)
			ws := reftest.RelayDial(b, url)
			reftest.RoundTrips(b, ws, 200) // warm up
			b.ResetTimer()
			start := time.Now()
			rtts := reftest.RoundTrips(b, ws, b.N)
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
			b.ReportMetric(float64(reftest.Quantile(rtts, 0.5).Microseconds()), "p50-µs")
			b.ReportMetric(float64(reftest.Quantile(rtts, 0.99).Microseconds()), "p99-µs")
		})
		b.Run("pipelined/"+mode, func(b *testing.B) {
			url, tp := target(b, mode)
			ws := reftest.RelayDial(b, url)
			b.ResetTimer()
			elapsed := pipelined(b, ws, b.N)
			b.StopTimer()
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
			if tp != nil {
				b.ReportMetric(100*float64(tp.p.tap.uncheckedFrames())/float64(2*b.N), "unchecked-%")
			}
		})
	}
}

// TestRSSMillionFrames relays one million frames (500,000 round trips of
// 1 KiB each way, pipelined) through the proxy with validation and
// recording on, and reports how much the process's resident memory grew.
// It takes a minute; set WSPROXY_RSS=1 to run it.
func TestRSSMillionFrames(t *testing.T) {
	if os.Getenv("WSPROXY_RSS") == "" {
		t.Skip("set WSPROXY_RSS=1 to measure RSS across one million relayed frames")
	}
	up := reftest.RelayUpstream(t)
	tp := benchProxy(t, up)
	ws := reftest.RelayDial(t, tp.url)
	// Warm up until the bounded structures are full: the check engine's
	// replay window (10,000 events), the queues, the pools.
	pipelined(t, ws, 50_000)
	settle()
	before := rss(t)
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	const roundTrips = 500_000
	start := time.Now()
	for done := 0; done < roundTrips; done += 50_000 {
		pipelined(t, ws, 50_000)
		t.Logf("%7d frames relayed, RSS %6.1f MiB", 2*(done+50_000), float64(rss(t))/(1<<20))
	}
	elapsed := time.Since(start)
	settle()
	after := rss(t)
	growth := float64(after-before) / (1 << 20)
	if path := os.Getenv("WSPROXY_HEAPPROF"); path != "" {
		if f, err := os.Create(path); err == nil {
			_ = pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
	r := tp.Stop()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("1,000,000 frames in %v (%.0f frames/s); RSS %.1f MiB → %.1f MiB: growth %.1f MiB; live heap %.1f MiB → %.1f MiB; %d frames not checked",
		elapsed.Round(time.Millisecond), 2*roundTrips/elapsed.Seconds(), float64(before)/(1<<20), float64(after)/(1<<20), growth,
		float64(ms0.HeapAlloc)/(1<<20), float64(ms.HeapAlloc)/(1<<20), tp.p.tap.uncheckedFrames())
	if len(r.Sessions) != 1 {
		t.Errorf("%d sessions", len(r.Sessions))
	}
	if growth > 50 {
		t.Errorf("RSS grew %.1f MiB across a million frames, goal < 50 MiB", growth)
	}
}

// settle collects garbage and returns freed memory to the OS, so RSS
// measures what is live.
func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}

// rss reads the resident set size of this process.
func rss(t *testing.T) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if n, _ := fmt.Sscanf(sc.Text(), "VmRSS: %d kB", &kb); n == 1 {
			return kb << 10
		}
	}
	t.Skip("no VmRSS")
	return 0
}
