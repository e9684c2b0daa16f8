package reports

import (
	"sort"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// WireLimits bound the wire log kept per session, so that a report of a
// day-long recording stays readable and its memory bounded: the first Head
// frames, the last Tail frames and up to Marked frames that findings point
// at, each payload cut to Payload bytes.
type WireLimits struct {
	Head, Tail, Marked int
	Payload            int
}

// DefaultWireLimits keep every frame of an ordinary session (up to 1,400)
// and the start, the end and the offending frames of a long one.
var DefaultWireLimits = WireLimits{Head: 1000, Tail: 200, Marked: 200, Payload: 16 << 10}

// SessionBuilder collects the sessions of a proxy, gate or validate report
// as their connections open and close and their frames are judged. It is
// not safe for concurrent use.
type SessionBuilder struct {
	dialect, reason, source string
	limits                  WireLimits
	conns                   map[string]*connEntry
	connOrder               []string
	sessions                map[string]*sessionEntry
	order                   []string
}

type connEntry struct {
	c       Connection
	session string
}

type sessionEntry struct {
	id       string
	conns    []string
	findings []Finding
	total    int64
	log      frameKeeper
}

// NewSessionBuilder starts collecting the sessions of one dialect (chosen
// for reason) read from source (a file, or "" for live traffic).
// With zero limits it keeps no frame, only connections and findings.
func NewSessionBuilder(dialect, reason, source string, limits WireLimits) *SessionBuilder {
	return &SessionBuilder{dialect: dialect, reason: reason, source: source, limits: limits,
		conns: map[string]*connEntry{}, sessions: map[string]*sessionEntry{}}
}

// OpenConn registers a connection; it joins a session with Bind. A
// connection opened twice keeps its first registration.
func (b *SessionBuilder) OpenConn(conn, url string, t time.Time) {
	if _, ok := b.conns[conn]; ok {
		return
	}
	b.conns[conn] = &connEntry{c: Connection{ID: conn, URL: url, Opened: t}}
	b.connOrder = append(b.connOrder, conn)
}

// SetParent records that conn reconnects parent (reconnect lineage).
func (b *SessionBuilder) SetParent(conn, parent string) {
	if parent == "" || parent == conn {
		return
	}
	b.conn(conn, time.Time{}).c.Parent = parent
}

// Bind puts conn into session; the first binding wins.
func (b *SessionBuilder) Bind(conn, session string) {
	c := b.conn(conn, time.Time{})
	if c.session != "" || session == "" {
		return
	}
	c.session = session
	s := b.session(session)
	s.conns = append(s.conns, conn)
}

// CloseConn records how conn ended: the close code (1006 when the
// connection dropped without a close frame), reason and who closed.
func (b *SessionBuilder) CloseConn(conn string, t time.Time, code int, reason, by string) {
	c := b.conn(conn, t)
	c.c.Closed, c.c.CloseCode, c.c.CloseReason, c.c.CloseBy = t, code, reason, by
}

// Frame adds a judged frame of session with the findings it gave; typ and
// seq are the frame's type and ordering value (see Describe).
func (b *SessionBuilder) Frame(session string, f wire.Frame, typ, seq string, findings []Finding) {
	c := b.conn(f.Conn, f.Time)
	if c.session == "" {
		b.Bind(f.Conn, session)
	}
	c.c.Frames++
	s := b.session(session)
	s.total++
	if b.limits.Head > 0 || b.limits.Tail > 0 || b.limits.Marked > 0 {
		s.log.add(NewFrame(f, typ, seq, b.limits.Payload), len(findings) > 0, b.limits)
	}
	for _, x := range findings {
		x.Session = session
		s.findings = append(s.findings, x)
	}
}

// Finding adds a finding that no frame carried (made at a close, or at the
// end of the input).
func (b *SessionBuilder) Finding(session string, f Finding) {
	f.Session = session
	s := b.session(session)
	s.findings = append(s.findings, f)
}

// Sessions returns the sessions in the order they were first seen, each
// with its connections, findings, verdict and bounded wire log. A
// connection that never joined a session is a session of its own.
func (b *SessionBuilder) Sessions() []Session {
	for _, id := range b.connOrder {
		if b.conns[id].session == "" {
			b.Bind(id, id)
		}
	}
	out := make([]Session, 0, len(b.order))
	for _, id := range b.order {
		s := b.sessions[id]
		rs := Session{ID: id, Dialect: b.dialect, Reason: b.reason, Source: b.source,
			Findings: s.findings, Frames: s.log.frames(), FramesTotal: s.total, Conns: []Connection{}}
		for _, c := range s.conns {
			rs.Conns = append(rs.Conns, b.conns[c].c)
		}
		sort.SliceStable(rs.Conns, func(i, j int) bool { return rs.Conns[i].Opened.Before(rs.Conns[j].Opened) })
		rs.Verdict = FromFindings(checkFindings(s.findings))
		out = append(out, rs)
	}
	return out
}

func (b *SessionBuilder) conn(id string, t time.Time) *connEntry {
	if _, ok := b.conns[id]; !ok {
		b.OpenConn(id, "", t)
	}
	return b.conns[id]
}

func (b *SessionBuilder) session(id string) *sessionEntry {
	s, ok := b.sessions[id]
	if !ok {
		s = &sessionEntry{id: id}
		b.sessions[id] = s
		b.order = append(b.order, id)
	}
	return s
}

// frameKeeper keeps the first, the last and the marked frames of a session.
type frameKeeper struct {
	head, tail, marked []Frame
	next               int
}

func (l *frameKeeper) add(f Frame, marked bool, lim WireLimits) {
	switch {
	case len(l.head) < lim.Head:
		l.head = append(l.head, f)
		return
	case marked && len(l.marked) < lim.Marked:
		l.marked = append(l.marked, f)
	}
	if lim.Tail <= 0 {
		return
	}
	if len(l.tail) < lim.Tail {
		l.tail = append(l.tail, f)
		return
	}
	l.tail[l.next] = f
	l.next = (l.next + 1) % lim.Tail
}

// frames is the kept frames in index order, without repeats.
func (l *frameKeeper) frames() []Frame {
	all := make([]Frame, 0, len(l.head)+len(l.marked)+len(l.tail))
	all = append(append(append(all, l.head...), l.marked...), l.tail...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Index < all[j].Index })
	out := make([]Frame, 0, len(all))
	for _, f := range all {
		if n := len(out); n > 0 && out[n-1].Index == f.Index {
			continue
		}
		out = append(out, f)
	}
	return out
}
