package proxy

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/detect"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/sessionize"
	"github.com/wsconform/wsconform/internal/wire"
)

// tap is the one ordering point of the proxy. Every frame a reader takes
// off a socket passes through it, under one lock, before it is relayed:
// it gets its index, its place in the recorder's queue (recorder.go), its
// session binding, and a place in the validator's queue. Because the file
// and the queue receive the same sequence, `wsconform validate` of the
// recording sees exactly what the live validator saw.
//
// Nothing in the tap waits for validation: the queue to the validator is
// bounded and frames beyond it are counted, not queued (connection events
// are always queued; there are a few per connection). The lock is held for
// an index and two appends; dialect detection (only with --dialect auto,
// on the first frames of the process) is the one slower step done under
// it.
type tap struct {
	mu sync.Mutex
	// rec writes the recording (nil: not recording, or stopped by an
	// error); recErr is that error.
	rec    *recorder
	recErr error
	index  int64

	// dialectName is "" until known; detecting is true while auto
	// detection still looks at frames.
	dialectName string
	detecting   bool
	det         detection
	sz          *sessionize.Sessionizer
	typeField   atomic.Pointer[string]

	events              []event
	queuedFrames        int
	queuedBytes         int
	maxFrames, maxBytes int
	wake                chan struct{}
	unchecked           int64
	lagging             atomic.Bool // the queue is more than half full
}

// detection is what auto-detection has seen so far.
type detection struct {
	urls   []string
	conns  []*conn
	sample []wire.Frame
	seen   int // data frames seen, sampled or not
}

// maxDetectFrames is how many data frames auto-detection looks at before
// it gives up and asks for --dialect; frames over maxSampleBytes count but
// are not kept for it (no protocol announces itself in a megabyte).
const (
	maxDetectFrames = 64
	maxSampleBytes  = 64 << 10
)

// detectAt lists the sample sizes at which detection is tried, so that its
// cost stays a handful of attempts however long it takes.
var detectAt = map[int]bool{1: true, 2: true, 3: true, 4: true, 6: true, 8: true, 12: true, 16: true,
	24: true, 32: true, 48: true, maxDetectFrames: true}

func newTap(cfg Config, started time.Time) (*tap, error) {
	t := &tap{dialectName: cfg.Dialect, detecting: cfg.Dialect == "",
		maxFrames: cfg.ValidationFrames, maxBytes: cfg.ValidationBytes, wake: make(chan struct{}, 1)}
	if cfg.Dialect != "" {
		t.sz = sessionize.New(cfg.Dialect)
		t.setTypeField(cfg.Dialect)
	}
	if cfg.Record != nil {
		w, err := recording.NewWriter(cfg.Record, recording.Header{Dialect: cfg.Dialect, Tool: cfg.Tool, Started: started,
			HTTP: dialect.HasEndpoints(cfg.Dialect)})
		if err != nil {
			return nil, fmt.Errorf("start recording: %w", err)
		}
		t.rec = newRecorder(w, t.recordingFailed)
	}
	return t, nil
}

func (t *tap) setTypeField(name string) {
	if d, err := dialect.Get(name); err == nil {
		f := d.TypeField
		t.typeField.Store(&f)
	}
}

// open announces a connection.
func (t *tap) open(c *conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c.sc = sessionize.Conn{ID: c.id}
	var session string
	if t.sz != nil && !c.unjudged {
		session, _ = t.sz.AtOpen(&c.sc, c.url)
	}
	if session != "" {
		t.sz.Joined(&c.sc)
		t.record(func(w *recording.Writer) error { return w.Open(c.id, session, "", c.url, c.opened) })
	} else {
		t.record(func(w *recording.Writer) error { return w.OpenPending(c.id, c.url, c.opened) })
	}
	t.push(event{kind: evOpen, c: c, session: session, time: c.opened})
	if t.detecting && !c.unjudged {
		t.det.urls = append(t.det.urls, c.url)
		t.det.conns = append(t.det.conns, c)
		if t.tryDetect(c.opened, true) {
			t.sessionizeBacklog()
		}
	}
}

