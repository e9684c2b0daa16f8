package perf

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Sizes of the memory figures.
const (
	memoryFrames      = 1_000_000 // relayed frames (half each way)
	memoryWarmUp      = 100_000
	memoryConns       = 1000
	quickMemoryFrames = 20_000
	quickMemoryWarmUp = 2_000
	quickMemoryConns  = 20
)

// Memory measures wsproxy's resident memory (validation and recording
// on) across a long relay and with many connections open, each round in
// a wsproxy process of its own (cfg.Wsproxy; without it, in this process,
// whose RSS then includes the client and the upstream).
//
// The long relay pipelines 500,000 round trips (1M frames) on one
// connection; growth is the process's peak RSS (VmHWM) over its RSS
// before the first frame, and its RSS at the end over its RSS after a
// warm-up of 100,000 frames (which fills the check engine's replay window
// and the pools). The connection figure opens 1000 connections, each a
// session of its own that has made one round trip, and takes RSS with all
// of them open and again once they are closed.
func Memory(ctx context.Context, cfg Config) ([]Figure, error) {
	rounds := max(cfg.Rounds, 1)
	frames, warm, conns := memoryFrames, memoryWarmUp, memoryConns
	if cfg.Quick {
		frames, warm, conns = quickMemoryFrames, quickMemoryWarmUp, quickMemoryConns
	}
	up, err := startUpstream()
	if err != nil {
		return nil, err
	}
	defer up.close()
	peak := Figure{Name: fmt.Sprintf("RSS growth relaying %d frames with recording on (peak − before the first frame)", frames),
		Unit: "MB", Goal: "< 50 MB"}
	steady := Figure{Name: fmt.Sprintf("RSS growth relaying %d frames with recording on (end − after %d frames)", frames, warm),
		Unit: "MB", Goal: "< 50 MB"}
	// A peak taken while frames went unchecked would flatter the proxy.
	gaps := Figure{Name: fmt.Sprintf("frames of the %d not validated (proxy.validation-gap)", frames), Unit: "frames", Goal: "0"}
	open := Figure{Name: fmt.Sprintf("RSS growth with %d connections open (− before the first)", conns), Unit: "MB"}
	perConn := Figure{Name: fmt.Sprintf("RSS per open connection (%d open)", conns), Unit: "KB"}
	closed := Figure{Name: fmt.Sprintf("RSS growth once the %d connections closed", conns), Unit: "MB",
		Note: "freed pages go back to the system after the runtime's next collection (at most 2 minutes idle); what is kept is the next row"}
	kept := Figure{Name: fmt.Sprintf("live heap kept once the %d connections closed (wsproxy in this process, after a GC)", conns), Unit: "MB"}
	for r := range rounds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g, s, gap, err := memoryRelay(ctx, cfg, up, r, frames, warm)
		if err != nil {
			return nil, fmt.Errorf("memory, long relay, round %d: %w", r+1, err)
		}
		peak.Add(Wsproxy, g)
		steady.Add(Wsproxy, s)
		gaps.Add(Wsproxy, float64(gap))
		o, c, err := memoryConnsRound(ctx, cfg, up, r, conns)
		if err != nil {
			return nil, fmt.Errorf("memory, %d connections, round %d: %w", conns, r+1, err)
		}
		open.Add(Wsproxy, o)
		perConn.Add(Wsproxy, o*1000/float64(conns))
		closed.Add(Wsproxy, c)
		k, err := memoryKeptRound(ctx, cfg, up, r, conns)
		if err != nil {
			return nil, fmt.Errorf("memory, heap kept by %d closed connections, round %d: %w", conns, r+1, err)
		}
		kept.Add(Wsproxy, k)
	}
	if cfg.Wsproxy == "" {
		for _, f := range []*Figure{&peak, &steady, &gaps, &open, &perConn, &closed} {
			f.Note = "wsproxy in this process (no binary given): RSS includes the client and the upstream"
		}
	}
	return []Figure{peak, steady, gaps, open, perConn, closed, kept}, nil
}

// memoryRelay relays frames frames through a fresh wsproxy and returns
// its RSS growth: peak over the start, end over after the warm-up (MB).
func memoryRelay(ctx context.Context, cfg Config, up *upstream, round, frames, warm int) (float64, float64, int64, error) {
	s, err := startSubject(ctx, cfg, Wsproxy, up, 1000+round, wsproxyOptions{})
	if err != nil {
		return 0, 0, 0, err
	}
	stopped := false
	defer func() {
		if !stopped {
			_, _ = s.stop()
		}
	}()
	c, err := dialClient(ctx, s.url)
	if err != nil {
		return 0, 0, 0, err
	}
	defer c.close()
	start, err := readRSS(s.pid)
	if err != nil {
		return 0, 0, 0, err
	}
	if err := c.pipelined(warm / 2); err != nil {
		return 0, 0, 0, err
	}
	warmed, err := readRSS(s.pid)
	if err != nil {
		return 0, 0, 0, err
	}
	const step = 50_000 // round trips per pipelined series
	for done := 0; done < frames/2; done += step {
		if err := ctx.Err(); err != nil {
			return 0, 0, 0, err
		}
		if err := c.pipelined(min(step, frames/2-done)); err != nil {
			return 0, 0, 0, err
		}
	}
	end, err := readRSS(s.pid)
	if err != nil {
		return 0, 0, 0, err
	}
	c.close()
	stopped = true
	res, err := s.stop()
	if err != nil {
		return 0, 0, 0, err
	}
	if res.findings > 0 {
		return 0, 0, 0, fmt.Errorf("wsproxy found %d problems in clean traffic (%v)", res.findings, res.rules)
	}
	return mb(end.hwm - start.rss), mb(end.rss - warmed.rss), res.gaps, nil
}

