package web

import (
	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/proxy"
)

// maxConns bounds the connections the registry remembers; the oldest are
// forgotten first (a client reconnecting in a loop all day).
const maxConns = 2000

// registry is the state a page needs whatever events it missed: every
// connection's session and end, the dialect, and the proxy's totals. It
// is updated by publish under the ring's lock: a map update for the few
// connection events, two additions for a frame or a finding.
type registry struct {
	conns            map[string]*connState
	order            []string
	dialect, reason  string
	frames           int64
	errors, warnings int64
	infos            int64
}

// connState is one connection as the page lists it.
type connState struct {
	ID      string `json:"id"`
	Session string `json:"s,omitempty"`
	Parent  string `json:"pa,omitempty"`
	URL     string `json:"u,omitempty"`
	Opened  int64  `json:"t,omitempty"`
	Closed  bool   `json:"closed,omitempty"`
	Code    int    `json:"cc,omitempty"`
	Reason  string `json:"r,omitempty"`
	By      string `json:"by,omitempty"`
	Frames  int64  `json:"fr,omitempty"`
}

// regState is a copy of the registry for a page.
type regState struct {
	Conns   []connState `json:"conns"`
	Dialect string      `json:"dialect,omitempty"`
	Reason  string      `json:"reason,omitempty"`
	Totals  totals      `json:"totals"`
}

// totals are the proxy's counts since it started, whatever a page saw.
type totals struct {
	Frames   int64 `json:"frames"`
	Errors   int64 `json:"errors"`
	Warnings int64 `json:"warnings"`
	Infos    int64 `json:"infos"`
}

func newRegistry() registry { return registry{conns: map[string]*connState{}} }

func (g *registry) update(ev *proxy.LiveEvent) {
	switch ev.Kind {
	case proxy.LiveFrame:
		g.frames++
		if c := g.conns[ev.Conn]; c != nil {
			c.Frames++
		}
	case proxy.LiveFinding:
		switch ev.Finding.Severity {
		case check.Error:
			g.errors++
		case check.Warning:
			g.warnings++
		default:
			g.infos++
		}
	case proxy.LiveOpen:
		c := g.conn(ev.Conn)
		c.URL, c.Opened = ev.URL, ev.Time.UnixMilli()
		if ev.Session != "" {
			c.Session = ev.Session
		}
	case proxy.LiveSession:
		c := g.conn(ev.Conn)
		c.Session, c.Parent = ev.Session, ev.Parent
	case proxy.LiveClose:
		c := g.conn(ev.Conn)
		c.Closed, c.Code, c.Reason, c.By, c.Frames = true, ev.CloseCode, ev.Reason, ev.By, ev.Frames
	case proxy.LiveDialect:
		g.dialect, g.reason = ev.Dialect, ev.Reason
	}
}

// conn returns a connection's state, creating it on first sight.
func (g *registry) conn(id string) *connState {
	c, ok := g.conns[id]
	if !ok {
		if len(g.order) >= maxConns {
			delete(g.conns, g.order[0])
			g.order = g.order[1:]
		}
		c = &connState{ID: id}
		g.conns[id] = c
		g.order = append(g.order, id)
	}
	return c
}

func (g *registry) snapshot() regState {
	st := regState{Conns: make([]connState, 0, len(g.order)), Dialect: g.dialect, Reason: g.reason,
		Totals: totals{Frames: g.frames, Errors: g.errors, Warnings: g.warnings, Infos: g.infos}}
	for _, id := range g.order {
		st.Conns = append(st.Conns, *g.conns[id])
	}
	return st
}
