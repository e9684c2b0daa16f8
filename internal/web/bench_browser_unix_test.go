//go:build unix

package web

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/cdp"
	"github.com/wsconform/wsconform/reference/reftest"
)

// BenchmarkRelayChromium measures the live view with a real page: the
// live view in headless Chromium, following (scrolled to the bottom), where
// BenchmarkRelayPage and BenchmarkRelayPageInterleaved stand a Go SSE
// reader in for the browser. A browser also takes CPU from the proxy
// (rendering, layout, parsing every event), which a Go reader does not, so
// only a real page answers the two questions:
//
//   - relay: is the proxy's round-trip rate with the page open and
//     following within 10% of the rate without the live view? Asked twice:
//     with the browser sharing the machine's processors with the relay
//     (relay), and with each on a processor of its own (relay-split-cores),
//     which tells the proxy's own cost from the browser's share of the
//     processors.
//   - flood: does the page stay responsive at 5,000 frames/s of live
//     traffic, measured inside the page (requestAnimationFrame intervals
//     and long tasks), and how many of the frames does it show?
//
// It needs Chromium, as the browser tests do (see internal/cdp).
//
//	go test -run XXX -bench BenchmarkRelayChromium -benchtime 1x -count 5 ./internal/web
func BenchmarkRelayChromium(b *testing.B) {
	b.Run("relay", func(b *testing.B) { benchRelayChromium(b, false) })
	b.Run("relay-split-cores", func(b *testing.B) { benchRelayChromium(b, true) })
	b.Run(fmt.Sprintf("flood-%dfps", floodRate), benchFloodChromium)
}

// benchRelayChromium is BenchmarkRelayPageInterleaved with a fourth setup,
// the page in Chromium, measured in rounds alike so that the load of a
// shared machine weighs on each. The browser is frozen (SIGSTOP) outside
// its own rounds: a page that is still busy would otherwise take CPU from
// the other setups' rounds too and so hide its cost; frozen, it catches
// up on what it missed in its next round, as a busy page would anyway.
//
// With split, this process runs on one processor and the browser on
// another (see splitCores): the slowdown left is the proxy's own, where
// without it the browser's processor time weighs too.
func benchRelayChromium(b *testing.B, split bool) {
	up := reftest.RelayUpstream(b)
	modes := []string{"no-web", "page-closed", "page-sse", "page-chromium"}
	conns := map[string]*websocket.Conn{}
	var br *cdp.Browser
	for _, mode := range modes {
		url, page := benchProxy(b, up, mode != "no-web")
		switch mode {
		case "page-sse":
			drainSSE(b, page)
		case "page-chromium":
			br = openFollowing(b, page)
		}
		conns[mode] = reftest.RelayDial(b, url)
		reftest.RoundTrips(b, conns[mode], 500)
	}
	br.WaitFor("the warm-up on the page", `wsLive.state().frames >= 500`)
	// A browser just started works on for a second or so (650 ms of
	// processor time measured in the first second after the warm-up, then
	// none): frozen at once, that work would land in the page's rounds.
	// Its startup is not the cost of a page following the traffic.
	settle(b, br)
	if split {
		restore, ok := splitCores(b, br)
		if !ok {
			b.Skip("needs two processors to split")
		}
		defer restore()
	}
	// Chromium's processor time over the wall time of its own rounds (it
	// is frozen between them).
	cpu0, pageTime := br.CPUTime(), time.Duration(0)
	br.Freeze()
	// Many short rounds, each mode once per round in a rotated order (so
	// that no mode always follows the browser's), and each mode's rate
	// compared with no-web's of the same round: the load of a shared
	// machine drifts between rounds, and a ratio of medians over a few
	// long rounds swung from 86% to 116% for two setups that do the same
	// work (page-closed and no-web).
	const rounds, per = 30, 3000
	rates := map[string][]float64{}
	rtts := map[string][]time.Duration{}
	b.ResetTimer()
	for range b.N {
		for r := 0; r < rounds; r++ {
			for k := range modes {
				mode := modes[(r+k)%len(modes)]
				if mode == "page-chromium" {
					br.Thaw()
				}
				start := time.Now()
				d := reftest.RoundTrips(b, conns[mode], per)
				took := time.Since(start)
				rates[mode] = append(rates[mode], per/took.Seconds())
				if mode == "page-chromium" {
					br.Freeze()
					pageTime += took
				}
				rtts[mode] = append(rtts[mode], d...)
			}
		}
	}
	b.StopTimer()
	cpu := br.CPUTime() - cpu0
	br.Thaw()
	b.ReportMetric(100*cpu.Seconds()/pageTime.Seconds(), "chromium-cpu-%")
	// Not a timing check: the page must have been there for the figures
	// to mean anything.
	st := browserState(b, br)
	if st.Frames == 0 {
		b.Fatalf("the page showed no frames: %+v", st)
	}
	b.Logf("the page after the rounds: %+v", st)
	for _, mode := range modes {
		b.ReportMetric(median(rates[mode]), mode+"-msgs/s")
		b.ReportMetric(float64(reftest.Quantile(rtts[mode], 0.5).Microseconds()), mode+"-p50-µs")
		b.ReportMetric(float64(reftest.Quantile(rtts[mode], 0.99).Microseconds()), mode+"-p99-µs")
	}
	b.ReportMetric(pairedRatio(rates["page-chromium"], rates["no-web"]), "chromium/none-%")
	b.ReportMetric(pairedRatio(rates["page-sse"], rates["no-web"]), "sse/none-%")
	b.ReportMetric(pairedRatio(rates["page-closed"], rates["no-web"]), "closed/none-%")
}

