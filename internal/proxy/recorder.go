package proxy

import (
	"sync"
	"time"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// recorder writes the recording on a goroutine of its own. Redacting a
// frame, encoding its line and writing it to the file cost more than
// relaying the frame; done by the reader under the tap's lock (as they
// were), they made every frame wait for them and a burst run at the
// speed of one flushed line per frame. The tap still orders the lines: it
// appends each to the recorder's queue under its lock, in the order it
// gives indexes and queues frames for the validator, so the file and the
// validator see the same sequence as before. The recorder writes what is
// queued in order and flushes the file whenever the queue is empty, so
// the file trails the relay by what is queued (at most maxRecordBytes of
// payload, and about pollInterval while traffic flows).
//
// The queue is bounded: a reader whose frame would bring it over
// maxRecordBytes waits (before it takes the tap's lock) until the
// recorder has taken what is queued, so a disk slower than the network
// slows the relay down as it did when each line was written in place.
type recorder struct {
	w *recording.Writer
	// failed is told the first error; nothing is written after it.
	failed func(error)

	mu       sync.Mutex
	jobs     []recJob
	bytes    int
	closed   bool
	sleeping bool
	room     *sync.Cond // broadcast when the recorder takes the queue
	wake     chan struct{}
	done     chan struct{}
}

// maxRecordBytes bounds the payload bytes queued for the recorder.
const maxRecordBytes = 4 << 20

// recJob is one line to write: a frame, or any other line (write).
type recJob struct {
	session string
	f       wire.Frame
	write   func(*recording.Writer) error
}

func newRecorder(w *recording.Writer, failed func(error)) *recorder {
	w.Batch()
	r := &recorder{w: w, failed: failed, wake: make(chan struct{}, 1), done: make(chan struct{})}
	r.room = sync.NewCond(&r.mu)
	return r
}

// waitRoom waits until the queue has room for n more payload bytes (one
// frame always fits in an empty queue).
func (r *recorder) waitRoom(n int) {
	r.mu.Lock()
	for r.bytes > 0 && r.bytes+n > maxRecordBytes && !r.closed {
		r.room.Wait()
	}
	r.mu.Unlock()
}

// push queues one line; the caller holds the tap's lock, which orders the
// lines. It never waits (waitRoom does, before the lock is taken).
func (r *recorder) push(j recJob) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.jobs = append(r.jobs, j)
	r.bytes += len(j.f.Payload)
	wake := r.sleeping
	r.sleeping = false
	r.mu.Unlock()
	if wake {
		signal(r.wake)
	}
}

// run writes what is queued until close. While lines keep coming it
// takes them every pollInterval rather than being woken for each (a
// wake-up is a system call on the relay's path); it sleeps only when the
// queue is empty.
func (r *recorder) run() {
	defer close(r.done)
	var batch []recJob
	var err error
	poll := time.NewTimer(pollInterval)
	defer poll.Stop()
	for {
		r.mu.Lock()
		if len(r.jobs) == 0 {
			if r.closed {
				r.mu.Unlock()
				return
			}
			r.sleeping = true
			r.mu.Unlock()
			<-r.wake
			continue
		}
		batch, r.jobs = r.jobs, batch[:0]
		r.bytes = 0
		r.room.Broadcast()
		r.mu.Unlock()
		for i := range batch {
			if err != nil {
				break
			}
			j := &batch[i]
			if j.write != nil {
				err = j.write(r.w)
			} else {
				err = r.w.Frame(j.session, j.f)
			}
		}
		clear(batch) // drop payload references before the slice is reused
		if err == nil && r.idle() {
			err = r.w.Flush()
		}
		if err != nil {
			r.fail(err)
			return
		}
		poll.Reset(pollInterval)
		<-poll.C
	}
}

// idle reports whether nothing is queued.
func (r *recorder) idle() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.jobs) == 0
}

// fail stops the recorder after an error: what is queued and what comes
// later is dropped, and the tap is told.
func (r *recorder) fail(err error) {
	r.mu.Lock()
	r.closed = true
	clear(r.jobs)
	r.jobs, r.bytes = nil, 0
	r.room.Broadcast()
	r.mu.Unlock()
	r.failed(err)
}

// sync waits until what is queued now is written and flushed (or the
// recorder has stopped).
func (r *recorder) sync() {
	flushed := make(chan struct{})
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.jobs = append(r.jobs, recJob{write: func(w *recording.Writer) error {
		defer close(flushed)
		return w.Flush()
	}})
	wake := r.sleeping
	r.sleeping = false
	r.mu.Unlock()
	if wake {
		signal(r.wake)
	}
	select {
	case <-flushed:
	case <-r.done:
	}
}

// close writes and flushes what is queued and stops the recorder.
func (r *recorder) close() {
	r.mu.Lock()
	r.closed = true
	r.room.Broadcast()
	r.mu.Unlock()
	signal(r.wake)
	<-r.done
}