// frame takes one frame a reader received and returns it with its index
// and time. payload must not be modified afterwards. inPlace says the
// frame is the first of what its reader read at once (recorder.push).
func (t *tap) frame(c *conn, dir wire.Direction, op wire.Opcode, payload []byte, code int, inPlace bool) wire.Frame {
	if r := t.recorder(); r != nil {
		r.waitRoom(len(payload))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now() // under the lock: times follow indexes
	t.index++
	c.frames++
	f := wire.Frame{Conn: c.id, URL: c.url, Index: t.index, Dir: dir, Time: now, Op: op, Payload: payload, CloseCode: code}
	decided := false
	if t.detecting && !c.unjudged && (op == wire.OpText || op == wire.OpBinary) {
		t.det.seen++
		if len(payload) <= maxSampleBytes {
			t.det.sample = append(t.det.sample, f)
		}
		decided = t.tryDetect(now, false)
	}
	if t.rec != nil {
		t.rec.push(recJob{session: c.sc.Session, f: f}, inPlace)
	}
	t.pushFrame(c, f)
	switch {
	case decided:
		t.sessionizeBacklog()
	case t.sz != nil && c.sc.Session == "" && !c.sc.Closed && !c.unjudged:
		if s, ok := t.sz.Frame(&c.sc, dir, op, payload); ok {
			t.bound(c, s, now)
		}
	}
	return f
}

// finding queues a finding the relay made about a connection.
func (t *tap) finding(c *conn, f check.Finding) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.push(event{kind: evFinding, c: c, finding: &f, time: time.Now()})
}

// refused queues a refused handshake or HTTP request. A handshake the
// proxy did not refuse for its origin, whose URL names a session already
// seen (a reconnection), is marked as resuming it.
func (t *tap) refused(rf refusal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sz != nil && rf.target != "" && rf.origin == "" {
		rf.resumes, _ = t.sz.Named(rf.target)
	}
	rf.target = ""
	t.push(event{kind: evRefused, refusal: &rf, time: time.Now()})
}

// note queues a line for the console (and the report when it is an error).
func (t *tap) note(c *conn, text string, isErr bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.push(event{kind: evNote, c: c, text: text, isErr: isErr, time: time.Now()})
}

// closed records how a connection ended; a connection that never named
// its session is bound first (to its hint or to a session of its own).
func (t *tap) closed(c *conn, e ending) {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sz != nil && c.sc.Session == "" && !c.unjudged {
		t.bound(c, t.sz.GiveUp(&c.sc), now)
	}
	if t.sz != nil && !c.unjudged {
		t.sz.Closed(&c.sc)
	} else {
		c.sc.Closed = true
	}
	session := c.sc.Session
	t.record(func(w *recording.Writer) error { return w.Close(c.id, session, e.code, e.reason, e.by, now) })
	t.push(event{kind: evClose, c: c, end: e, count: c.frames, time: now})
}

// bound records a connection's session binding.
func (t *tap) bound(c *conn, session string, now time.Time) {
	parent := t.sz.Parent(&c.sc)
	t.sz.Joined(&c.sc)
	t.record(func(w *recording.Writer) error { return w.Session(c.id, session, parent, now) })
	t.push(event{kind: evBind, c: c, session: session, parent: parent, time: now})
}

// tryDetect runs auto-detection on what has been seen; it reports whether
// the dialect was decided now.
func (t *tap) tryDetect(now time.Time, atOpen bool) bool {
	n := t.det.seen
	if !atOpen && !detectAt[n] {
		return false
	}
	r, err := detect.Dialect(t.det.urls, t.det.sample)
	if err != nil {
		if n >= maxDetectFrames {
			t.detecting = false
			t.det = detection{}
			t.push(event{kind: evDialect, reason: err.Error(), time: now})
		}
		return false
	}
	t.detecting = false
	t.dialectName = r.Dialect
	t.setTypeField(r.Dialect)
	t.sz = sessionize.New(r.Dialect)
	t.record(func(w *recording.Writer) error { return w.Dialect(r.Dialect, r.Reason, now) })
	t.push(event{kind: evDialect, dialect: r.Dialect, reason: r.Reason, time: now})
	return true
}