// The flood: floodRate frames a second (half of them `send`s paced by the
// client, half the upstream's answers, 1 KiB each) for floodFor, about the
// DefaultRing of the live view every second.
const (
	floodRate = 5000
	floodFor  = 5 * time.Second
	// catchUpFor bounds the wait for the page to show the flood's last
	// frame (reported as -1 catch-up-s when it has not).
	catchUpFor = 20 * time.Second
)

// pageMeter is installed in the page before the flood and read when the
// page has caught up with it (or given up on). It records the interval
// between animation frames (what a user feels: a long batch delays the
// next frame), long tasks (>50 ms, as the browser reports them) and the
// flood's frame rows the page puts in the document (live-f* rows newer
// than the last one before the flood: the list draws only the rows in
// view, so this is far fewer than the frames it takes in, which
// wsLive.state().taken counts). It only observes: the page's own code is
// unchanged.
const pageMeter = `(() => {
  const m = window.__meter = {iv: [], last: 0, run: true, lt: 0, ltMax: 0, drawn: 0, from: lastIndex()};
  if (PerformanceObserver.supportedEntryTypes.includes("longtask")) {
    m.po = new PerformanceObserver(l => { for (const e of l.getEntries()) { m.lt++; m.ltMax = Math.max(m.ltMax, e.duration); } });
    m.po.observe({type: "longtask"});
  } else m.lt = -1;
  m.mo = new MutationObserver(recs => { for (const r of recs) for (const n of r.addedNodes) if (n.id && n.id.startsWith("live-f") && +n.id.slice(6) > m.from) m.drawn++; });
  m.mo.observe(document.getElementById("lv-list"), {childList: true});
  const tick = ts => { if (m.last) m.iv.push(ts - m.last); m.last = ts; if (m.run) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  return {state: wsLive.state(), last: m.from, visible: document.visibilityState};
})()`

// lastIndexJS is the frame index of the newest row drawn on the page, what
// a following user sees at the bottom (0 when none): frame indexes count every frame of the proxy, so the flood's
// last frame is the one before it plus twice the sends.
const lastIndexJS = `function lastIndex() {
  for (let r = document.getElementById("lv-list").lastElementChild; r; r = r.previousElementSibling)
    if (r.id && r.id.startsWith("live-f")) return +r.id.slice(6);
  return 0;
}`

// meterResult is what pageMeter recorded.
type meterResult struct {
	Intervals []float64 `json:"iv"`
	LongTasks int       `json:"lt"`
	LongMax   float64   `json:"ltMax"`
	Drawn     int       `json:"drawn"`
	Last      int       `json:"last"`
	State     pageState `json:"state"`
}

