package proxy

import (
	"fmt"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// validator is the one goroutine that judges what the tap queued. It owns
// the grouping of connections into sessions (validate.Grouper, the same
// code `wsconform validate` runs), every check.Session, the live console
// and the report's bookkeeping. Whatever it does, the relay does not wait
// for it: when it falls behind, the tap stops queueing frames and counts
// them instead.
type validator struct {
	p    *Proxy
	cons *liveConsole

	dialectName, dialectReason string
	d                          *dialect.Dialect
	decided                    bool
	grouper                    *validate.Grouper
	early                      []event
	earlyBytes                 int
	seqPath                    []string
	seqLabel                   string

	conns    map[string]*connLog
	connList []*connLog
	sessions map[string]*sessionLog
	order    []string

	findingsKept, findingsDropped int
	totals                        console.Counts
	frames                        int64
	errors                        []string
	errorsDropped                 int

	unjudged                        []*unjudgedPath
	refusedSessions, refusedDropped int

	// cur is the frame being handled and what peek found in it, so the
	// console and the wire log decode it once.
	cur struct {
		index    int64
		typ, seq string
	}

	// snap asks for a report of what was seen so far (Proxy.Snapshot).
	snap chan chan *reports.Report
	stop chan struct{}
	done chan struct{}
}

// connLog is what the report says about one connection. It holds no
// reference to the conn, whose sockets and buffers must be freed when it
// ends.
type connLog struct {
	id      string
	url     string
	session string
	parent  string
	opened  time.Time
	closed  time.Time
	end     ending
	isOver  bool
	frames  int64
	gap     int             // frames not checked, not reported yet
	waiting []check.Finding // relay findings made before the session was known

	// gate says whether the connection is judged as the dialect (see
	// route); held are its events while that is not known yet.
	gate  gate
	held  []event
	texts int      // data frames looked at by the gate
	types []string // their message types, for the reason
	path  string
}

func newValidator(p *Proxy) *validator {
	v := &validator{p: p, conns: map[string]*connLog{}, sessions: map[string]*sessionLog{},
		snap: make(chan chan *reports.Report), stop: make(chan struct{}), done: make(chan struct{})}
	v.cons = newLiveConsole(p.cfg.Console, p.cfg.Quiet, p.cfg.Color)
	if p.cfg.Dialect != "" {
		v.decide(p.cfg.Dialect, "--dialect "+p.cfg.Dialect)
		v.liveDialect()
	}
	return v
}

// pollInterval is how long the validator lets events accumulate between
// batches while traffic flows. Waking it for every frame would cost the
// relay a scheduler wake-up (a futex call) per frame; polling moves that
// cost off the relay path, for at most this much delay on the console.
const pollInterval = time.Millisecond

// run takes batches from the tap until finish. It sleeps on the tap's wake
// channel only when there is nothing to do, and polls while busy.
func (v *validator) run() {
	defer close(v.done)
	var batch []event
	poll := time.NewTimer(pollInterval)
	defer poll.Stop()
	for {
		select {
		case <-v.p.tap.wake:
		case reply := <-v.snap:
			reply <- v.snapshot()
			continue
		case <-v.stop:
			v.handleBatch(v.p.tap.take(batch))
			v.end()
			v.cons.flush()
			return
		}
		for {
			batch = v.p.tap.take(batch)
			if len(batch) == 0 {
				break
			}
			batch = v.handleBatch(batch)
			v.cons.flush()
			poll.Reset(pollInterval)
			select {
			case <-poll.C:
			case reply := <-v.snap:
				reply <- v.snapshot()
			case <-v.stop:
			}
		}
	}
}

func (v *validator) handleBatch(batch []event) []event {
	// Prejudged a window at a time: what the stateless rules decoded lives
	// until its frame is judged, and a batch can hold the whole queue.
	for start := 0; start < len(batch); start += prejudgeWindow {
		w := batch[start:min(start+prejudgeWindow, len(batch))]
		v.prejudge(w)
		for i := range w {
			v.handle(w[i])
			w[i].judged = nil
		}
	}
	clear(batch) // drop payload references before the slice is reused
	return batch[:0]
}

// finish lets the validator judge everything queued and waits for it.
func (v *validator) finish() {
	close(v.stop)
	<-v.done
}

func (v *validator) handle(ev event) {
	var cl *connLog
	if ev.c != nil {
		cl = v.conn(ev.c)
	}
	switch ev.kind {
	case evOpen:
		cl.opened = ev.c.opened
		v.cons.open(ev, v.p.cfg.Faults)
	case evFrame:
		v.frames++
		v.peekFrame(ev.frame)
		v.cons.frame(ev.frame, v.cur.typ, v.seqLabel, v.cur.seq)
	case evBind:
		v.cons.bind(ev)
	case evClose:
		cl.closed, cl.end, cl.isOver, cl.frames = ev.time, ev.end, true, ev.count
		v.cons.closed(ev, cl.frames)
	case evDialect:
		v.cons.dialect(ev)
		if ev.dialect == "" {
			v.undetected(ev.reason)
		} else {
			v.decide(ev.dialect, "detected: "+ev.reason)
		}
	case evFinding:
		v.relayFinding(cl, *ev.finding)
	case evNote:
		v.cons.note(ev)
		if ev.isErr {
			v.addError(ev.text)
		}
	case evRefused:
		v.refused(*ev.refusal, ev.time)
	case evHTTP:
		if v.decided {
			v.judgeHTTP(ev)
		} else {
			v.early = append(v.early, ev) // judged once the dialect is known
		}
	}
	v.live(ev, cl)
	if ev.skipped > 0 && cl != nil {
		cl.gap += ev.skipped
	}
	v.feed(ev)
	if cl != nil && cl.gap > 0 && cl.session != "" {
		v.reportGap(cl, ev)
	}
}

// conn returns the log of a connection, creating it on first sight.
func (v *validator) conn(c *conn) *connLog {
	cl, ok := v.conns[c.id]
	if !ok {
		cl = &connLog{id: c.id, url: c.url, opened: c.opened, path: c.path}
		v.conns[c.id] = cl
		v.connList = append(v.connList, cl)
	}
	return cl
}

// join adds a connection to its session's log.
func (v *validator) join(cl *connLog, session, parent string) {
	if cl.session != "" {
		return
	}
	cl.session, cl.parent = session, parent
	v.liveSession(cl)
	s := v.session(session)
	s.addConn(cl)
	for _, f := range cl.waiting {
		v.addFinding(s, validate.Finding{Finding: f, Session: session})
	}
	cl.waiting = nil
}

func (v *validator) session(id string) *sessionLog {
	s, ok := v.sessions[id]
	if !ok {
		s = newSessionLog(id)
		v.sessions[id] = s
		v.order = append(v.order, id)
		if n := len(v.order) - maxLoggedSessions; n > 0 {
			v.sessions[v.order[n-1]].dropLog()
		}
	}
	return s
}

// feed hands an event to the grouper, or holds it while the dialect is
// still being detected.
func (v *validator) feed(ev event) {
	if !v.decided {
		switch ev.kind {
		case evFrame:
			// Held until the dialect is known, within the validation
			// queue's byte budget; beyond it a frame is not checked.
			if v.earlyBytes+len(ev.frame.Payload) > v.p.cfg.ValidationBytes {
				v.conn(ev.c).gap++
				return
			}
			v.earlyBytes += len(ev.frame.Payload)
			v.early = append(v.early, ev)
		case evOpen, evBind, evClose:
			v.early = append(v.early, ev)
		}
		return
	}
	v.route(ev)
}

// apply hands a connection's event to the report's bookkeeping (which
// session it joined) and to the grouper, which judges it.
func (v *validator) apply(cl *connLog, ev event) {
	switch ev.kind {
	case evOpen:
		if ev.session != "" {
			v.join(cl, ev.session, "")
		}
	case evBind:
		v.join(cl, ev.session, ev.parent)
	}
	if v.grouper == nil {
		return // the dialect could not be detected: nothing is judged
	}
	switch ev.kind {
	case evOpen:
		v.grouper.Open(ev.c.id, ev.c.url, ev.session)
	case evFrame:
		v.grouper.FrameJudged(ev.c.id, ev.frame, ev.judged)
	case evBind:
		v.grouper.Bind(ev.c.id, ev.session)
	case evClose:
		v.grouper.Close(ev.c.id)
	}
}

// decide fixes the dialect and judges what was held while detecting.
func (v *validator) decide(name, reason string) {
	d, err := dialect.Get(name)
	if err != nil {
		v.undetected(err.Error())
		return
	}
	v.d, v.dialectName, v.dialectReason, v.decided = d, name, reason, true
	v.seqPath = splitPointer(d.Ordering.Pointer)
	v.seqLabel = v.seqPath[len(v.seqPath)-1]
	v.grouper = validate.NewGrouper(d, validate.Options{Check: v.p.cfg.Check})
	v.grouper.Observed = v.observed
	v.grouper.ObservedHTTP = v.observedHTTP
	early := v.early
	v.early, v.earlyBytes = nil, 0
	for _, ev := range early {
		if ev.kind == evHTTP {
			v.judgeHTTP(ev)
			continue
		}
		v.feed(ev)
	}
}

// undetected gives up judging: frames are still relayed, logged and
// recorded, and the report says why nothing was checked.
func (v *validator) undetected(reason string) {
	v.decided, v.dialectReason = true, reason
	v.early = nil
	v.addError("dialect not detected, nothing was checked: " + reason +
		"; judge the recording with `wsconform validate --dialect NAME`")
}

// observed is the grouper's hook: a frame was judged in session.
func (v *validator) observed(session string, f wire.Frame, fs []validate.Finding) {
	s := v.session(session)
	typ, seq := v.cur.typ, v.cur.seq
	if f.Index != v.cur.index {
		typ, seq = v.describe(f)
	}
	s.log(f, typ, seq, len(fs) > 0)
	for _, x := range fs {
		v.addFinding(s, x)
	}
}

func (v *validator) peekFrame(f wire.Frame) {
	v.cur.index = f.Index
	v.cur.typ, v.cur.seq = v.describe(f)
}

// describe reads a frame's type and ordering value for the log.
func (v *validator) describe(f wire.Frame) (typ, seq string) {
	if f.Op != wire.OpText {
		return "", ""
	}
	if v.d != nil {
		typ, _ = peek(f.Payload, v.d.TypeField)
		seq, _ = peek(f.Payload, v.seqPath...)
		return typ, seq
	}
	if t, ok := peek(f.Payload, "type"); ok {
		return t, ""
	}
	typ, _ = peek(f.Payload, "event")
	return typ, ""
}

// relayFinding files a finding the relay made (a frame over the limit, a
// slow peer) with the connection's session, or holds it until the session
// is known.
func (v *validator) relayFinding(cl *connLog, f check.Finding) {
	if cl == nil {
		return
	}
	if cl.session == "" && cl.gate != gateUnjudged && (!v.decided || v.grouper != nil) {
		cl.waiting = append(cl.waiting, f)
		return
	}
	session := cl.session
	if session == "" {
		session = cl.id
		v.join(cl, session, "")
	}
	v.addFinding(v.session(session), validate.Finding{Finding: f, Session: session})
}

// reportGap turns the frames of a connection that were not checked into a
// proxy.validation-gap finding of its session.
func (v *validator) reportGap(cl *connLog, ev event) {
	frame := ev.frame.Index
	f := gapFinding(cl.id, frame, cl.gap)
	cl.gap = 0
	v.addFinding(v.session(cl.session), validate.Finding{Finding: f, Session: cl.session})
}

// addFinding keeps a finding for the report (up to MaxFindings), counts it
// and prints it.
func (v *validator) addFinding(s *sessionLog, f validate.Finding) {
	s.count(f.Finding)
	v.totals.Add(f.Severity)
	v.liveFinding(&reports.Finding{Finding: f.Finding, Session: f.Session})
	if v.findingsKept < v.p.cfg.MaxFindings {
		v.findingsKept++
		s.findings = append(s.findings, reports.Finding{Finding: f.Finding, Session: f.Session})
	} else {
		v.findingsDropped++
	}
	if show := v.p.cfg.ConsoleShows; show == nil || show(f.Finding) {
		first, repeat := s.repeatOf(f.Finding)
		v.cons.finding(f.Finding, f.Session, first, repeat)
	}
}

func (v *validator) addError(text string) {
	const maxErrors = 100
	if len(v.errors) < maxErrors {
		v.errors = append(v.errors, text)
		return
	}
	v.errorsDropped++
}

// end runs at shutdown, after the last event: connections that never
// named a session become sessions of their own and held frames are judged.
func (v *validator) end() {
	if !v.decided {
		// Still detecting when the proxy stopped: what was seen did not
		// decide it (nothing at all is not a failure).
		if v.frames > 0 {
			v.undetected("too few frames to tell the dialect")
		} else {
			v.decided = true
		}
	}
	for _, cl := range v.connList {
		if cl.gate == gatePending && len(cl.held) > 0 {
			v.settle(cl) // the proxy stopped while the gate still looked
		}
	}
	if v.grouper != nil {
		v.grouper.End()
	}
	for _, cl := range v.connList {
		if cl.session == "" && cl.gate != gateUnjudged {
			v.join(cl, cl.id, "")
		}
		if cl.gap > 0 {
			v.reportGap(cl, event{})
		}
	}
	if v.findingsDropped > 0 {
		v.addError(fmt.Sprintf("%d findings beyond the first %d were counted but not kept in the report", v.findingsDropped, v.p.cfg.MaxFindings))
	}
	if err := v.p.tap.recordingErr(); err != nil {
		v.addError("the recording is incomplete: " + err.Error())
	}
}
