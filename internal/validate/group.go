package validate

import (
	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// grouper routes the lines of a file to the check session of their
// logical session, remembering each connection's URL and session.
type grouper struct {
	d        *dialect.Dialect
	opts     Options
	sessions map[string]*check.Session
	conns    map[string]connInfo
	frames   int
	index    int64
}

type connInfo struct {
	session, url string
}

func newGrouper(d *dialect.Dialect, opts Options) *grouper {
	return &grouper{d: d, opts: opts, sessions: map[string]*check.Session{}, conns: map[string]connInfo{}}
}

func (g *grouper) line(l recording.Line) []Finding {
	switch l.Kind {
	case recording.KindOpen:
		g.conns[l.Conn] = connInfo{session: g.sessionKey(l), url: l.URL}
	case recording.KindClose:
		info := g.conn(l)
		if s, ok := g.sessions[info.session]; ok {
			s.Closed(l.Conn)
		}
	case recording.KindFrame:
		f, err := l.Frame()
		if err != nil {
			return nil // Scan already reported the line
		}
		info := g.conn(l)
		g.frames++
		g.index++
		if f.Index == 0 {
			f.Index = g.index
		}
		if f.URL == "" {
			f.URL = info.url
		}
		return g.observe(info.session, f)
	}
	return nil
}

// conn returns what is known of a line's connection, registering one that
// appears without an open line.
func (g *grouper) conn(l recording.Line) connInfo {
	info, ok := g.conns[l.Conn]
	if !ok {
		info = connInfo{session: g.sessionKey(l), url: l.URL}
		g.conns[l.Conn] = info
	}
	return info
}

func (g *grouper) sessionKey(l recording.Line) string {
	switch {
	case g.opts.OneSession:
		return "all"
	case l.Session != "":
		return l.Session
	default:
		return l.Conn
	}
}

func (g *grouper) observe(session string, f wire.Frame) []Finding {
	s, ok := g.sessions[session]
	if !ok {
		s = check.NewSession(g.d, g.opts.Check)
		g.sessions[session] = s
	}
	fs := s.Observe(f)
	if len(fs) == 0 {
		return nil
	}
	out := make([]Finding, len(fs))
	for i, x := range fs {
		out[i] = Finding{Finding: x, Session: session}
	}
	return out
}