// benchFloodChromium floods the proxy at floodRate frames a second with
// the page following in Chromium, and reports the page's frame intervals
// (p50, p99, max) and long tasks from the flood's start until the page
// shows its last frame (or catchUpFor after the flood), how long that
// took, and what became of the flood's frames on the page: taken in (held
// in its window, drawn when in view), dropped by the proxy for the page (its rate cap or the ring: the page
// counts them), skipped by the page (older than its window within one
// batch, or compacted from its queue), or still not shown (behind). It
// runs the flood once whatever b.N is: its figures are the page's, not
// per-iteration times.
func benchFloodChromium(b *testing.B) {
	up := reftest.RelayUpstream(b)
	url, page := benchProxy(b, up, true)
	br := openFollowing(b, page)
	ws := reftest.RelayDial(b, url)
	// Fill the page's window first, so the flood meets the steady state:
	// every batch appends rows and trims as many.
	// (In steps the page is sent whole: a burst beyond the page's rate
	// is dropped for it.)
	for step := 0; browserState(b, br).Frames < DefaultWindow; step++ {
		if step == 100 {
			b.Fatalf("the page's window did not fill: %+v", browserState(b, br))
		}
		reftest.RoundTrips(b, ws, 200)
		time.Sleep(200 * time.Millisecond)
	}
	br.Eval(lastIndexJS + `; window.lastIndex = lastIndex; true`)
	var before struct {
		State   pageState `json:"state"`
		Last    int       `json:"last"`
		Visible string    `json:"visible"`
	}
	if err := json.Unmarshal(br.Eval(pageMeter), &before); err != nil {
		b.Fatal(err)
	}
	if before.Visible != "visible" || !before.State.Following {
		b.Fatalf("the page is not visible and following (no animation frames to measure): %+v", before)
	}

	m0, cpu0 := br.Metrics(), br.CPUTime()
	b.ResetTimer()
	sends := floodRate / 2 * int(floodFor/time.Second)
	answered := make(chan error, 1)
	go func() {
		for range sends {
			if _, _, err := ws.ReadMessage(); err != nil {
				answered <- err
				return
			}
		}
		answered <- nil
	}()
	start := time.Now()
	for i := 0; i < sends; {
		due := min(sends, int(time.Since(start).Seconds()*floodRate/2)+1)
		for ; i < due; i++ {
			if err := ws.WriteMessage(websocket.TextMessage, reftest.RelaySend); err != nil {
				b.Fatal(err)
			}
		}
		time.Sleep(time.Millisecond)
	}
	select {
	case err := <-answered:
		if err != nil {
			b.Fatal(err)
		}
	case <-time.After(timeout):
		b.Fatal("the upstream's answers did not all come back")
	}
	elapsed := time.Since(start)
	// The page may lag behind the flood; how long it takes to show the
	// flood's last frame is a figure too (bounded: a page that never
	// catches up is reported, not waited for).
	caughtUp, last := false, 0
	for deadline := time.Now().Add(catchUpFor); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if err := json.Unmarshal(br.Eval(`lastIndex()`), &last); err != nil {
			b.Fatal(err)
		}
		if last >= before.Last+2*sends {
			caughtUp = true
			break
		}
	}
	catchUp := time.Since(start) - elapsed
	reportMainThread(b, m0, br.Metrics(), time.Since(start))
	b.ReportMetric(100*(br.CPUTime()-cpu0).Seconds()/time.Since(start).Seconds(), "chromium-cpu-%")
	var m meterResult
	if err := json.Unmarshal(br.Eval(`(() => { const m = __meter; m.run = false; m.po && m.po.disconnect(); m.mo.disconnect();
	  return {iv: m.iv, lt: m.lt, ltMax: m.ltMax, drawn: m.drawn, last: lastIndex(), state: wsLive.state()}; })()`), &m); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if len(m.Intervals) == 0 {
		b.Fatal("no animation frames in the page during the flood")
	}

	frames := 2 * sends
	dropped := m.State.Dropped - before.State.Dropped
	taken := m.State.Taken - before.State.Taken
	behind := max(0, before.Last+frames-m.Last) // read with the rest: the page may have drawn more since the poll
	iv := slices.Clone(m.Intervals)
	slices.Sort(iv)
	q := func(p float64) float64 { return iv[int(p*float64(len(iv)-1))] }
	sum := 0.0
	for _, v := range iv {
		sum += v
	}
	b.ReportMetric(float64(frames)/elapsed.Seconds(), "frames/s")
	b.ReportMetric(q(0.5), "frame-p50-ms")
	b.ReportMetric(q(0.99), "frame-p99-ms")
	b.ReportMetric(iv[len(iv)-1], "frame-max-ms")
	b.ReportMetric(1000*float64(len(iv))/sum, "page-fps")
	b.ReportMetric(float64(m.LongTasks), "longtasks")
	b.ReportMetric(m.LongMax, "longtask-max-ms")
	b.ReportMetric(float64(taken), "taken")
	b.ReportMetric(float64(m.Drawn), "rows-drawn")
	b.ReportMetric(float64(dropped), "proxy-dropped")
	b.ReportMetric(float64(frames-behind-taken-dropped), "page-skipped")
	b.ReportMetric(float64(behind), "behind")
	following := 0.0
	if m.State.Following {
		following = 1
	}
	b.ReportMetric(following, "following")
	b.ReportMetric(100*float64(taken)/float64(frames), "taken-%")
	if caughtUp {
		b.ReportMetric(catchUp.Seconds(), "catch-up-s")
	} else {
		b.ReportMetric(-1, "catch-up-s")
		b.Logf("the page had not shown the flood's last frame %v after it: %+v", catchUp, m.State)
	}
	if m.State.Findings > 0 {
		b.Logf("the flood made %d findings on the page (rendered too)", m.State.Findings)
	}
}

