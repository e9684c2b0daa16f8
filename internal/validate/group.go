package validate

import (
	"slices"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/sessionize"
	"github.com/wsconform/wsconform/internal/wire"
)

// Bounds of what a Grouper holds, so memory follows the number of live
// sessions and not the length of a recording.
const (
	// MaxIdleSessions is how many sessions without an open connection keep
	// their check state (their replay window) so that a later reconnection
	// is judged against it; past that the one idle longest is forgotten and
	// a reconnection to it starts afresh, unable to compare old replays.
	MaxIdleSessions = 256
	// maxPendingFrames and maxPendingBytes bound the frames held for a
	// connection whose session is not known yet. The proxy names the
	// session long before (it gives up after 64 frames or 1 MiB), so only a
	// hand-made file ever reaches them; the connection is then judged as a
	// session of its own.
	maxPendingFrames = 4096
	maxPendingBytes  = 64 << 20
)

// Grouper routes the frames of many connections to the check session of
// their logical session. It is the one place that decides grouping, shared
// by `wsconform validate` (lines of a file) and the live proxy (frames as
// they pass), so that a recording judged offline gives exactly the findings
// the proxy gave live.
//
// A connection is bound to its session when it opens, or it is pending: its
// frames are held, in order, until Bind names the session (a "session"
// line), and then judged in the order they arrived among the frames of
// every other pending connection. Binding takes effect at the next frame or
// close, so connections bound together (one after another, with no frame in
// between) release their held frames interleaved as they came.
//
// A Grouper is not safe for concurrent use; one goroutine owns it.
type Grouper struct {
	d        *dialect.Dialect
	opts     Options
	sessions map[string]*sessionState
	seen     map[string]bool
	conns    map[string]*connState
	pending  []pendingFrame
	dirty    bool
	idle     []string
	frames   int
	index    int64
	// exchanges counts the HTTP exchanges judged.
	exchanges int

	// Observed, when set, is called for every frame a check session judged,
	// with its findings (nil when it had none), in judging order.
	Observed func(session string, f wire.Frame, fs []Finding)
	// ObservedHTTP, when set, is called for every HTTP exchange a check
	// session judged, with its findings.
	ObservedHTTP func(session string, x wire.Exchange, fs []Finding)
	// Bound, when set, is called when a connection joins its logical
	// session: when it opens with one, when a session line or a frame
	// names it, or when a pending connection becomes a session of its own.
	Bound func(conn, session string)
}

type sessionState struct {
	check *check.Session
	open  int // connections bound to it and not closed
}

type connState struct {
	id, session    string
	url            string
	pending        bool
	closed         bool
	held, heldSize int
}

type pendingFrame struct {
	conn string
	f    wire.Frame
	j    *check.Judged
}

// Prepared is a frame line read ahead of its judging: its frame, and the
// stateless rules applied to it (check.Prejudge), by PrepareLine on any
// goroutine. File prepares lines on the cores that parse them.
type Prepared struct {
	f   wire.Frame
	err error
	j   *check.Judged
}

// PrepareLine prepares a frame line for LinePrepared (nil for other
// lines). It is safe for concurrent use.
func PrepareLine(d *dialect.Dialect, l recording.Line, lim check.Limits) *Prepared {
	if l.Kind != recording.KindFrame {
		return nil
	}
	f, err := l.Frame()
	if err != nil {
		return &Prepared{err: err}
	}
	return &Prepared{f: f, j: check.Prejudge(d, f, lim)}
}

// NewGrouper starts grouping frames of dialect d.
func NewGrouper(d *dialect.Dialect, opts Options) *Grouper {
	return &Grouper{d: d, opts: opts, sessions: map[string]*sessionState{}, seen: map[string]bool{},
		conns: map[string]*connState{}}
}

// Sessions is how many logical sessions the frames formed.
func (g *Grouper) Sessions() int { return len(g.seen) }

// Conns is how many connections were seen.
func (g *Grouper) Conns() int { return len(g.conns) }

// Frames is how many frames were routed.
func (g *Grouper) Frames() int { return g.frames }

// Line routes one recording line.
func (g *Grouper) Line(l recording.Line) []Finding {
	return g.LinePrepared(l, nil)
}

