package proxy

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// recorder writes the recording. A frame's line is in the file before the
// frame reaches the other peer (after a kill -9 the recording holds every
// frame a peer got: TestRecordingSurvivesSIGKILL), but a burst must not
// cost a flushed line per frame: redacting a frame, encoding its line and
// writing it cost more than relaying it, and done by the reader under the
// tap's lock, one flushed line per frame, they set the pace of a burst.
//
// The tap orders the lines: it hands each over under its lock, in the
// order it gives indexes and queues frames for the validator, so the file
// and the validator see the same sequence. The first frame a reader takes
// from what it read at once is encoded in place when the recorder is idle
// (an interactive session's frame: no hand-off between goroutines); the
// others of a burst are queued for the recorder's goroutine, which encodes
// them on another core while the reader goes on reading. Lines are flushed
// to the file when someone needs them there: before a peer's connection
// delivers frames (legConn calls awaitFlushed), one flush per batch.
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
	writing  bool       // the goroutine encodes a batch it took
	room     *sync.Cond // broadcast when the recorder takes the queue
	// written is the index of the last frame whose line is encoded (in
	// the Writer's buffer or the file); flushed of the last one in the
	// file (or that never will be: the recorder stopped). flushedCond is
	// broadcast when flushed grows; waiters counts who waits for it.
	written     int64
	dirty       bool // lines encoded since the last flush (frames or not)
	flushed     atomic.Int64
	flushedCond *sync.Cond
	waiters     int
	wake        chan struct{}
	done        chan struct{}
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
	r.flushedCond = sync.NewCond(&r.mu)
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

// push hands over one line; the caller holds the tap's lock, which orders
// the lines. inPlace asks for it to be encoded now when the recorder is
// idle; else it is queued. push waits for nothing (waitRoom waits for
// room, before the lock is taken).
func (r *recorder) push(j recJob, inPlace bool) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	if inPlace && len(r.jobs) == 0 && !r.writing {
		err := j.do(r.w)
		if err != nil {
			r.mu.Unlock()
			r.fail(err)
			return
		}
		r.written, r.dirty = max(r.written, j.f.Index), true
		r.mu.Unlock()
		return
	}
	r.jobs = append(r.jobs, j)
	r.bytes += len(j.f.Payload)
	wake := r.sleeping || r.waiters > 0
	r.sleeping = false
	r.mu.Unlock()
	if wake {
		signal(r.wake)
	}
}

// run encodes what is queued until close. While lines keep coming and
// nobody waits for them it takes them every pollInterval rather than being
// woken for each (a wake-up is a system call on the relay's path); it
// sleeps when the queue is empty.
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
				if err := r.flushLocked(); err != nil {
					r.mu.Unlock()
					r.fail(err)
					return
				}
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
		r.writing = true
		r.room.Broadcast()
		r.mu.Unlock()
		var last int64
		for i := range batch {
			if err != nil {
				break
			}
			err = batch[i].do(r.w)
			last = max(last, batch[i].f.Index)
		}
		clear(batch) // drop payload references before the slice is reused
		r.mu.Lock()
		r.writing = false
		r.written, r.dirty = max(r.written, last), true
		if err == nil && (r.waiters > 0 || len(r.jobs) == 0) {
			err = r.flushLocked()
		}
		waiting := r.waiters > 0
		if waiting {
			r.flushedCond.Broadcast() // sync waits for an empty queue
		}
		r.mu.Unlock()
		if err != nil {
			r.fail(err)
			return
		}
		if !waiting {
			// Nobody waits for these lines: let more gather rather than
			// taking them one by one, until someone waits for them.
			poll.Reset(pollInterval)
			select {
			case <-poll.C:
			case <-r.wake:
				if !poll.Stop() {
					<-poll.C
				}
			}
		}
	}
}

// flushLocked writes the encoded lines to the file; the caller holds mu.
// Lines that are not frames (open, session, close) carry no index: dirty,
// not written, says whether anything waits in the buffer, or the close
// lines of a shutdown, the last lines, stayed there
// (TestRecorderFlushesLinesWithoutFrames).
func (r *recorder) flushLocked() error {
	if !r.dirty {
		return nil
	}
	if err := r.w.Flush(); err != nil {
		return err
	}
	r.dirty = false
	r.flushed.Store(r.written)
	if r.waiters > 0 {
		r.flushedCond.Broadcast()
	}
	return nil
}

// do writes the line.
func (j *recJob) do(w *recording.Writer) error {
	if j.write != nil {
		return j.write(w)
	}
	return w.Frame(j.session, j.f)
}

// tryFlushed reports whether the line of frame index is in the file,
// flushing it there when it is encoded and the recorder is not busy.
func (r *recorder) tryFlushed(index int64) bool {
	if r.flushed.Load() >= index {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.flushedNowLocked(index)
}

func (r *recorder) flushedNowLocked(index int64) bool {
	if r.flushed.Load() >= index || r.closed {
		return true
	}
	if r.written < index || r.writing {
		return false
	}
	if err := r.flushLocked(); err != nil {
		r.closed = true // fail, below, reports it
		go r.fail(err)
		return true
	}
	return true
}

// awaitFlushed waits until the line of frame index is in the file, or the
// recorder has stopped.
func (r *recorder) awaitFlushed(index int64) {
	if r.flushed.Load() >= index {
		return
	}
	r.mu.Lock()
	r.waiters++
	for !r.flushedNowLocked(index) {
		r.sleeping = false
		signal(r.wake) // asleep, or letting lines gather: encode them now
		r.flushedCond.Wait()
	}
	r.waiters--
	r.mu.Unlock()
}

// fail stops the recorder after an error: what is queued and what comes
// later is dropped, and the tap is told.
func (r *recorder) fail(err error) {
	r.mu.Lock()
	r.closed = true
	clear(r.jobs)
	r.jobs, r.bytes = nil, 0
	r.room.Broadcast()
	r.flushedCond.Broadcast()
	r.mu.Unlock()
	r.failed(err)
}

// sync waits until what is handed over now is in the file (or the
// recorder has stopped).
func (r *recorder) sync() {
	r.mu.Lock()
	r.waiters++
	for {
		if r.closed || len(r.jobs) == 0 && !r.writing {
			if !r.closed {
				if err := r.flushLocked(); err != nil {
					r.closed = true
					go r.fail(err)
				}
			}
			break
		}
		r.sleeping = false
		signal(r.wake)
		r.flushedCond.Wait()
	}
	r.waiters--
	r.mu.Unlock()
}

// close encodes and flushes what is queued and stops the recorder.
func (r *recorder) close() {
	r.mu.Lock()
	r.closed = true
	r.room.Broadcast()
	r.flushedCond.Broadcast()
	r.mu.Unlock()
	signal(r.wake)
	<-r.done
}
