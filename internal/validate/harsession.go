package validate

import (
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/sessionize"
)

// harSessions ties the connections of a HAR file into logical sessions.
// A HAR file records no session, so the dialect's sessionizer (the one the
// proxy runs live: a welcome's session id, mitto's connected, myagent's
// session_created, resume hints) reads the connections' frames in the order
// the file gives them and adds the session lines the proxy would have
// recorded: a page refresh is one session, two unrelated tabs are two.
type harSessions struct {
	sz    *sessionize.Sessionizer
	conns map[string]*sessionize.Conn
}

func newHARSessions(dialectName string) *harSessions {
	return &harSessions{sz: sessionize.New(dialectName), conns: map[string]*sessionize.Conn{}}
}

// line hands on l, marked with what the sessionizer knows, and the session
// line of a binding it made, in the order the proxy records them.
func (h *harSessions) line(l recording.Line, emit func(recording.Line)) {
	switch l.Kind {
	case recording.KindOpen:
		if _, dup := h.conns[l.Conn]; dup {
			break
		}
		c := &sessionize.Conn{ID: l.Conn}
		h.conns[l.Conn] = c
		if s, ok := h.sz.AtOpen(c, l.URL); ok {
			h.sz.Joined(c)
			l.Session = s
		} else {
			l.Pending = true
		}
	case recording.KindFrame:
		c := h.conns[l.Conn]
		if c == nil {
			break
		}
		l.Session = c.Session
		emit(l)
		if c.Session != "" || c.Closed {
			return
		}
		f, err := l.Frame()
		if err != nil {
			return
		}
		if s, ok := h.sz.Frame(c, f.Dir, f.Op, f.Payload); ok {
			emit(h.bound(c, s, l))
		}
		return
	case recording.KindHTTP:
		l.Session = h.sz.Shared()
	case recording.KindClose:
		c := h.conns[l.Conn]
		if c == nil {
			break
		}
		if c.Session == "" {
			emit(h.bound(c, h.sz.GiveUp(c), l))
		}
		h.sz.Closed(c)
		l.Session = c.Session
		delete(h.conns, l.Conn)
	}
	emit(l)
}

func (h *harSessions) bound(c *sessionize.Conn, session string, at recording.Line) recording.Line {
	parent := h.sz.Parent(c)
	h.sz.Joined(c)
	return recording.Line{Kind: recording.KindSession, Conn: c.ID, Session: session, Parent: parent, Time: at.Time}
}