// LinePrepared is Line with the line's frame prepared by PrepareLine (p
// nil: prepared here). The findings are those Line gives.
func (g *Grouper) LinePrepared(l recording.Line, p *Prepared) []Finding {
	switch l.Kind {
	case recording.KindOpen:
		if _, known := g.conns[l.Conn]; known {
			return nil
		}
		if l.Pending && !g.opts.OneSession {
			g.Open(l.Conn, l.URL, "")
			return nil
		}
		g.Open(l.Conn, l.URL, g.sessionKey(l))
	case recording.KindSession:
		g.Bind(l.Conn, l.Session)
	case recording.KindClose:
		g.conn(l)
		return g.Close(l.Conn)
	case recording.KindHTTP:
		x, err := l.Exchange()
		if err != nil {
			return nil // Scan already reported the line
		}
		return g.HTTP(l.Session, x)
	case recording.KindFrame:
		if p == nil {
			p = &Prepared{}
			p.f, p.err = l.Frame()
		}
		if p.err != nil {
			return nil // Scan already reported the line
		}
		c := g.conn(l)
		if c.pending && l.Session != "" {
			// A frame line that names the session binds a pending
			// connection too, for recorders that write no session line.
			g.Bind(l.Conn, l.Session)
		}
		return g.frame(l.Conn, p.f, p.j)
	}
	return nil
}

// conn returns a line's connection, registering one that appears without
// an open line with the line's session (or as a session of its own).
func (g *Grouper) conn(l recording.Line) *connState {
	if c, ok := g.conns[l.Conn]; ok {
		return c
	}
	g.Open(l.Conn, l.URL, g.sessionKey(l))
	return g.conns[l.Conn]
}

func (g *Grouper) sessionKey(l recording.Line) string {
	switch {
	case g.opts.OneSession:
		return "all"
	case l.Session != "":
		return l.Session
	default:
		return l.Conn
	}
}

// Open registers a connection of session, or a pending one when session is
// empty. A connection opened twice keeps its first registration.
func (g *Grouper) Open(conn, url, session string) {
	if _, ok := g.conns[conn]; ok {
		return
	}
	if g.opts.OneSession {
		session = "all"
	}
	c := &connState{id: conn, url: url, pending: true}
	g.conns[conn] = c
	if session != "" {
		g.bind(c, session)
	}
}

// Bind names the session of a pending connection. A connection already
// bound keeps its session: the first binding wins.
func (g *Grouper) Bind(conn, session string) {
	c, ok := g.conns[conn]
	if !ok {
		g.Open(conn, "", "")
		c = g.conns[conn]
	}
	if !c.pending || session == "" || g.opts.OneSession {
		return
	}
	g.bind(c, session)
}

func (g *Grouper) bind(c *connState, session string) {
	c.pending, c.session = false, session
	if g.Bound != nil {
		g.Bound(c.id, session)
	}
	g.seen[session] = true
	s := g.sessions[session]
	if s == nil {
		s = &sessionState{check: check.NewSession(g.d, g.opts.Check)}
		g.sessions[session] = s
	}
	if s.open == 0 {
		g.idle = slices.DeleteFunc(g.idle, func(k string) bool { return k == session })
	}
	s.open++
	if c.held > 0 {
		g.dirty = true
	}
}

// Frame judges one frame of conn, or holds it while conn is pending. It
// returns the findings made now: on this frame, and on held frames that a
// binding released.
func (g *Grouper) Frame(conn string, f wire.Frame) []Finding {
	return g.frame(conn, f, nil)
}

// FrameJudged is Frame with the stateless rules already applied to f by
// check.Prejudge (j nil: applied here), on another goroutine: the proxy
// prejudges a batch of frames on every core before its validator judges
// them in order. The findings are those Frame gives.
func (g *Grouper) FrameJudged(conn string, f wire.Frame, j *check.Judged) []Finding {
	return g.frame(conn, f, j)
}

func (g *Grouper) frame(conn string, f wire.Frame, j *check.Judged) []Finding {
	out := g.release()
	c, ok := g.conns[conn]
	if !ok {
		g.Open(conn, f.URL, conn)
		c = g.conns[conn]
	}
	g.frames++
	g.index++
	if f.Index == 0 {
		f.Index = g.index
	}
	if f.URL == "" {
		f.URL = c.url
	}
	if !c.pending {
		return append(out, g.observe(c.session, f, j)...)
	}
	g.pending = append(g.pending, pendingFrame{conn: conn, f: f, j: j})
	c.held++
	c.heldSize += len(f.Payload)
	if c.held >= maxPendingFrames || c.heldSize >= maxPendingBytes {
		g.bind(c, conn)
		out = append(out, g.release()...)
	}
	return out
}

