package web

import (
	"bytes"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wsconform/wsconform/reports"
)

// replaysEvery is how long a notice of changed replay diffs waits before
// the pages are told: notices within it make one event (a busy replay
// compares many frames a second, and each event costs every page a fetch
// of /replays), and by then the comparison that prompted it is recorded.
const replaysEvery = 250 * time.Millisecond

// replays serves the replay diffs of the report so far (Report.Replays,
// from gate --replay) as the report renders them, side by side; an empty
// body when there are none (wsproxy never has any).
func (s *Server) replays(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	rep, err := s.report(r.Context())
	if err != nil {
		http.Error(w, "wsproxy web view: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	var b bytes.Buffer
	for _, d := range rep.Replays {
		if err := reports.ReplayDiffHTML(&b, d); err != nil {
			http.Error(w, "wsproxy web view: "+err.Error(), http.StatusInternalServerError)
			return
		}
	}
	_, _ = w.Write(b.Bytes())
}

// ReplaysChanged tells the pages that the replay diffs may have changed
// (gate --replay: a client frame was compared, a connection ended), so
// that they fetch /replays again. It returns at once: the proxy's
// validator calls it for every frame, so it costs an atomic load when a
// notice is already pending, and the pages hear of it replaysEvery later.
// Without Config.Replays it does nothing.
func (s *Server) ReplaysChanged() {
	if s.cfg.Replays {
		s.changes.notice()
	}
}

// changes counts the notices the pages were told of (version), and wakes
// the streams waiting for the next one.
type changes struct {
	pending atomic.Bool
	mu      sync.Mutex
	version uint64
	wake    chan struct{}
}

func newChanges() *changes { return &changes{wake: make(chan struct{})} }

// notice starts the timer of the next event unless one is pending.
func (c *changes) notice() {
	if c.pending.Load() || !c.pending.CompareAndSwap(false, true) {
		return
	}
	time.AfterFunc(replaysEvery, c.bump)
}

// bump counts one more change and wakes the streams. pending is cleared
// first, so that a notice made while the pages fetch starts another event.
func (c *changes) bump() {
	c.pending.Store(false)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.version++
	close(c.wake)
	c.wake = make(chan struct{})
}

// state is the number of changes so far and a channel closed by the next.
func (c *changes) state() (uint64, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version, c.wake
}