// memoryConnsRound opens n connections through a fresh wsproxy and
// returns its RSS growth with all of them open and after they closed (MB).
func memoryConnsRound(ctx context.Context, cfg Config, up *upstream, round, n int) (float64, float64, error) {
	s, err := startSubject(ctx, cfg, Wsproxy, up, 2000+round, wsproxyOptions{maxConns: -1})
	if err != nil {
		return 0, 0, err
	}
	defer func() { _, _ = s.stop() }()
	rssNow := func() (int64, error) {
		r, err := readRSS(s.pid)
		return r.rss, err
	}
	before, opened, closed, err := openAndClose(ctx, s.url, n, rssNow, rssNow)
	return mb(opened - before), mb(closed - before), err
}

// memoryKeptRound opens and closes n connections through a wsproxy in
// this process and returns the live heap it keeps once they closed (MB):
// what the report holds of them. RSS cannot tell it, since the Go runtime
// returns freed pages only after its next collection (at most two minutes
// later when idle). The client and the upstream keep nothing of a closed
// connection, so the growth is the proxy's.
func memoryKeptRound(ctx context.Context, cfg Config, up *upstream, round, n int) (float64, error) {
	s, err := startWsproxyInProcess(cfg, up, 3000+round, wsproxyOptions{maxConns: -1})
	if err != nil {
		return 0, err
	}
	defer func() { _, _ = s.stop() }()
	before, _, kept, err := openAndClose(ctx, s.url, n, liveHeap, func() (int64, error) { return settledHeap(ctx) })
	return mb(kept - before), err
}

// openAndClose takes a reading, opens n connections (each a session of
// its own that makes one round trip), takes one with them all open,
// closes them and takes one more.
func openAndClose(ctx context.Context, url string, n int, open, closed func() (int64, error)) (before, opened, after int64, err error) {
	if before, err = open(); err != nil {
		return 0, 0, 0, err
	}
	cs := make([]*client, 0, n)
	closeAll := func() {
		var wg sync.WaitGroup
		for _, c := range cs {
			wg.Add(1)
			go func() { defer wg.Done(); c.close() }()
		}
		wg.Wait()
		clear(cs) // the clients' buffers are not the proxy's
		cs = cs[:0]
	}
	defer closeAll()
	for range n {
		if err := ctx.Err(); err != nil {
			return 0, 0, 0, err
		}
		c, err := dialClient(ctx, url)
		if err != nil {
			return 0, 0, 0, err
		}
		cs = append(cs, c)
		if _, err := c.roundTrips(1); err != nil {
			return 0, 0, 0, err
		}
	}
	if opened, err = open(); err != nil {
		return 0, 0, 0, err
	}
	closeAll()
	if after, err = closed(); err != nil {
		return 0, 0, 0, err
	}
	return before, opened, after, nil
}

// liveHeap is this process's live heap after a full collection.
func liveHeap() (int64, error) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc), nil
}

// settledHeap is the live heap once closing connections have let go of
// it: read every 50 ms until two readings are within 64 KiB (at most 5 s;
// the proxy's validator handles the closes after the sockets are gone).
func settledHeap(ctx context.Context) (int64, error) {
	last, _ := liveHeap()
	for range 100 {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		now, _ := liveHeap()
		if d := now - last; d < 64<<10 && d > -64<<10 {
			return now, nil
		}
		last = now
	}
	return last, nil
}

// rss is a process's resident set: now and its peak, in bytes.
type rss struct{ rss, hwm int64 }

// readRSS reads VmRSS and VmHWM of pid (0: this process).
func readRSS(pid int) (rss, error) {
	path := "/proc/self/status"
	if pid != 0 {
		path = "/proc/" + strconv.Itoa(pid) + "/status"
	}
	f, err := os.Open(path)
	if err != nil {
		return rss{}, fmt.Errorf("read RSS: %w", err)
	}
	defer f.Close()
	var r rss
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(val), " kB"), 10, 64)
		if err != nil {
			continue
		}
		switch name {
		case "VmRSS":
			r.rss = kb << 10
		case "VmHWM":
			r.hwm = kb << 10
		}
	}
	if r.rss == 0 {
		return rss{}, fmt.Errorf("read RSS: no VmRSS in %s", path)
	}
	return r, nil
}

func mb(b int64) float64 { return float64(b) / 1e6 }
