package validate

import (
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/sessionize"
)

// prescan is what a first pass over a JSONL recording learns before its
// lines are judged:
//
//   - the connections the recorder marked unjudged (a session line with
//     "unjudged"): not the dialect's traffic, so none of their frames is
//     judged, those before the mark included;
//   - the connections the dialect's sessionizer ties to an earlier
//     connection that the recording filed in another session: a recorder
//     older than the tie (myagent's user.reconnect_with_state answered
//     under a new session_id, coworker's server_hello resuming an earlier
//     sessionId) filed the continuation apart, and judging it alone blames
//     the client for the server's renumbering or resumption. Such a
//     connection is judged in the session of the connection it continues.
//     Ties only merge: a recording's sessions are never split, and a
//     recording made by the current proxy, which ties the same way, is
//     judged as the proxy judged it.
type prescan struct {
	unjudged map[string]string // conn → reason
	order    []string          // unjudged conns in the order they were marked
	urls     map[string]string // conn → URL of its open line
	join     map[string]tie    // conn → the session it continues
}

type tie struct {
	session string // the recorded session of the connection it continues
	parent  string // that connection
}

func (p *prescan) isUnjudged(conn string) bool {
	_, ok := p.unjudged[conn]
	return ok
}

// scanRecording runs the first pass over r, a JSONL recording of dialect.
// Unreadable lines are left to the second pass, which reports them.
func scanRecording(r io.Reader, dialectName string) (*prescan, error) {
	p := &prescan{unjudged: map[string]string{}, urls: map[string]string{}, join: map[string]tie{}}
	sz := sessionize.New(dialectName)
	conns := map[string]*sessionize.Conn{}
	recorded := map[string]string{} // conn → its session as the recording files it
	type link struct{ conn, parent string }
	var links []link
	bound := func(c *sessionize.Conn) {
		if parent := sz.Parent(c); parent != "" {
			links = append(links, link{c.ID, parent})
		}
		sz.Joined(c)
	}
	_, err := recording.ScanEachLazy(r, func(l recording.Line) error {
		switch l.Kind {
		case recording.KindOpen:
			if _, dup := conns[l.Conn]; dup {
				return nil
			}
			p.urls[l.Conn] = l.URL
			if l.Session != "" {
				recorded[l.Conn] = l.Session
			}
			c := &sessionize.Conn{ID: l.Conn}
			conns[l.Conn] = c
			if _, ok := sz.AtOpen(c, l.URL); ok {
				bound(c)
			}
		case recording.KindSession:
			if l.Unjudged != "" {
				p.markUnjudged(l.Conn, "", l.Unjudged)
				return nil
			}
			if recorded[l.Conn] == "" {
				recorded[l.Conn] = l.Session
			}
		case recording.KindFrame:
			if recorded[l.Conn] == "" && l.Session != "" {
				recorded[l.Conn] = l.Session
			}
			c := conns[l.Conn]
			if c == nil || c.Session != "" || c.Closed {
				return nil
			}
			f, err := l.Frame()
			if err != nil {
				return nil
			}
			if _, ok := sz.Frame(c, f.Dir, f.Op, f.Payload); ok {
				bound(c)
			}
		case recording.KindClose:
			if recorded[l.Conn] == "" {
				recorded[l.Conn] = l.Conn // as the Grouper files a connection no line named
			}
			c := conns[l.Conn]
			if c == nil || c.Closed {
				return nil
			}
			if c.Session == "" {
				sz.GiveUp(c)
				bound(c)
			}
			sz.Closed(c)
		}
		return nil
	}, func(recording.Problem) {})
	if err != nil {
		return nil, err
	}
	for _, lk := range links {
		if p.isUnjudged(lk.conn) || p.isUnjudged(lk.parent) {
			continue
		}
		want := recorded[lk.parent]
		if t, ok := p.join[lk.parent]; ok {
			want = t.session
		}
		have := recorded[lk.conn]
		if have == "" {
			have = lk.conn
		}
		if want != "" && want != have {
			p.join[lk.conn] = tie{session: want, parent: lk.parent}
		}
	}
	return p, nil
}

// markUnjudged records a connection the recorder did not judge, and why.
func (p *prescan) markUnjudged(conn, url, reason string) {
	if p.unjudged == nil {
		p.unjudged, p.urls = map[string]string{}, map[string]string{}
	}
	if p.isUnjudged(conn) {
		return
	}
	p.unjudged[conn] = reason
	p.order = append(p.order, conn)
	if url != "" {
		p.urls[conn] = url
	}
}

// rewrite adjusts a line of the second pass to what the first learned; it
// reports false for a line that is not judged (an unjudged connection's).
func (p *prescan) rewrite(l *recording.Line) bool {
	if p.isUnjudged(l.Conn) {
		return false
	}
	t, ok := p.join[l.Conn]
	if !ok {
		return true
	}
	switch l.Kind {
	case recording.KindOpen:
		l.Pending, l.Session, l.Parent = false, t.session, t.parent
	case recording.KindSession:
		return false // the recorder's own binding, superseded by the tie
	case recording.KindFrame, recording.KindClose:
		l.Session = t.session
	}
	return true
}

// maxUnjudgedNotes bounds the paths the notes list, and the connections
// each names.
const (
	maxUnjudgedNotes = 100
	maxUnjudgedConns = 10
)

// notes says once per path which connections were not judged and why, as
// the proxy's report does.
func (p *prescan) notes(dialectName string) []string {
	type group struct {
		path, reason string
		conns        []string
		more         int
	}
	var groups []*group
	byPath := map[string]*group{}
	for _, conn := range p.order {
		path := urlPath(p.urls[conn])
		g := byPath[path]
		if g == nil {
			if len(groups) >= maxUnjudgedNotes {
				continue
			}
			g = &group{path: path, reason: p.unjudged[conn]}
			byPath[path] = g
			groups = append(groups, g)
		}
		if len(g.conns) < maxUnjudgedConns {
			g.conns = append(g.conns, conn)
		} else {
			g.more++
		}
	}
	var out []string
	for _, g := range groups {
		conns := strings.Join(g.conns, ", ")
		if g.more > 0 {
			conns += fmt.Sprintf(" and %d more", g.more)
		}
		out = append(out, fmt.Sprintf("not judged: not %s traffic: %s (%s; %s)", dialectName, g.path, conns, g.reason))
	}
	return out
}

func urlPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Path == "" {
		if raw == "" {
			return "(unknown path)"
		}
		return raw
	}
	return u.Path
}
