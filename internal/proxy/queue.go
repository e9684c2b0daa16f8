package proxy

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// opFlush is a message that is none: it asks a leg's writer to write out
// what the other leg's reader left held back for it (conn.flushOwed).
const opFlush wire.Opcode = -1

// msg is one message on its way to a leg's writer.
type msg struct {
	op   wire.Opcode
	data []byte
	// code and data (as the reason) of a close to send; for a close,
	// code 1005 means a close frame without a status code.
	code int
	// index is the frame's index in the recording, for fault notes.
	index int64
}

// Errors of queue.push.
var (
	errQueueClosed = errors.New("queue closed")
	errStalled     = errors.New("queue full and not draining")
	errBudget      = errors.New("memory budget exceeded")
)

// queue is the bounded buffer between one leg's reader and the other
// leg's writer: at most maxN messages and maxBytes of payload (one message
// larger than maxBytes still fits when the queue is empty, so a big frame
// under --max-frame always passes).
//
// A full queue makes the reader wait, so that TCP flow control slows the
// sender down exactly as a slow peer would on a direct connection. The
// wait is bounded: when the writer makes no progress for the stall
// timeout (and is not holding messages back on purpose for a fault), push
// gives up with errStalled and the connection is closed as a slow peer
// rather than blocking forever.
type queue struct {
	mu sync.Mutex
	// items is a ring that grows to maxN as a backlog needs it: most
	// connections never hold more than a few messages, and a ring of
	// maxN for each leg of 1000 idle connections was 29 MB.
	items    []msg
	maxN     int
	head, n  int
	bytes    int
	maxBytes int
	popped   uint64
	closed   bool
	notEmpty chan struct{}
	notFull  chan struct{}
	gone     chan struct{} // closed by close: wakes every waiting push

	// budget counts the bytes queued across every queue of the proxy; a
	// message that would bring it over limit is refused with errBudget
	// unless the queue is empty (a message in an empty queue is in
	// flight, not a backlog).
	budget *atomic.Int64
	limit  int64
}

func newQueue(maxN, maxBytes int, budget *atomic.Int64, limit int64) *queue {
	return &queue{items: make([]msg, min(maxN, queueStart)), maxN: maxN, maxBytes: maxBytes, budget: budget, limit: limit,
		notEmpty: make(chan struct{}, 1), notFull: make(chan struct{}, 1), gone: make(chan struct{})}
}

// queueStart is the ring's first size.
const queueStart = 8

// grow doubles the full ring (up to maxN), its messages in order from
// index 0; the caller holds q.mu.
func (q *queue) grow() {
	items := make([]msg, min(2*len(q.items), q.maxN))
	k := copy(items, q.items[q.head:])
	copy(items[k:], q.items[:q.head])
	q.items, q.head = items, 0
}

// reserve takes n bytes from the budget; the caller holds q.mu.
func (q *queue) reserve(n int) bool {
	if q.budget == nil {
		return true
	}
	if q.budget.Add(int64(n)) > q.limit && q.n > 0 {
		q.budget.Add(-int64(n))
		return false
	}
	return true
}

func (q *queue) release(n int) {
	if q.budget != nil && n != 0 {
		q.budget.Add(-int64(n))
	}
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// push appends m, waiting for room. It returns errQueueClosed when the
// writer is gone (the message is dropped: its connection is ending) or
// when cancel is closed, and errStalled as described on queue. busy
// reports that the writer is deliberately not writing (a fault's delay or
// pause), which is not a stall.
func (q *queue) push(m msg, cancel <-chan struct{}, stall time.Duration, busy func() bool) error {
	var timer *time.Timer
	var seen uint64
	for {
		q.mu.Lock()
		if q.closed {
			q.mu.Unlock()
			return errQueueClosed
		}
		if q.n < q.maxN && (q.n == 0 || q.bytes+len(m.data) <= q.maxBytes) {
			if !q.reserve(len(m.data)) {
				q.mu.Unlock()
				if timer != nil {
					timer.Stop()
				}
				return errBudget
			}
			if q.n == len(q.items) {
				q.grow()
			}
			q.items[(q.head+q.n)%len(q.items)] = m
			q.n++
			q.bytes += len(m.data)
			q.mu.Unlock()
			signal(q.notEmpty)
			if timer != nil {
				timer.Stop()
			}
			return nil
		}
		popped := q.popped
		q.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(stall)
			seen = popped
		}
		select {
		case <-q.notFull:
		case <-q.gone:
		case <-cancel:
			timer.Stop()
			return errQueueClosed
		case <-timer.C:
			if popped == seen && !busy() {
				return errStalled
			}
			seen = popped
			timer.Reset(stall)
		}
	}
}

// wait blocks until a message is queued. ok is false when abort is closed;
// quitting is true when quit is closed (the proxy shuts down: the writer
// then drains what is queued with tryPop).
func (q *queue) wait(abort, quit <-chan struct{}) (ok, quitting bool) {
	for {
		select {
		case <-abort:
			return false, false
		case <-quit:
			return false, true
		default:
		}
		if q.len() > 0 {
			return true, false
		}
		select {
		case <-q.notEmpty:
		case <-abort:
			return false, false
		case <-quit:
			return false, true
		}
	}
}

// len is how many messages are queued.
func (q *queue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n
}

func (q *queue) tryPop() (msg, bool) {
	q.mu.Lock()
	if q.n == 0 {
		q.mu.Unlock()
		return msg{}, false
	}
	m := q.items[q.head]
	q.items[q.head] = msg{}
	q.head = (q.head + 1) % len(q.items)
	q.n--
	q.bytes -= len(m.data)
	q.popped++
	q.release(len(m.data))
	q.mu.Unlock()
	signal(q.notFull)
	return m, true
}

// close makes every later push fail at once and frees what is queued:
// the writer is gone.
func (q *queue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	q.closed = true
	clear(q.items)
	q.release(q.bytes)
	q.n, q.bytes = 0, 0
	close(q.gone)
}

// dropAll frees what is queued without closing the queue: the connection
// is being closed and the backlog will not be delivered.
func (q *queue) dropAll() {
	q.mu.Lock()
	clear(q.items)
	q.release(q.bytes)
	q.n, q.bytes, q.head = 0, 0, 0
	q.mu.Unlock()
	signal(q.notFull)
}
