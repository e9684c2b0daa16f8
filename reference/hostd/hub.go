package hostd

import (
	"slices"
	"sync"

	"github.com/wsconform/wsconform/reference/server"
)

// hub is the server-authoritative state of one hostd server: access
// tokens, the runs the hosts reported, and the connected hosts and apps.
// One mutex guards it all. Every relay to apps and every command to a host
// is sent under it, so each app sees a run's events in persisted order and
// never twice; run.ack is sent by the host connection's own reader, which
// keeps a connection's acks in order without it.
type hub struct {
	env *server.Env

	mu     sync.Mutex
	tokens *tokenSet
	hosts  map[string][]*hostConn // host_id → live connections, oldest first
	runs   map[string]*run
	order  []*run // runs in creation order: eviction and late-app replay
	apps   appIndex
	// waiting holds, per host_id, the runs with inputs forwarded and not
	// yet recorded: the only runs a host (re)connect has to look at.
	waiting map[string]map[*run]struct{}

	// runWindow is how many events a run keeps for late apps; maxRuns how
	// many runs the server remembers; replayBudget how many events a late
	// app is sent at most on connect.
	runWindow, maxRuns, replayBudget int
}

// run is what the server knows of one run.
type run struct {
	id, hostID string
	log        *server.ReplayLog // the run's recent events as relayed, by seq
	last       int64             // highest persisted seq
	persisted  bool              // last is set
	exited     bool
	via        *hostConn // the connection that last sent an event of the run
	inputs     *inputBook
	info       runInfo // what GET /runs shows

	// held is the event the hostd-fanout-reorders mutation holds back.
	held     []byte
	reorders bool
}

// hostConn is one /ws/host connection.
type hostConn struct {
	c      *server.Conn
	hostID string
	gone   bool
}

// appConn is one /ws/app connection and the runs it wants.
type appConn struct {
	c      *server.Conn
	filter filter
}

func newHub(env *server.Env) *hub {
	window := min(env.ReplayWindow, max(1, env.QueueSize/2))
	return &hub{
		env:          env,
		tokens:       newTokenSet(maxTokens),
		hosts:        map[string][]*hostConn{},
		runs:         map[string]*run{},
		apps:         newAppIndex(),
		waiting:      map[string]map[*run]struct{}{},
		runWindow:    window,
		maxRuns:      env.ReplayWindow,
		replayBudget: max(1, env.QueueSize/2),
	}
}

// runFor returns the run an event of hc names, creating it; nil when the
// run belongs to another host. Call with mu held.
func (h *hub) runFor(hc *hostConn, id string) *run {
	r := h.runs[id]
	if r == nil {
		r = &run{id: id, hostID: hc.hostID, log: server.NewReplayLog(h.runWindow), inputs: newInputBook(h.env.ReplayWindow)}
		h.runs[id] = r
		h.order = append(h.order, r)
		h.evict()
		return r
	}
	if r.hostID != hc.hostID {
		return nil
	}
	return r
}

// evict forgets runs beyond maxRuns: the oldest exited run first, else the
// oldest run. Memory follows the window, not the server's uptime. Call
// with mu held.
func (h *hub) evict() {
	for len(h.order) > h.maxRuns {
		i := slices.IndexFunc(h.order, func(r *run) bool { return r.exited })
		if i < 0 {
			i = 0
		}
		gone := h.order[i]
		delete(h.runs, gone.id)
		h.order = slices.Delete(h.order, i, i+1)
		h.untrack(gone)
	}
}

// route is the connection a command for r goes to: the one that last sent
// an event of the run while it is live, else the newest live connection of
// the run's host; nil when the host is offline. Call with mu held.
func (h *hub) route(r *run) *hostConn {
	if r.via != nil && !r.via.gone {
		return r.via
	}
	conns := h.hosts[r.hostID]
	if len(conns) == 0 {
		return nil
	}
	return conns[len(conns)-1]
}