// sessionizeBacklog binds the connections seen while the dialect was being
// detected, in the order they opened and sent frames.
func (t *tap) sessionizeBacklog() {
	now := time.Now()
	for _, c := range t.det.conns {
		if c.sc.Closed {
			// Judged as a session of its own (its close line came first):
			// keep its name out of the sessionizer's hands.
			t.sz.Reserve(c.id)
			continue
		}
		if s, ok := t.sz.AtOpen(&c.sc, c.url); ok {
			t.bound(c, s, now)
		}
	}
	for _, f := range t.det.sample {
		c := t.connOf(f.Conn)
		if c == nil || c.sc.Closed || c.sc.Session != "" {
			continue
		}
		if s, ok := t.sz.Frame(&c.sc, f.Dir, f.Op, f.Payload); ok {
			t.bound(c, s, now)
		}
	}
	t.det = detection{}
}

func (t *tap) connOf(id string) *conn {
	for _, c := range t.det.conns {
		if c.id == id {
			return c
		}
	}
	return nil
}

// record queues one recording line; the caller holds the lock.
func (t *tap) record(write func(*recording.Writer) error) {
	if t.rec != nil {
		t.rec.push(recJob{write: write}, false)
	}
}

// recorder is the recorder while the recording goes on.
func (t *tap) recorder() *recorder {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rec
}

// recordingFailed stops the recording at its first failure (a file with a
// hole would mislead) and reports it once.
func (t *tap) recordingFailed(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.recErr = err
	t.rec = nil
	t.push(event{kind: evNote, text: fmt.Sprintf("recording stopped: %v", err), isErr: true, time: time.Now()})
}

// syncRecording waits until what is queued for the recording is written
// and flushed: Shutdown calls it once every connection has ended, before
// the validator's last batch, so that a failure is in the report.
func (t *tap) syncRecording() {
	if r := t.recorder(); r != nil {
		r.sync()
	}
}

// stopRecording writes what is left (lines the validator's last batch
// added) and stops the recorder.
func (t *tap) stopRecording() {
	t.mu.Lock()
	r := t.rec
	t.mu.Unlock()
	if r != nil {
		r.close()
	}
}

// pushFrame queues a frame for the validator unless the queue is full; a
// skipped frame is counted on its connection and reported with the next
// event of that connection that gets through.
func (t *tap) pushFrame(c *conn, f wire.Frame) {
	if t.queuedFrames >= t.maxFrames || (t.queuedFrames > 0 && t.queuedBytes+len(f.Payload) > t.maxBytes) {
		c.skipped++
		t.unchecked++
		return
	}
	t.queuedFrames++
	t.queuedBytes += len(f.Payload)
	if !t.lagging.Load() && (t.queuedFrames > t.maxFrames/2 || t.queuedBytes > t.maxBytes/2) {
		t.lagging.Store(true)
	}
	t.push(event{kind: evFrame, c: c, frame: f, time: f.Time})
}

// push appends an event; the caller holds the lock.
func (t *tap) push(ev event) {
	if ev.c != nil {
		ev.skipped = ev.c.skipped
		ev.c.skipped = 0
	}
	t.events = append(t.events, ev)
	signal(t.wake)
}

// behind reports whether the validator's queue is more than half full:
// a reader then yields its core (it does not wait), so that on a busy
// machine the validator gets its turn before the queue overflows and
// frames go unchecked.
func (t *tap) behind() bool { return t.lagging.Load() }

// take hands the validator everything queued, giving back the slice of
// the previous batch for reuse.
func (t *tap) take(spare []event) []event {
	t.mu.Lock()
	defer t.mu.Unlock()
	batch := t.events
	t.events = spare[:0]
	t.queuedFrames, t.queuedBytes = 0, 0
	t.lagging.Store(false)
	return batch
}

// typeOf reads a message's type for faults that match by type: with the
// dialect's type field once it is known, else "type" then "event".
func (t *tap) typeOf(data []byte) string {
	if f := t.typeField.Load(); f != nil {
		v, _ := peek(data, *f)
		return v
	}
	if v, ok := peek(data, "type"); ok {
		return v
	}
	v, _ := peek(data, "event")
	return v
}

// recordingErr is the error that stopped the recording, if any.
func (t *tap) recordingErr() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.recErr
}

// uncheckedFrames counts frames relayed but never queued for validation.
func (t *tap) uncheckedFrames() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.unchecked
}
