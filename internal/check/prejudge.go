package check

import (
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// Judged is what the stateless rules (decoding, the schema, the spec's
// contradictions) made of one frame, computed ahead by Prejudge. Those
// rules read nothing but the frame, so a reader with spare cores runs
// them on frames ahead of the session that judges them in order (issue
// 26: `wsconform validate` parses and prejudges on one core while the
// other runs the sessions). A Judged is handed to one ObserveJudged
// call, which owns it from then on.
type Judged struct {
	m   *message
	out []Finding
	lim Limits
	dir wire.Direction
}

// Prejudge applies the stateless rules to f as a session with limits lim
// would. It is safe for concurrent use.
func Prejudge(d *dialect.Dialect, f wire.Frame, lim Limits) *Judged {
	lim = lim.orDefault()
	m, out := stateless(d, f, lim)
	return &Judged{m: m, out: out, lim: lim, dir: f.Dir}
}

// ObserveJudged is Observe with the stateless rules already applied to f
// by Prejudge (j nil: applied here). It returns exactly what Observe
// returns: the findings are located on f as the session sees it (its
// connection and index may have been settled after Prejudge).
func (s *Session) ObserveJudged(f wire.Frame, j *Judged) []Finding {
	return s.observe(f, j)
}

// judged returns the stateless result for f: j's when it was made for
// this frame's direction under the session's limits, else computed now.
func (s *Session) judged(f wire.Frame, j *Judged) (*message, []Finding) {
	if j == nil || j.lim != s.lim || j.dir != f.Dir || j.m != nil && j.m.Frame.Op != f.Op {
		return stateless(s.d, f, s.lim)
	}
	if j.m != nil {
		j.m.Frame = f
	}
	for i := range j.out {
		j.out[i].Conn, j.out[i].Frame = f.Conn, f.Index
	}
	return j.m, j.out
}
