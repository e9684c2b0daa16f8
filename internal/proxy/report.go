package proxy

import (
	"fmt"
	"sort"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// The wire log of a session in the report is bounded whatever the
// session's length: its first wireHead frames, its last wireTail frames,
// and up to wireMarked frames that findings point at, each payload cut to
// wirePayload bytes.
const (
	wireHead    = 20
	wireTail    = 20
	wireMarked  = 100
	wirePayload = 4 << 10
	// maxConnsPerSession bounds the connections a report lists per
	// session (a client reconnecting in a loop all day).
	maxConnsPerSession = 1000
	// maxLoggedSessions bounds the sessions that keep a wire log: when a
	// proxy has seen more (coworker makes a session per connection), the
	// oldest sessions' wire logs are dropped; their connections, findings
	// and verdicts stay.
	maxLoggedSessions = 1000
)

// logFrame is a frame kept for the wire log; size is the payload's size
// before it was cut.
type logFrame struct {
	f        wire.Frame
	typ, seq string
	size     int
}

// sessionLog is what the report says about one logical session.
type sessionLog struct {
	id        string
	conns     []*connLog
	moreConns int
	findings  []reports.Finding
	worst     check.Severity
	any       bool
	// printed maps each distinct problem (reports.ProblemKey: grouped as
	// the reports' root causes are) to the frame of its
	// first finding in the session: the console prints that one in full,
	// a repeat in one line that points back at it.
	printed map[string]int64

	head   []logFrame
	tail   []logFrame // ring of the last wireTail frames
	next   int
	marked []logFrame
	// unlogged is set once the wire log was dropped (maxLoggedSessions).
	unlogged bool
	// fatal is set on a session of refusals when one of them left nothing
	// tested (refusal.fatal); resumed names a judged session one of them
	// asked to continue. See verdict.
	fatal   bool
	resumed string
}

// dropLog frees the wire log; later frames are not logged either.
func (s *sessionLog) dropLog() {
	s.head, s.tail, s.marked, s.unlogged = nil, nil, nil, true
}

func newSessionLog(id string) *sessionLog {
	return &sessionLog{id: id, printed: map[string]int64{}}
}

func (s *sessionLog) addConn(cl *connLog) {
	if len(s.conns) < maxConnsPerSession {
		s.conns = append(s.conns, cl)
		return
	}
	s.moreConns++
}

// count notes a finding's severity for the verdict, kept or not.
func (s *sessionLog) count(f check.Finding) {
	if !s.any || f.Severity > s.worst {
		s.worst, s.any = f.Severity, true
	}
}

// repeatOf reports whether the session's console already showed f's
// problem (reports.ProblemKey), and the frame where it first did.
func (s *sessionLog) repeatOf(f check.Finding) (first int64, repeat bool) {
	k := reports.ProblemKey(f)
	if first, ok := s.printed[k]; ok {
		return first, true
	}
	s.printed[k] = f.Frame
	return f.Frame, false
}

// log keeps a judged frame for the wire log if it is among the first,
// the last, or one a finding points at.
func (s *sessionLog) log(f wire.Frame, typ, seq string, marked bool) {
	if s.unlogged {
		return
	}
	size := len(f.Payload)
	if size > wirePayload {
		// Keep a copy of the start only (a few bytes more than the report
		// shows, so that NewFrame cuts it on a character boundary): the
		// wire log must not pin a 16 MiB frame.
		f.Payload = append([]byte(nil), f.Payload[:wirePayload+8]...)
	}
	lf := logFrame{f: f, typ: typ, seq: seq, size: size}
	switch {
	case len(s.head) < wireHead:
		s.head = append(s.head, lf)
		return
	case marked && len(s.marked) < wireMarked:
		s.marked = append(s.marked, lf)
	}
	if len(s.tail) < wireTail {
		s.tail = append(s.tail, lf)
		return
	}
	s.tail[s.next] = lf
	s.next = (s.next + 1) % wireTail
}

// frames is the wire log in frame order, without repeats.
func (s *sessionLog) frames() []reports.Frame {
	all := append(append(append([]logFrame(nil), s.head...), s.marked...), s.tail...)
	sort.Slice(all, func(i, j int) bool { return all[i].f.Index < all[j].f.Index })
	out := make([]reports.Frame, 0, len(all))
	var last int64 = -1
	for _, lf := range all {
		if lf.f.Index == last {
			continue
		}
		last = lf.f.Index
		rf := reports.NewFrame(lf.f, lf.typ, lf.seq, wirePayload)
		rf.Size = lf.size
		out = append(out, rf)
	}
	return out
}

// verdict is the session's verdict; judged says whether the run judged
// any connection. A session of refused handshakes (or failed requests) is
// an error of the run, nothing tested, only when nothing was judged or
// when a refused handshake was a reconnection of a judged session (its
// resumption was not tested). Next to judged sessions a stray refusal (an
// old tab, a page of another origin) is a warning like any other: its
// session is non-strict and the run keeps the verdict of what was judged.
func (s *sessionLog) verdict(judged bool) reports.Verdict {
	switch {
	case s.fatal && (!judged || s.resumed != ""):
		return reports.Error
	case !s.any:
		return reports.Passed
	case s.worst == check.Error:
		return reports.Failed
	case s.worst == check.Warning:
		return reports.NonStrict
	}
	return reports.Passed
}

// report builds the report; the validator has finished.
func (v *validator) report() *reports.Report {
	p := v.p
	r := reports.New(reports.KindProxy, p.cfg.Tool, p.started)
	r.Finished = time.Now()
	r.Targets = []reports.Target{{Name: "upstream", URL: p.up.String()}}
	r.Dialects = []string{}
	if v.dialectName != "" {
		r.Dialects = []string{v.dialectName}
	}
	judged := v.judgedAny()
	for _, id := range v.order {
		s := v.sessions[id]
		rs := reports.Session{ID: id, Dialect: v.dialectName, Reason: v.dialectReason, Verdict: s.verdict(judged),
			Findings: s.findings, Frames: s.frames()}
		for _, cl := range s.conns {
			rs.Conns = append(rs.Conns, cl.connection())
			rs.FramesTotal += cl.frames
		}
		r.Sessions = append(r.Sessions, rs)
	}
	r.Errors = append([]string(nil), v.errors...)
	if v.errorsDropped > 0 {
		r.Errors = append(r.Errors, fmt.Sprintf("%d more errors not listed", v.errorsDropped))
	}
	if len(v.connList) == 0 {
		// Nothing was tested: that is never a pass.
		msg := "no WebSocket connection was made"
		if v.refusedSessions > 0 {
			msg += ": every handshake was refused or failed (see the proxy.upstream-refused findings)"
		}
		r.Errors = append(r.Errors, msg)
	}
	if v.refusedDropped > 0 {
		r.Errors = append(r.Errors, fmt.Sprintf("%d more refused handshakes or requests of other kinds not listed", v.refusedDropped))
	}
	r.Notes = append(r.Notes, v.unjudgedNotes()...)
	r.Tally()
	return r
}

// judgedAny reports whether any connection was judged as the dialect.
func (v *validator) judgedAny() bool {
	if v.grouper == nil {
		return false
	}
	for _, cl := range v.connList {
		if cl.gate == gateJudged {
			return true
		}
	}
	return false
}

func (cl *connLog) connection() reports.Connection {
	c := reports.Connection{ID: cl.id, Parent: cl.parent, URL: redact(cl.url), Opened: cl.opened, Frames: cl.frames}
	if cl.isOver {
		c.Closed, c.CloseCode, c.CloseReason, c.CloseBy = cl.closed, cl.end.code, cl.end.reason, cl.end.by
	}
	return c
}
