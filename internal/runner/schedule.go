package runner

import (
	"container/heap"
	"context"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"time"
)

// A run's wall time is set by its longest scenarios, not by its CPU: the
// whole suite costs under 2 s of CPU on the reference server, and most of
// each scenario is a window it must listen through ("receives no X within
// 300ms") or a heartbeat it waits for. godog starts scenarios in file
// order, so the five 1-2 s myagent heartbeat and resume scenarios, last
// in the file order, started last and ran alone at the end. The gate lets
// godog start every scenario of a suite at once and admits them
// concurrency at a time, the longest expected first, so that the long
// ones overlap the many short ones. Only the order changes: every window a
// step writes is kept as written.

// gate admits a suite's scenarios, at most its limit at a time, the
// waiting one ranked first (the lowest rank) whenever a place frees. It
// admits none before the scenarios it expects have all come (godog starts
// them in file order, so the first to come are the first written, not
// the longest), or been counted out by absent.
type gate struct {
	mu      sync.Mutex
	free    int
	waiting waiters
	// expect is how many scenarios must come before the first is
	// admitted; 0 once they have.
	expect int
}

func newGate(limit, expect int) *gate { return &gate{free: max(1, limit), expect: expect} }

// absent counts out one scenario the gate expected: godog ran a scenario
// the run does not know (it cannot tell which of the expected it was),
// so the gate waits for one fewer.
func (g *gate) absent() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.expect > 0 {
		g.expect--
		g.open()
	}
}

// open admits the first waiting scenarios once every expected one has
// come; g.mu is held.
func (g *gate) open() {
	if g.expect > len(g.waiting) {
		return
	}
	g.expect = 0
	for g.free > 0 && len(g.waiting) > 0 {
		g.free--
		close(heap.Pop(&g.waiting).(*waiter).ready)
	}
}

// waiter is a scenario waiting for a place; ready closes when it has one.
type waiter struct {
	rank  int
	index int // in the heap, -1 once admitted
	ready chan struct{}
}

// enter waits for a place for the scenario of this rank. It returns the
// function that gives the place back (idempotent), or ctx's error when
// ctx ends first.
func (g *gate) enter(ctx context.Context, rank int) (func(), error) {
	g.mu.Lock()
	if g.expect == 0 && g.free > 0 && len(g.waiting) == 0 {
		g.free--
		g.mu.Unlock()
		return g.releaser(), nil
	}
	w := &waiter{rank: rank, ready: make(chan struct{})}
	heap.Push(&g.waiting, w)
	if g.expect > 0 {
		g.open()
	}
	g.mu.Unlock()
	select {
	case <-w.ready:
		return g.releaser(), nil
	case <-ctx.Done():
		g.mu.Lock()
		admitted := w.index < 0
		if !admitted {
			heap.Remove(&g.waiting, w.index)
			if g.expect > 0 {
				g.expect-- // it came, and will not be admitted
			}
		}
		g.mu.Unlock()
		if admitted {
			g.leave() // handed a place as ctx ended: pass it on
		}
		return nil, ctx.Err()
	}
}

// releaser gives the place back once, however often it is called.
func (g *gate) releaser() func() {
	var once sync.Once
	return func() { once.Do(g.leave) }
}

// leave hands the place to the first waiting scenario, or frees it.
func (g *gate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.waiting) == 0 {
		g.free++
		return
	}
	w := heap.Pop(&g.waiting).(*waiter)
	close(w.ready)
}

// waiters is a heap of waiting scenarios by rank.
type waiters []*waiter

func (h waiters) Len() int           { return len(h) }
func (h waiters) Less(i, j int) bool { return h[i].rank < h[j].rank }
func (h waiters) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *waiters) Push(x any) {
	w := x.(*waiter)
	w.index = len(*h)
	*h = append(*h, w)
}
func (h *waiters) Pop() any {
	old := *h
	w := old[len(old)-1]
	old[len(old)-1] = nil
	w.index = -1
	*h = old[:len(old)-1]
	return w
}

// schedule is the order and the gate of one godog suite's scenarios.
type schedule struct {
	gate *gate
	rank map[*Case]int
}

// newSchedule gates cases, limit at a time. The gate expects every case
// with a step: godog calls no hook for a scenario without one.
func newSchedule(cases []*Case, limit int, opts Options) *schedule {
	expect := 0
	for _, c := range cases {
		if len(c.pickle.Steps) > 0 {
			expect++
		}
	}
	return &schedule{gate: newGate(limit, expect), rank: ranks(cases, opts)}
}

// ranks orders cases longest expected first (catalog order among equals):
// a previous run's duration where the options have one (--shard-timings),
// else what the steps say they wait (expected).
func ranks(cases []*Case, opts Options) map[*Case]int {
	est := make(map[*Case]time.Duration, len(cases))
	for _, c := range cases {
		if d, ok := opts.Shard.Durations[c.ID]; ok {
			est[c] = d
		} else {
			est[c] = c.expected(opts.Timeouts)
		}
	}
	order := append([]*Case(nil), cases...)
	sort.SliceStable(order, func(i, j int) bool { return est[order[i]] > est[order[j]] })
	rank := make(map[*Case]int, len(order))
	for i, c := range order {
		rank[c] = i
	}
	return rank
}

// listenStep is a step that takes as long as its window whatever the
// target does: a window to listen through, a connection to watch, a wait.
var listenStep = regexp.MustCompile(`(?:receives no "[^"]+"|receives nothing|stays connected|skips what it receives)(?: (?:within|for) (\S+))?$|^I wait (\S+)$`)

// slowReply is the scripted agent's "/slow N": N chunks, one per slow
// delay of the reference server.
var slowReply = regexp.MustCompile(`/slow (\d+)`)

// expected is how long the scenario is expected to take, for ordering
// only: its windows (a listening step's, the default quiet window when it
// writes none), the longer waits it allows ("receives X within 70s", which
// a heartbeat takes most of) and the scripted agent's slow replies at the
// reference server's delay. A wrong guess costs time, never a verdict.
func (c *Case) expected(to Timeouts) time.Duration {
	if to.Quiet == 0 {
		to = DefaultTimeouts
	}
	var d time.Duration
	for _, st := range c.pickle.Steps {
		if m := listenStep.FindStringSubmatch(st.Text); m != nil {
			d += parseOr(m[1]+m[2], to.Quiet)
		} else if m := stepWindow.FindStringSubmatch(st.Text); m != nil {
			if w := parseOr(m[1], 0); w > to.Receive {
				d += w
			}
		}
		if st.Argument != nil && st.Argument.DocString != nil {
			for _, m := range slowReply.FindAllStringSubmatch(st.Argument.DocString.Content, -1) {
				n, _ := strconv.Atoi(m[1])
				d += time.Duration(n) * ReferenceConfig().Slow
			}
		}
	}
	return d
}

// parseOr reads a written duration, def when there is none or it is bad
// (the step reports a bad one itself).
func parseOr(s string, def time.Duration) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return def
	}
	return d
}
