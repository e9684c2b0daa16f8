package coworker

import (
	"context"
	"sync"
)

// gate pauses a streaming turn while the connection's send queue is
// filling up. Conn.Send never blocks and disconnects a client whose queue
// overflows; an agent streaming as fast as it can would overflow the queue
// of a client that reads at an ordinary pace, so the turn waits for the
// queue to drain (Conn.OnPressure) before its next chunk. A client that
// stops reading altogether still ends up disconnected by its queue.
type gate struct {
	mu sync.Mutex
	// closed is non-nil while the queue is above its high-water mark; it is
	// closed when the queue drains.
	closed chan struct{}
}

func newGate() *gate { return &gate{} }

// set is the Conn.OnPressure callback. It runs on the goroutine that sent
// (which may hold the session's mutex) or on the writer, so it only takes
// the gate's own lock.
func (g *gate) set(full bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case full && g.closed == nil:
		g.closed = make(chan struct{})
	case !full && g.closed != nil:
		close(g.closed)
		g.closed = nil
	}
}

// wait returns true once the queue has room, false when stop, done or ctx
// ends first.
func (g *gate) wait(ctx context.Context, stop, done <-chan struct{}) bool {
	g.mu.Lock()
	ch := g.closed
	g.mu.Unlock()
	if ch == nil {
		return true
	}
	select {
	case <-ch:
		return true
	case <-stop:
	case <-done:
	case <-ctx.Done():
	}
	return false
}
