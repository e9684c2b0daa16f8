package replay

import (
	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// judge runs the replay's traffic through the check engine exactly as
// `wsconform validate` runs a recording's: validate's Grouper puts the
// connections into their logical sessions (reconnections with the
// connection they resume) and feeds every frame, both directions, to the
// session's check.Session in order; a SessionBuilder keeps, for the
// report, each session's connections, findings and wire log.
func judge(d *dialect.Dialect, reason string, lines []recording.Line, opts check.Options, limits reports.WireLimits) []reports.Session {
	b := reports.NewSessionBuilder(d.Dialect, reason, "", limits)
	g := validate.NewGrouper(d, validate.Options{Dialect: d.Dialect, Check: opts})
	g.Bound = b.Bind
	g.Observed = func(session string, f wire.Frame, fs []validate.Finding) {
		var typ, seq string
		if limits != (reports.WireLimits{}) {
			typ, seq = reports.Describe(d, f)
		}
		var out []reports.Finding
		for _, x := range fs {
			out = append(out, reports.Finding{Finding: x.Finding})
		}
		b.Frame(session, f, typ, seq, out)
	}
	for _, l := range lines {
		switch l.Kind {
		case recording.KindOpen:
			b.OpenConn(l.Conn, l.URL, l.Time)
			b.SetParent(l.Conn, l.Parent)
		case recording.KindClose:
			b.CloseConn(l.Conn, l.Time, l.Code, l.Reason, l.By)
		}
		g.Line(l)
	}
	g.End()
	return b.Sessions()
}