// addHost registers a host connection.
func (h *hub) addHost(hc *hostConn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.hosts[hc.hostID] = append(h.hosts[hc.hostID], hc)
	h.redeliver(hc.hostID)
}

// redeliver sends the inputs that were forwarded to a connection of the
// host that has ended, and never recorded, to the host's current
// connection: the host may not have received them (hostd.input-reforwarded
// allows a re-delivery to a reconnected host; the host de-duplicates by
// input_id). It runs when a host connection starts or ends, as either may
// be the moment the server learns of the reconnect. Call with mu held.
func (h *hub) redeliver(hostID string) {
	if len(h.waiting[hostID]) == 0 {
		return
	}
	for _, r := range h.order { // in run order, so re-deliveries are too
		if _, ok := h.waiting[hostID][r]; !ok || r.exited {
			continue
		}
		to := h.route(r)
		if to == nil {
			continue
		}
		for _, in := range r.inputs.pending() {
			if in.to.gone {
				in.to = to
				h.sendCommand(to, r, typeSendInput, sendInputData{InputID: in.id, Text: in.text})
			}
		}
	}
}

// track keeps h.waiting in step with r's input book. Call with mu held
// after the book changed.
func (h *hub) track(r *run) {
	set := h.waiting[r.hostID]
	if r.inputs.waiting > 0 {
		if set == nil {
			set = map[*run]struct{}{}
			h.waiting[r.hostID] = set
		}
		set[r] = struct{}{}
		return
	}
	h.untrack(r)
}

// untrack drops r from h.waiting. Call with mu held.
func (h *hub) untrack(r *run) {
	set := h.waiting[r.hostID]
	delete(set, r)
	if len(set) == 0 {
		delete(h.waiting, r.hostID)
	}
}

// removeHost forgets a host connection that ended.
func (h *hub) removeHost(hc *hostConn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hc.gone = true
	conns := h.hosts[hc.hostID]
	if i := slices.Index(conns, hc); i >= 0 {
		conns = slices.Delete(conns, i, i+1)
	}
	if len(conns) == 0 {
		delete(h.hosts, hc.hostID)
		return
	}
	h.hosts[hc.hostID] = conns
	h.redeliver(hc.hostID)
}

// addApp sends a late app the retained events of the runs it wants, then
// subscribes it to live events, under one lock so nothing is missed or
// doubled in between.
func (h *hub) addApp(a *appConn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range h.replayFor(a) {
		if a.c.SendRaw(e.Data) != nil {
			return
		}
	}
	h.apps.add(a)
}

// removeApp unsubscribes an app connection that ended.
func (h *hub) removeApp(a *appConn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.apps.remove(a)
}

// replayFor picks what a late app is sent on connect: for each run it
// wants, its retained events in seq order, runs in creation order. The
// whole replay fits in half the send queue (a burst larger than the queue
// would disconnect the app with 1013): when the runs hold more, the newest
// runs and, within a run, the newest events win. Call with mu held.
func (h *hub) replayFor(a *appConn) []server.Entry {
	budget := h.replayBudget
	var picked [][]server.Entry
	for i := len(h.order) - 1; i >= 0 && budget > 0; i-- {
		r := h.order[i]
		if !a.filter.wants(r) {
			continue
		}
		entries, _ := r.log.After(-1)
		if len(entries) > budget {
			entries = entries[len(entries)-budget:]
		}
		budget -= len(entries)
		picked = append(picked, entries)
	}
	var out []server.Entry
	for i := len(picked) - 1; i >= 0; i-- {
		out = append(out, picked[i]...)
	}
	return out
}

// fanout sends one relayed event to every app that wants its run. Call
// with mu held.
func (h *hub) fanout(r *run, data []byte) {
	h.apps.each(r, func(a *appConn) {
		_ = a.c.SendRaw(data) // a full queue ends that app with 1013; the rest go on
	})
}
