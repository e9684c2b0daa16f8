package server

import (
	"sync"
	"time"
)

// Trace records, per connection, when each message was queued and when it
// was written, for the fan-out latency benchmark. Off (nil) otherwise, and
// then costs one nil check per message.
type Trace struct {
	conns sync.Map // conn id → *connTrace
}

type connTrace struct {
	mu     sync.Mutex
	queue  []time.Time
	writes int
}

func (t *Trace) conn(id string) *connTrace {
	if t == nil {
		return nil
	}
	ct := &connTrace{}
	t.conns.Store(id, ct)
	return ct
}

func (ct *connTrace) queued() {
	if ct == nil {
		return
	}
	ct.mu.Lock()
	ct.queue = append(ct.queue, time.Now())
	ct.mu.Unlock()
}

func (ct *connTrace) sent() {
	if ct == nil {
		return
	}
	ct.mu.Lock()
	ct.writes++
	ct.mu.Unlock()
}

// Queued returns when the nth message (from 0) of connection id was
// queued, and false when there is no such message.
func (t *Trace) Queued(id string, n int) (time.Time, bool) {
	v, ok := t.conns.Load(id)
	if !ok {
		return time.Time{}, false
	}
	ct := v.(*connTrace)
	ct.mu.Lock()
	defer ct.mu.Unlock()
	if n < 0 || n >= len(ct.queue) {
		return time.Time{}, false
	}
	return ct.queue[n], true
}
