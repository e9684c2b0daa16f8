package proxy

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/internal/wire"
)

// Judge only the protocol. Real apps open other WebSockets beside the
// agent's (a notifications socket, a dev server's hot reload): judged as
// the dialect they would flood the report with false alarms. A connection
// is judged when
//   - --path globs are given: its path matches one;
//   - else: its path is one the dialect's spec documents (/ws, /ws/app, …),
//     or one of its first gateFrames data frames is a message of the
//     dialect (a type the dialect defines for that direction, passing its
//     schema).
//
// Any other connection is relayed and recorded but not judged, and the
// report says so once per path with the reason. While the gate looks, a
// connection's events are held (at most gateFrames data frames) and then
// judged in their order.

// gate is a connection's state in the validator.
type gate int

const (
	gatePending gate = iota
	gateJudged
	gateUnjudged
)

// gateFrames is how many data frames the gate looks at.
const gateFrames = 4

// unjudgedPath is what the report says about one path's unjudged
// connections.
type unjudgedPath struct {
	path   string
	conns  []string
	more   int
	reason string
}

// route passes a connection event through the gate; the dialect is known.
func (v *validator) route(ev event) {
	switch ev.kind {
	case evOpen, evFrame, evBind, evClose:
	default:
		return
	}
	cl := v.conn(ev.c)
	if v.grouper == nil {
		v.apply(cl, ev) // nothing is judged; the report still lists the connection
		return
	}
	switch cl.gate {
	case gateJudged:
		v.apply(cl, ev)
		return
	case gateUnjudged:
		return
	}
	if ev.kind == evOpen {
		switch {
		case ev.c.unjudged:
			v.unjudge(cl, "outside --path "+strings.Join(v.p.cfg.Paths, ", "))
			return
		case len(v.p.cfg.Paths) > 0 || slices.Contains(v.d.Paths, cl.path):
			cl.gate = gateJudged
			v.apply(cl, ev)
			return
		}
	}
	cl.held = append(cl.held, ev)
	switch ev.kind {
	case evFrame:
		if ev.frame.Op != wire.OpText && ev.frame.Op != wire.OpBinary {
			return
		}
		cl.texts++
		if v.looksLikeDialect(cl, ev.frame) {
			v.release(cl)
		} else if cl.texts >= gateFrames {
			v.settle(cl)
		}
	case evClose:
		v.settle(cl)
	}
}

// looksLikeDialect reports whether f is a message of the dialect, and
// notes what it is for the reason.
func (v *validator) looksLikeDialect(cl *connLog, f wire.Frame) bool {
	if f.Op != wire.OpText {
		cl.note("[binary]")
		return false
	}
	typ, known, fs := check.Inspect(v.d, f, v.p.cfg.Check.Limits)
	switch {
	case typ == "":
		cl.note("(no type)")
		return false
	case !known:
		cl.note(typ)
		return false
	}
	for _, x := range fs {
		if x.Severity == check.Error && strings.HasPrefix(x.Rule, "schema.") {
			cl.note(typ + " without its required members")
			return false
		}
	}
	return true
}

// maxNotedType bounds a message type quoted in the reason: it comes from
// the peer, and the reason is written to the console, the recording's
// session line and the report.
const maxNotedType = 64

func (cl *connLog) note(t string) {
	if len(t) > maxNotedType {
		t = strings.ToValidUTF8(t[:maxNotedType], "") + "…"
	}
	if len(cl.types) < gateFrames && !slices.Contains(cl.types, t) {
		cl.types = append(cl.types, t)
	}
}

// settle decides a connection the gate could not decide by a frame: a
// connection that sent no data frame is judged (there is nothing to judge
// but its session), one whose frames were none of the dialect's is not.
func (v *validator) settle(cl *connLog) {
	if cl.texts == 0 {
		v.release(cl)
		return
	}
	n := cl.texts
	what := fmt.Sprintf("its first %d data frames are", n)
	if n == 1 {
		what = "its only data frame is"
	}
	v.unjudge(cl, fmt.Sprintf("%s not %s messages (%s)", what, v.dialectName, strings.Join(cl.types, ", ")))
}

// release judges a connection with what was held.
func (v *validator) release(cl *connLog) {
	cl.gate = gateJudged
	held := cl.held
	cl.held = nil
	for _, ev := range held {
		v.apply(cl, ev)
	}
}

// maxUnjudgedPaths bounds the paths the report lists as not judged; each
// lists at most maxUnjudgedConns connections.
const (
	maxUnjudgedPaths = 100
	maxUnjudgedConns = 10
)

// unjudge relays, records and logs a connection without judging it.
func (v *validator) unjudge(cl *connLog, reason string) {
	cl.gate, cl.held = gateUnjudged, nil
	if cl.session == "" && len(cl.waiting) > 0 {
		v.join(cl, cl.id, "") // the proxy's own findings still count
	}
	// the recording marks it too, so that `wsconform validate` does not judge it
	v.p.tap.mu.Lock()
	v.p.tap.record(func(w *recording.Writer) error { return w.Unjudged(cl.id, reason, time.Now()) })
	v.p.tap.mu.Unlock()
	text := fmt.Sprintf("%s not judged: not %s traffic: %s: %s", cl.id, v.dialectName, cl.path, reason)
	v.cons.note(event{kind: evNote, text: text, time: time.Now()})
	for _, u := range v.unjudged {
		if u.path == cl.path {
			if len(u.conns) < maxUnjudgedConns {
				u.conns = append(u.conns, cl.id)
			} else {
				u.more++
			}
			return
		}
	}
	if len(v.unjudged) < maxUnjudgedPaths {
		v.unjudged = append(v.unjudged, &unjudgedPath{path: cl.path, conns: []string{cl.id}, reason: reason})
	}
}

// unjudgedNotes are the report's lines about unjudged connections.
func (v *validator) unjudgedNotes() []string {
	var out []string
	for _, u := range v.unjudged {
		conns := strings.Join(u.conns, ", ")
		if u.more > 0 {
			conns += fmt.Sprintf(" and %d more", u.more)
		}
		out = append(out, fmt.Sprintf("not judged: not %s traffic: %s (%s; %s)", v.dialectName, u.path, conns, u.reason))
	}
	return out
}

// maxRefusedSessions bounds the sessions made of refusals; later
// refusals of new kinds are counted.
const maxRefusedSessions = 100

// refused files a refused handshake or HTTP request: one session per kind
// (handshake or method, path, status, and the origin the proxy refused), a
// finding per refusal; the report decides whether the session's verdict is
// error (sessionLog.verdict).
func (v *validator) refused(rf refusal, at time.Time) {
	kind := "refused"
	if rf.http {
		kind = "http " + rf.method
	}
	id := fmt.Sprintf("%s %s %d", kind, rf.path, rf.code)
	if rf.origin != "" {
		id += " origin " + originLabel(rf.origin)
	}
	if len(id) > 80 {
		id = id[:80]
	}
	s, ok := v.sessions[id]
	if !ok {
		if v.refusedSessions >= maxRefusedSessions {
			v.refusedDropped++
			return
		}
		v.refusedSessions++
		s = v.session(id)
	}
	if rf.fatal {
		s.fatal = true
	}
	if rf.resumes != "" && s.resumed == "" {
		s.resumed = rf.resumes
	}
	if rf.conn != "" {
		s.addConn(&connLog{id: rf.conn, url: rf.url, session: id, opened: at, closed: at, isOver: true,
			end: ending{code: 0, reason: rf.status, by: "refused"}})
	}
	v.addFinding(s, validate.Finding{Finding: refusedFinding(rf), Session: id})
}
