package server

import "sync"

// Entry is one logged event: its ordering id (event_id, seq) and the bytes
// that were sent, so a replay is byte-identical to the original.
type Entry struct {
	ID   int64
	Data []byte
}

// ReplayLog keeps the last Window events of a session for replay. Memory
// follows the events held, never the session's length: the ring grows to
// the window as events come (a session kept for a resume with a few events
// costs a few entries, not the window's 1000). Safe for concurrent use.
type ReplayLog struct {
	mu     sync.Mutex
	window int
	ring   []Entry // len(ring) ≤ window; full when n == window
	start  int     // index of the oldest entry in ring
	n      int     // entries held
	// gone is the id of the newest event that left the log: a client that
	// has not seen it cannot be replayed to completely.
	gone int64
}

// NewReplayLog keeps at most window entries.
func NewReplayLog(window int) *ReplayLog {
	if window < 1 {
		window = 1
	}
	return &ReplayLog{window: window}
}

// Append logs an event. IDs must increase; the log does not check.
func (l *ReplayLog) Append(id int64, data []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n == l.window {
		l.gone = l.ring[l.start].ID
		l.ring[l.start] = Entry{ID: id, Data: data}
		l.start = (l.start + 1) % l.window
		return
	}
	if l.n == len(l.ring) {
		l.grow()
	}
	l.ring[(l.start+l.n)%len(l.ring)] = Entry{ID: id, Data: data}
	l.n++
}

// grow doubles the ring, up to the window, oldest entry first. l.mu held.
func (l *ReplayLog) grow() {
	ring := make([]Entry, min(l.window, max(16, 2*len(l.ring))))
	for k := 0; k < l.n; k++ {
		ring[k] = l.ring[(l.start+k)%len(l.ring)]
	}
	l.ring, l.start = ring, 0
}

// After returns the events with an id greater than id, oldest first. ok is
// false when some of them already left the window: the caller cannot
// replay completely and must say so (minicodex: get_snapshot).
func (l *ReplayLog) After(id int64) (events []Entry, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ok = id >= l.gone
	for k := 0; k < l.n; k++ {
		e := l.ring[(l.start+k)%len(l.ring)]
		if e.ID > id {
			events = append(events, e)
		}
	}
	return events, ok
}

// Last is the id of the newest event, 0 when none was logged.
func (l *ReplayLog) Last() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n == 0 {
		return 0
	}
	return l.ring[(l.start+l.n-1)%len(l.ring)].ID
}

// Prune drops events with an id up to and including id (myagent's
// user.ack).
func (l *ReplayLog) Prune(id int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.n > 0 && l.ring[l.start].ID <= id {
		l.gone = l.ring[l.start].ID
		l.ring[l.start] = Entry{}
		l.start = (l.start + 1) % len(l.ring)
		l.n--
	}
}

// Len is the number of events held.
func (l *ReplayLog) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}
