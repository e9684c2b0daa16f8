package runner

import (
	"container/heap"
	"context"
	"regexp"
	"slices"
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
// godog start every scenario of a suite at once and admits them the
// longest expected first, so that the long ones overlap the many short
// ones. A scenario counts against two limits: the scenarios open at once,
// and the scenarios working at once, which excludes those listening
// through a window (listens): against the reference server 32 may be open
// and 8 working, so that the waits overlap while the work (connecting,
// sending, the server's answers) is spread as it was at 8 at a time, and
// a scenario that times the server's reaction (a cancel acted on within
// 300 ms) does not run in a crowd of 32 starting together. Only the order
// and the crowd change: every window a step writes is kept as written.

// gate admits a suite's scenarios, at most open at a time and working at
// a time, the waiting one ranked first (the lowest rank) whenever places
// free; a scenario coming back from a window to work goes before any new
// one. It admits none before the scenarios it expects have all come
// (godog starts them in file order, so the first to come are the first
// written, not the longest), or been counted out by absent.
type gate struct {
	mu       sync.Mutex
	open     int // free places among the scenarios open at once
	work     int // free places among the scenarios working at once
	waiting  waiters
	resuming []*resumer // first come first
	// expect is how many scenarios must come before the first is
	// admitted; 0 once they have.
	expect int
}

func newGate(open, working, expect int) *gate {
	return &gate{open: max(1, open), work: max(1, min(open, working)), expect: expect}
}

// ticket is one admitted scenario's hold on the gate.
type ticket struct {
	g       *gate
	working bool // holds a working place; g.mu guards it
	left    bool
}

// waiter is a scenario waiting for places; ready closes when it has them.
type waiter struct {
	rank  int
	index int // in the heap, -1 once admitted
	ready chan struct{}
}

// resumer is an admitted scenario waiting for a working place.
type resumer struct {
	t     *ticket
	ready chan struct{}
}

// absent counts out one scenario the gate expected: godog ran a scenario
// the run does not know (it cannot tell which of the expected it was),
// so the gate waits for one fewer.
func (g *gate) absent() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.expect > 0 {
		g.expect--
		g.dispatch()
	}
}

// dispatch hands free places out: working places to the scenarios back
// from a window first, then both to new scenarios by rank, once every
// expected one has come. g.mu held.
func (g *gate) dispatch() {
	for g.work > 0 && len(g.resuming) > 0 {
		r := g.resuming[0]
		g.resuming = g.resuming[1:]
		g.work--
		r.t.working = true
		close(r.ready)
	}
	if g.expect > len(g.waiting) {
		return
	}
	g.expect = 0
	for g.open > 0 && g.work > 0 && len(g.waiting) > 0 {
		g.open--
		g.work--
		close(heap.Pop(&g.waiting).(*waiter).ready)
	}
}

// enter waits for places for the scenario of this rank and returns its
// ticket (working), or ctx's error when ctx ends first.
func (g *gate) enter(ctx context.Context, rank int) (*ticket, error) {
	w := &waiter{rank: rank, ready: make(chan struct{})}
	g.mu.Lock()
	heap.Push(&g.waiting, w)
	g.dispatch()
	g.mu.Unlock()
	select {
	case <-w.ready:
		return &ticket{g: g, working: true}, nil
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
			(&ticket{g: g, working: true}).leave() // handed places as ctx ended: pass them on
		}
		return nil, ctx.Err()
	}
}

// listen gives the working place back while the scenario listens through
// a window.
func (t *ticket) listen() {
	g := t.g
	g.mu.Lock()
	defer g.mu.Unlock()
	if t.working && !t.left {
		t.working = false
		g.work++
		g.dispatch()
	}
}

// resume waits for a working place again after a window, before any new
// scenario gets one; ctx's error when ctx ends first.
func (t *ticket) resume(ctx context.Context) error {
	g := t.g
	g.mu.Lock()
	if t.working || t.left {
		g.mu.Unlock()
		return nil
	}
	r := &resumer{t: t, ready: make(chan struct{})}
	g.resuming = append(g.resuming, r)
	g.dispatch()
	g.mu.Unlock()
	select {
	case <-r.ready:
		return nil
	case <-ctx.Done():
		g.mu.Lock()
		defer g.mu.Unlock()
		if i := slices.Index(g.resuming, r); i >= 0 {
			g.resuming = slices.Delete(g.resuming, i, i+1)
		}
		return ctx.Err() // a place handed meanwhile goes back with leave
	}
}

// leave gives every place of the scenario back, once however often it is
// called.
func (t *ticket) leave() {
	g := t.g
	g.mu.Lock()
	defer g.mu.Unlock()
	if t.left {
		return
	}
	t.left = true
	g.open++
	if t.working {
		t.working = false
		g.work++
	}
	if i := slices.IndexFunc(g.resuming, func(r *resumer) bool { return r.t == t }); i >= 0 {
		g.resuming = slices.Delete(g.resuming, i, i+1)
	}
	g.dispatch()
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

// turnKey is the context key of a scenario's ticket.
type turnKey struct{}

// schedule is the order and the gate of one godog suite's scenarios.
type schedule struct {
	gate *gate
	rank map[*Case]int
}

// newSchedule gates cases, open at a time and working at a time. The gate
// expects every case with a step: godog calls no hook for a scenario
// without one.
func newSchedule(cases []*Case, open, working int, opts Options) *schedule {
	expect := 0
	for _, c := range cases {
		if len(c.pickle.Steps) > 0 {
			expect++
		}
	}
	return &schedule{gate: newGate(open, working, expect), rank: ranks(cases, opts)}
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

// listens reports whether a step only waits, whatever the target does:
// a window to listen through, a connection to watch, a wait, or a wait
// for a message longer than the receive timeout (a heartbeat's). The
// scenario gives its working place back meanwhile.
func listens(text string, to Timeouts) bool {
	if listenStep.MatchString(text) {
		return true
	}
	m := stepWindow.FindStringSubmatch(text)
	return m != nil && parseOr(m[1], 0) > to.Receive
}

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
