package validate

import (
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// Collector is the Observer that keeps, for the report,
// each session's connections (with reconnect lineage), findings and a
// bounded wire log.
//
// `wsconform validate` collects a file's sessions with it, and `wsconform
// replay` the replayed traffic's, so both reports show sessions alike.
type Collector struct {
	path   string
	limits reports.WireLimits
	d      *dialect.Dialect
	b      *reports.SessionBuilder
}

// NewCollector collects the sessions read from source (a path, "" for
// none), keeping wire logs within limits (zero: none).
func NewCollector(source string, limits reports.WireLimits) *Collector {
	return &Collector{path: source, limits: limits}
}

// Sessions are the sessions collected so far (none before Begin).
func (c *Collector) Sessions() []reports.Session {
	if c == nil || c.b == nil {
		return nil
	}
	return c.b.Sessions()
}

// Begin starts the dialect's sessions (Observer).
func (c *Collector) Begin(name, reason string) {
	c.d, _ = dialect.Get(name)
	c.b = reports.NewSessionBuilder(name, reason, c.path, c.limits)
}

// Line files opens, reconnect parents and closes (Observer).
func (c *Collector) Line(l recording.Line) {
	switch l.Kind {
	case recording.KindOpen:
		c.b.OpenConn(l.Conn, l.URL, l.Time)
		c.b.SetParent(l.Conn, l.Parent)
	case recording.KindSession:
		c.b.SetParent(l.Conn, l.Parent)
	case recording.KindClose:
		c.b.CloseConn(l.Conn, l.Time, l.Code, l.Reason, l.By)
	}
}

// Bound files conn under session (Observer).
func (c *Collector) Bound(conn, session string) { c.b.Bind(conn, session) }

// unreadableSession holds, in the report, the findings on parts of a file
// that could not be read: they belong to no session the file names.
const unreadableSession = "unreadable"

// Unreadable files a finding on an unreadable part (Observer).
func (c *Collector) Unreadable(f Finding) {
	c.b.Finding(unreadableSession, reports.Finding{Finding: f.Finding})
}

// Judged files a judged frame and its findings (Observer).
func (c *Collector) Judged(session string, f wire.Frame, fs []Finding) {
	var typ, seq string
	if c.limits != (reports.WireLimits{}) {
		typ, seq = reports.Describe(c.d, f)
	}
	var out []reports.Finding
	for _, x := range fs {
		out = append(out, reports.Finding{Finding: x.Finding})
	}
	c.b.Frame(session, f, typ, seq, out)
}

// JudgedHTTP files the findings of a judged HTTP exchange with its
// session (HTTPObserver). The exchange is not in the wire log, which holds
// frames; its findings name it (conn, index, method and path).
func (c *Collector) JudgedHTTP(session string, _ wire.Exchange, fs []Finding) {
	for _, x := range fs {
		c.b.Finding(session, reports.Finding{Finding: x.Finding})
	}
}
