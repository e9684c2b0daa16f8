package replay

import (
	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/reports"
)

// judge runs the replay's traffic through the check engine exactly as
// `wsconform validate` runs a recording's: validate's Grouper puts the
// connections into their logical sessions (reconnections with the
// connection they resume) and feeds every frame, both directions, to the
// session's check.Session in order; validate's Collector keeps, for the
// report, each session's connections, findings and wire log.
func judge(d *dialect.Dialect, reason string, lines []recording.Line, opts check.Options, limits reports.WireLimits) []reports.Session {
	c := validate.NewCollector("", limits)
	c.Begin(d.Dialect, reason)
	g := validate.NewGrouper(d, validate.Options{Dialect: d.Dialect, Check: opts})
	g.Bound, g.Observed = c.Bound, c.Judged
	for _, l := range lines {
		c.Line(l)
		g.Line(l)
	}
	g.End()
	return c.Sessions()
}
