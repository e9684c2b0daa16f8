package proxy

import (
	"errors"
	"testing"
	"time"
)

func TestQueueBounds(t *testing.T) {
	t.Parallel()
	q := newQueue(3, 10, nil, 0)
	never := func() bool { return false }
	for i, n := range []int{4, 4} {
		if err := q.push(msg{data: make([]byte, n), index: int64(i)}, nil, time.Second, never); err != nil {
			t.Fatal(err)
		}
	}
	// 4+4+4 > 10 bytes: the third waits, then stalls (nobody pops).
	start := time.Now()
	if err := q.push(msg{data: make([]byte, 4)}, nil, 50*time.Millisecond, never); !errors.Is(err, errStalled) {
		t.Fatalf("push into a full queue = %v, want errStalled", err)
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Error("stalled too early")
	}
	// A writer busy on purpose (a fault's pause) is not a stall: the push
	// waits until a pop makes room.
	go func() {
		time.Sleep(100 * time.Millisecond)
		q.tryPop()
	}()
	if err := q.push(msg{data: make([]byte, 4)}, nil, 20*time.Millisecond, func() bool { return true }); err != nil {
		t.Fatalf("push while the writer is busy = %v", err)
	}
	// Order is kept.
	m, ok := q.tryPop()
	if !ok || m.index != 1 {
		t.Errorf("popped %+v, want index 1", m)
	}
	// One message larger than the byte bound passes when the queue is empty.
	q2 := newQueue(3, 10, nil, 0)
	if err := q2.push(msg{data: make([]byte, 100)}, nil, time.Second, never); err != nil {
		t.Errorf("a big message into an empty queue: %v", err)
	}
}

func TestQueueCloseWakesPushers(t *testing.T) {
	t.Parallel()
	q := newQueue(1, 1<<20, nil, 0)
	never := func() bool { return false }
	_ = q.push(msg{}, nil, time.Second, never)
	errs := make(chan error, 2)
	for range 2 {
		go func() { errs <- q.push(msg{}, nil, time.Minute, never) }()
	}
	time.Sleep(20 * time.Millisecond)
	q.close()
	for range 2 {
		select {
		case err := <-errs:
			if !errors.Is(err, errQueueClosed) {
				t.Errorf("push after close = %v", err)
			}
		case <-time.After(timeout):
			t.Fatal("a waiting push was not woken by close")
		}
	}
	abort := make(chan struct{})
	close(abort)
	if ok, _ := q.wait(abort, nil); ok {
		t.Error("wait after abort reported a message")
	}
	quit := make(chan struct{})
	close(quit)
	if _, quitting := newQueue(1, 1, nil, 0).wait(nil, quit); !quitting {
		t.Error("wait did not report the shutdown")
	}
}

// TestQueueGrowsInOrder: the ring starts small and grows while messages
// wrap around it; every message comes out once, in order, and the count
// bound is maxN, not the ring's size.
func TestQueueGrowsInOrder(t *testing.T) {
	t.Parallel()
	const maxN = 100
	q := newQueue(maxN, 1<<20, nil, 0)
	never := func() bool { return false }
	var next, want int64
	push := func(k int) {
		for range k {
			if err := q.push(msg{index: next}, nil, time.Second, never); err != nil {
				t.Fatalf("push %d: %v", next, err)
			}
			next++
		}
	}
	pop := func(k int) {
		for range k {
			m, ok := q.tryPop()
			if !ok || m.index != want {
				t.Fatalf("popped %+v (%v), want index %d", m, ok, want)
			}
			want++
		}
	}
	// Wrap the first ring, then grow it while its head is in the middle.
	push(queueStart - 2)
	pop(queueStart - 3)
	push(3 * queueStart)
	pop(queueStart)
	push(maxN - q.len())
	if len(q.items) != maxN {
		t.Errorf("ring of %d, want it grown to %d", len(q.items), maxN)
	}
	if err := q.push(msg{}, nil, 20*time.Millisecond, never); !errors.Is(err, errStalled) {
		t.Errorf("push %d = %v, want errStalled", maxN+1, err)
	}
	pop(int(next - want))
	if q.len() != 0 {
		t.Errorf("%d left", q.len())
	}
}
