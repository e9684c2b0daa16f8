package check

import (
	"fmt"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// Options tune a Session. The zero value is ready to use.
type Options struct {
	Limits
	// ReplayWindow bounds how many past events a session remembers to judge
	// replays against, so memory follows the window, not the session's
	// length. Replays of older events cannot be compared and are not
	// reported. Default 10000.
	ReplayWindow int
}

// DefaultReplayWindow is the number of events kept for replay comparison.
const DefaultReplayWindow = 10000

// Session judges the frames of one logical session: every connection of
// one minicodex session_id, of one mitto session, of one hostd host and the
// apps watching its runs. Feed it every frame in order; it is not safe for
// concurrent use (a feeder owns it, as the proxy's per-session validator
// goroutine does).
type Session struct {
	d     *dialect.Dialect
	lim   Limits
	rules ruleSet
	conns map[string]*connState
	// once holds the findings of Once rules already reported, by rule,
	// message type and generic pointer.
	once map[string]bool
}

// connState is what the session knows of one connection's ends: which
// side sent its close frame. A connection ends for the rules when both
// sides closed, or when the feeder says it ended (Closed): the peer may
// legitimately send until its own close frame, and those frames belong to
// the connection's state.
type connState struct {
	closed map[wire.Direction]bool
}

// ruleSet is the stateful part of a dialect: sequence, replay and state
// rules. It sees only messages that decoded to a known type.
type ruleSet interface {
	opened(conn, url string)
	observe(m *message) []Finding
	closed(conn string)
}

// unknownObserver is a ruleSet that also wants to hear of messages of a
// type its spec does not define (hostd: a newer app's request naming a
// run). It judges nothing on them.
type unknownObserver interface {
	unknown(m *message)
}

// NewSession starts a session of dialect d.
func NewSession(d *dialect.Dialect, opts Options) *Session {
	if opts.ReplayWindow <= 0 {
		opts.ReplayWindow = DefaultReplayWindow
	}
	return &Session{
		d:     d,
		lim:   opts.Limits.orDefault(),
		rules: ruleSetOf(d, opts),
		conns: map[string]*connState{},
		once:  map[string]bool{},
	}
}

// Dialect is the dialect the session judges.
func (s *Session) Dialect() *dialect.Dialect { return s.d }

// Observe judges one frame in the context of every frame before it and
// returns the findings it makes, in the order the rules fired. The session
// keeps f.Payload, not a copy, for as long as its replay window remembers
// the frame's events: the caller must not change it afterwards.
func (s *Session) Observe(f wire.Frame) []Finding {
	return s.observe(f, nil)
}

func (s *Session) observe(f wire.Frame, j *Judged) []Finding {
	st, ok := s.conns[f.Conn]
	if !ok {
		st = &connState{closed: map[wire.Direction]bool{}}
		s.conns[f.Conn] = st
		s.rules.opened(f.Conn, f.URL)
	}
	if f.Op == wire.OpClose {
		st.closed[f.Dir] = true
		if st.closed[wire.ClientToServer] && st.closed[wire.ServerToClient] {
			s.Closed(f.Conn)
		}
		return nil
	}
	if st.closed[f.Dir] && (f.Op == wire.OpText || f.Op == wire.OpBinary) {
		return []Finding{afterClose(f)}
	}
	m, out := s.judged(f, j)
	if m != nil && m.Known {
		out = append(out, s.rules.observe(m)...)
	} else if u, ok := s.rules.(unknownObserver); ok && m != nil {
		u.unknown(m)
	}
	for i := range out {
		out[i].Dir = f.Dir
	}
	return s.dedupe(out)
}

// dedupe drops the findings of Once rules this session already reported:
// one optional member sent as null is one reading, not a fault per frame.
func (s *Session) dedupe(fs []Finding) []Finding {
	out := fs[:0]
	for _, f := range fs {
		if r, ok := registry[f.Rule]; ok && r.Once != "" {
			key := r.Once.key(f)
			if s.once[key] {
				continue
			}
			s.once[key] = true
		}
		out = append(out, f)
	}
	return out
}

// Closed tells the session a connection ended (with or without a close
// frame); rules that track per-connection state forget it.
func (s *Session) Closed(conn string) {
	if _, ok := s.conns[conn]; ok {
		delete(s.conns, conn)
		s.rules.closed(conn)
	}
}

// afterClose reports a data frame its sender sent after its close frame;
// the frame is not judged further (the peer must not act on it).
func afterClose(f wire.Frame) Finding {
	side := "client"
	if f.Dir == wire.ServerToClient {
		side = "server"
	}
	return Finding{Rule: ruleAfterClose.ID, Severity: ruleAfterClose.Severity, Spec: ruleAfterClose.Spec,
		Message:  fmt.Sprintf("the %s sent a data frame after its own close frame", side),
		Expected: "no data frame after close", Actual: fmt.Sprintf("%s frame of %d bytes", f.Op, len(f.Payload)),
		Conn: f.Conn, Dir: f.Dir, Frame: f.Index}
}

// ruleSets maps a dialect to the constructor of its stateful rules; each
// dialect file registers itself, so dialects never touch each other's code.
var ruleSets = map[string]func(Options) ruleSet{}

func registerRuleSet(name string, make func(Options) ruleSet) bool {
	ruleSets[name] = make
	return true
}

// ruleSetOf picks a dialect's stateful rules: its own, the built-in set an
// imported protocol names (RuleSet), or the generic protocol rules.
func ruleSetOf(d *dialect.Dialect, opts Options) ruleSet {
	name := d.Dialect
	if d.RuleSet != "" {
		name = d.RuleSet
	}
	if _, ok := ruleSets[name]; !ok && dialect.Imported(d.Dialect) {
		return newProtocolSet(d, opts)
	}
	return newRuleSet(name, opts)
}

func newRuleSet(name string, opts Options) ruleSet {
	if make, ok := ruleSets[name]; ok {
		return make(opts)
	}
	return noRules{}
}

// noRules is the rule set of a dialect without stateful rules.
type noRules struct{}

func (noRules) opened(string, string)      {}
func (noRules) observe(*message) []Finding { return nil }
func (noRules) closed(string)              {}