// HTTP judges one HTTP exchange of the protocol in session (the one the
// recorder tied it to; without one, the dialect's shared session, else a
// session of its own), at its place among the frames: frames held for
// pending connections that a binding released are judged first. An
// exchange that is none of the dialect's declared endpoints is skipped.
func (g *Grouper) HTTP(session string, x wire.Exchange) []Finding {
	out := g.release()
	g.index++
	if x.Index == 0 {
		x.Index = g.index
	}
	if _, _, ok := g.d.Endpoint(x.Method, x.Path); !ok {
		return out // not the protocol's (a HAR's other POSTs): nothing to judge
	}
	switch {
	case g.opts.OneSession:
		session = "all"
	case session == "":
		if session = sessionize.New(g.d.Dialect).Shared(); session == "" {
			session = x.ID
		}
	}
	g.exchanges++
	g.seen[session] = true
	s := g.sessions[session]
	if s == nil {
		s = &sessionState{check: check.NewSession(g.d, g.opts.Check)}
		g.sessions[session] = s
		g.idle = append(g.idle, session) // no connection holds it open
		if len(g.idle) > MaxIdleSessions {
			delete(g.sessions, g.idle[0])
			g.idle = g.idle[1:]
		}
	}
	fs := s.check.ObserveHTTP(x)
	var found []Finding
	for _, f := range fs {
		found = append(found, Finding{Finding: f, Session: session})
	}
	if g.ObservedHTTP != nil {
		g.ObservedHTTP(session, x, found)
	}
	return append(out, found...)
}

// Exchanges is how many HTTP exchanges were judged.
func (g *Grouper) Exchanges() int { return g.exchanges }

// Close ends a connection: a pending one becomes a session of its own and
// its held frames are judged; the session forgets the connection's state.
func (g *Grouper) Close(conn string) []Finding {
	out := g.release()
	c, ok := g.conns[conn]
	if !ok || c.closed {
		return out
	}
	if c.pending {
		g.bind(c, conn)
		out = append(out, g.release()...)
	}
	c.closed = true
	s := g.sessions[c.session]
	if s == nil {
		return out
	}
	s.check.Closed(conn)
	s.open--
	if s.open == 0 {
		g.idle = append(g.idle, c.session)
		if len(g.idle) > MaxIdleSessions {
			delete(g.sessions, g.idle[0])
			g.idle = g.idle[1:]
		}
	}
	return out
}

// End judges the frames still held at the end of the input: each pending
// connection becomes a session of its own.
func (g *Grouper) End() []Finding {
	out := g.release()
	for _, p := range g.pending {
		if c := g.conns[p.conn]; c.pending {
			g.bind(c, p.conn)
		}
	}
	return append(out, g.release()...)
}

// release judges, in arrival order, the held frames whose connection has
// been bound since.
func (g *Grouper) release() []Finding {
	if !g.dirty {
		return nil
	}
	g.dirty = false
	var out []Finding
	kept := g.pending[:0]
	for _, p := range g.pending {
		c := g.conns[p.conn]
		if c.pending {
			kept = append(kept, p)
			continue
		}
		c.held, c.heldSize = 0, 0
		out = append(out, g.observe(c.session, p.f, p.j)...)
	}
	clear(g.pending[len(kept):])
	g.pending = kept
	return out
}

func (g *Grouper) observe(session string, f wire.Frame, j *check.Judged) []Finding {
	s := g.sessions[session]
	if s == nil {
		// Evicted while idle and now seen again without a new binding
		// (a frame after its connection's close line): start afresh.
		s = &sessionState{check: check.NewSession(g.d, g.opts.Check)}
		g.sessions[session] = s
	}
	fs := s.check.ObserveJudged(f, j)
	var out []Finding
	if len(fs) > 0 {
		out = make([]Finding, len(fs))
		for i, x := range fs {
			out[i] = Finding{Finding: x, Session: session}
		}
	}
	if g.Observed != nil {
		g.Observed(session, f, out)
	}
	return out
}
