package web

import (
	"slices"
	"sync"

	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/reports"
)

// ring is the bounded buffer between the validator (one writer) and the
// pages (readers). publish overwrites the oldest slot when the ring is
// full: the writer never waits, and a reader that falls behind the ring's
// window learns how many events it lost.
type ring struct {
	mu    sync.Mutex
	slots []slot
	// next is the id of the next event; ids start at 1, so that 0 can
	// mean "from the start of the window" and a Last-Event-ID is never 0.
	next uint64
	// wake is closed (and replaced) by the next publish when a reader is
	// waiting for one; waiting avoids a channel per event otherwise.
	wake    chan struct{}
	waiting bool
	reg     registry
}

// slot holds one event and the copies of what it pointed to; its buffer
// is reused by the event that overwrites it, so publishing does not
// allocate once the ring has gone round.
type slot struct {
	id      uint64
	ev      proxy.LiveEvent
	payload []byte
	finding reports.Finding
}

// item is an event a reader copied out of the ring: its own payload and
// finding, valid after the ring moved on.
type item struct {
	id      uint64
	ev      proxy.LiveEvent
	finding reports.Finding
}

func newRing(n int) *ring {
	return &ring{slots: make([]slot, n), next: 1, wake: make(chan struct{}), reg: newRegistry()}
}

// publish copies ev into the ring. It holds the lock for a copy of at
// most proxy.LivePayload bytes and never blocks on a reader.
func (r *ring) publish(ev *proxy.LiveEvent) {
	r.mu.Lock()
	s := &r.slots[r.next%uint64(len(r.slots))]
	s.id = r.next
	r.next++
	s.payload = append(s.payload[:0], ev.Payload...)
	s.ev = *ev
	s.ev.Payload = s.payload
	s.ev.Finding = nil
	if ev.Finding != nil {
		s.finding = *ev.Finding
		s.finding.Related = slices.Clone(ev.Finding.Related)
		s.ev.Finding = &s.finding
	}
	r.reg.update(ev)
	if r.waiting {
		close(r.wake)
		r.wake, r.waiting = make(chan struct{}), false
	}
	r.mu.Unlock()
}

// oldest is the id of the oldest event still held; r.mu is held.
func (r *ring) oldest() uint64 {
	if n := uint64(len(r.slots)); r.next > n {
		return r.next - n
	}
	return 1
}

// readInto copies events from id from on (0: the oldest held) into dst: every event that is not
// a frame, and the frames among the last maxFrames events available (a
// reader that is further behind skips the older frames, so that it
// catches up with the present instead of showing the past slowly). It
// returns the id to read from next, how many events were lost (overwritten
// before the reader came, or frames skipped), and, when there was nothing
// to read, a channel closed by the next publish.
// The payloads are copied into arena when it is not nil (reused by the
// caller from batch to batch, so that a following page does not allocate
// per event).
func (r *ring) readInto(from uint64, maxFrames int, dst []item, arena *[]byte) (out []item, next, lost uint64, wake <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch old := r.oldest(); {
	case from == 0:
		from = old // a new page: the window is all there is
	case from < old:
		lost, from = old-from, old
	}
	if from >= r.next {
		r.waiting = true
		return dst, r.next, lost, r.wake
	}
	skipBefore := uint64(0)
	if avail := r.next - from; avail > uint64(maxFrames) {
		skipBefore = r.next - uint64(maxFrames)
	}
	for id := from; id < r.next; id++ {
		s := &r.slots[id%uint64(len(r.slots))]
		if id < skipBefore && s.ev.Kind == proxy.LiveFrame {
			lost++
			continue
		}
		dst = append(dst, item{id: id, ev: s.ev})
		it := &dst[len(dst)-1]
		if arena != nil {
			start := len(*arena)
			*arena = append(*arena, s.payload...)
			it.ev.Payload = (*arena)[start:len(*arena):len(*arena)]
		} else {
			it.ev.Payload = slices.Clone(s.payload)
		}
		if s.ev.Finding != nil {
			it.finding = s.finding
			it.finding.Related = slices.Clone(s.finding.Related)
			it.ev.Finding = nil // the reader uses it.finding
		}
	}
	return dst, r.next, lost, nil
}

// state copies the registry and the id of the next event, together.
func (r *ring) state() (regState, uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reg.snapshot(), r.next
}

// totals are the proxy's counts so far.
func (r *ring) totals() totals {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := &r.reg
	return totals{Frames: g.frames, Errors: g.errors, Warnings: g.warnings, Infos: g.infos}
}