// reportMainThread reports where the page's main thread spent its time
// between two readings of its metrics, as a share of wall time d: all of
// its tasks, and within them script, style and layout.
func reportMainThread(b *testing.B, m0, m1 map[string]float64, d time.Duration) {
	for _, k := range []struct{ metric, unit string }{
		{"TaskDuration", "page-busy-%"}, {"ScriptDuration", "page-script-%"},
		{"RecalcStyleDuration", "page-style-%"}, {"LayoutDuration", "page-layout-%"},
	} {
		b.ReportMetric(100*(m1[k.metric]-m0[k.metric])/d.Seconds(), k.unit)
	}
}

// openFollowing opens the live view at url in a headless Chromium and
// scrolls its list to the bottom, so that it follows the stream as a
// user watching the traffic would; the browser ends with b.
func openFollowing(b *testing.B, url string) *cdp.Browser {
	b.Helper()
	br := cdp.Start(b, cdp.Options{Window: "1280,800"})
	br.Timeout, br.Diag = timeout, "JSON.stringify(window.wsLive && wsLive.state())"
	br.CallTimeout = 2 * timeout // a page under load answers between its batches
	br.Navigate(url)
	br.WaitFor("the stream", `window.wsLive && wsLive.state().stream === "live"`)
	br.Eval(`(() => { const l = document.getElementById("lv-list"); l.scrollTop = l.scrollHeight; l.dispatchEvent(new Event("scroll")); return true; })()`)
	br.WaitFor("following", `wsLive.state().following`)
	return br
}

// settle waits, up to settleFor, until the browser has used at most
// quietCPU of processor time in each of two intervals of quietEvery in a
// row, and reports how long that took.
func settle(b *testing.B, br *cdp.Browser) {
	b.Helper()
	const (
		settleFor  = 15 * time.Second
		quietEvery = 500 * time.Millisecond
		quietCPU   = 20 * time.Millisecond
	)
	start, quiet := time.Now(), 0
	for quiet < 2 && time.Since(start) < settleFor {
		c0 := br.CPUTime()
		time.Sleep(quietEvery)
		if br.CPUTime()-c0 <= quietCPU {
			quiet++
		} else {
			quiet = 0
		}
	}
	if quiet < 2 {
		b.Logf("the browser was still busy %v after the warm-up", settleFor)
	}
	b.ReportMetric(time.Since(start).Seconds(), "settle-s")
}

// browserState is window.wsLive.state() of the page.
func browserState(b *testing.B, br *cdp.Browser) pageState {
	b.Helper()
	var st pageState
	if err := json.Unmarshal(br.Eval(`wsLive.state()`), &st); err != nil {
		b.Fatal(err)
	}
	return st
}

// pairedRatio is the median over rounds of a's rate over b's in the same
// round, in percent.
func pairedRatio(a, b []float64) float64 {
	r := make([]float64, min(len(a), len(b)))
	for i := range r {
		r[i] = 100 * a[i] / b[i]
	}
	return median(r)
}

// median is the middle of v.
func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
