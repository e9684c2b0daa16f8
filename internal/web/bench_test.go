package web

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/reference/reftest"
)

// BenchmarkRelayPage is the proxy's round-trip benchmark (1 KiB minicodex
// frames, one at a time, validation and recording on; see
// internal/proxy/bench_test.go) with the live view: "no-web" without it,
// "page-closed" with the observer on and no page, "page-open" with a page
// following the stream (a real SSE reader that decodes every event, as
// the browser's EventSource would).
//
//	go test -run XXX -bench BenchmarkRelayPage -benchtime 20000x ./internal/web
func BenchmarkRelayPage(b *testing.B) {
	up := reftest.RelayUpstream(b)
	for _, mode := range []string{"no-web", "page-closed", "page-open"} {
		b.Run(mode, func(b *testing.B) {
			url, events := benchProxy(b, up, mode != "no-web")
			if mode == "page-open" {
				drainSSE(b, events) // the page keeps up; decoding is the browser's work, in its own process
			}
			ws := reftest.RelayDial(b, url)
			reftest.RoundTrips(b, ws, 500) // warm up
			b.ResetTimer()
			start := time.Now()
			rtts := reftest.RoundTrips(b, ws, b.N)
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
			b.ReportMetric(float64(reftest.Quantile(rtts, 0.5).Microseconds()), "p50-µs")
			b.ReportMetric(float64(reftest.Quantile(rtts, 0.99).Microseconds()), "p99-µs")
		})
	}
}

// BenchmarkRelayPageInterleaved measures the three setups of
// BenchmarkRelayPage in rounds, one after the other, on one process, so
// that the load of a shared machine weighs on each alike; it reports the
// median round-trip rate of each and the page-open rate as a share of
// no-web.
//
//	go test -run XXX -bench BenchmarkRelayPageInterleaved -benchtime 1x ./internal/web
func BenchmarkRelayPageInterleaved(b *testing.B) {
	up := reftest.RelayUpstream(b)
	modes := []string{"no-web", "page-closed", "page-open"}
	conns := map[string]*websocket.Conn{}
	for _, mode := range modes {
		url, events := benchProxy(b, up, mode != "no-web")
		if mode == "page-open" {
			drainSSE(b, events)
		}
		conns[mode] = reftest.RelayDial(b, url)
		reftest.RoundTrips(b, conns[mode], 500)
	}
	const rounds, per = 15, 3000
	rates := map[string][]float64{}
	b.ResetTimer()
	for range b.N {
		for r := 0; r < rounds; r++ {
			for _, mode := range modes {
				start := time.Now()
				reftest.RoundTrips(b, conns[mode], per)
				rates[mode] = append(rates[mode], per/time.Since(start).Seconds())
			}
		}
	}
	b.StopTimer()
	med := func(v []float64) float64 { s := slices.Clone(v); slices.Sort(s); return s[len(s)/2] }
	for _, mode := range modes {
		b.ReportMetric(med(rates[mode]), mode+"-msgs/s")
	}
	b.ReportMetric(100*med(rates["page-open"])/med(rates["no-web"]), "open/none-%")
	b.ReportMetric(100*med(rates["page-closed"])/med(rates["no-web"]), "closed/none-%")
}

// benchProxy serves a proxy (minicodex, recording to a file, quiet) with a
// live view when live; it returns the proxy's URL and the page's.
func benchProxy(tb testing.TB, upstream string, live bool) (string, string) {
	f, err := os.Create(filepath.Join(tb.TempDir(), "rec.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	cfg := proxy.Config{Upstream: upstream, Dialect: "minicodex", Record: f, Label: "bench"}
	pageURL := ""
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	if live {
		wln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		w, err := New(Config{Listen: wln.Addr().String(), Recording: f.Name()})
		if err != nil {
			tb.Fatal(err)
		}
		cfg.Live = w
		defer func() { go func() { served <- w.Serve(ctx, wln) }() }()
		pageURL = "http://" + wln.Addr().String() + "/"
	} else {
		served <- nil
	}
	p, err := proxy.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: p}
	go func() { _ = srv.Serve(ln) }()
	tb.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), timeout)
		defer scancel()
		go func() { _ = srv.Shutdown(sctx) }()
		_ = p.Shutdown(sctx)
		cancel()
		<-served
	})
	return "ws://" + ln.Addr().String(), pageURL
}

// drainSSE reads a page's event stream as fast as it comes, line by line.
func drainSSE(tb testing.TB, url string) {
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		tb.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
		}
	}()
	tb.Cleanup(func() { cancel(); resp.Body.Close(); <-done })
}
