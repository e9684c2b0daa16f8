package detect

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// Result is a detected dialect and why.
type Result struct {
	Dialect string
	Reason  string
}

// score of one dialect over the sample.
type score struct {
	name          string
	known, passed int // frames whose type the dialect knows / that pass its schema
	path          bool
	examples      []string
}

// Dialect picks the dialect that best explains the sample: frames whose
// type the dialect defines for their direction count, frames that also pass
// its schema count double, and a documented path that only one dialect has
// (hostd's /ws/app and /ws/host) settles it. It fails rather than guess
// when two dialects explain the sample equally well.
func Dialect(urls []string, frames []wire.Frame) (Result, error) {
	var scores []*score
	for _, name := range dialect.Names() {
		d, err := dialect.Get(name)
		if err != nil {
			return Result{}, err
		}
		s := &score{name: name, path: pathMatches(d, urls)}
		for _, f := range frames {
			if f.Op != wire.OpText {
				continue
			}
			t, known, fs := check.Inspect(d, f, check.Limits{})
			if !known {
				continue
			}
			s.known++
			if !hasErrors(fs) {
				s.passed++
			}
			if len(s.examples) < 3 && !containsStr(s.examples, t) {
				s.examples = append(s.examples, t)
			}
		}
		scores = append(scores, s)
	}
	sort.SliceStable(scores, func(i, j int) bool { return scores[i].value() > scores[j].value() })
	best := scores[0]
	if best.value() == 0 {
		return Result{}, fmt.Errorf("cannot tell the dialect: none of the %d frames is a message type of any dialect; pass --dialect", len(frames))
	}
	if len(scores) > 1 && scores[1].value() == best.value() {
		return Result{}, fmt.Errorf("cannot tell the dialect: %s and %s explain the frames equally well; pass --dialect", best.name, scores[1].name)
	}
	return Result{Dialect: best.name, Reason: best.reason(len(frames), scores[1:])}, nil
}

// value weighs the evidence: a unique documented path is worth more than a
// few frames, schema-valid frames more than known types.
func (s *score) value() int {
	v := s.known + 2*s.passed
	if s.path {
		v += 10
	}
	return v
}

func (s *score) reason(total int, rest []*score) string {
	var parts []string
	if s.path {
		parts = append(parts, "the URL path is one its spec documents")
	}
	if s.known > 0 {
		parts = append(parts, fmt.Sprintf("%d of the first %d frames are its message types (%s), %d pass its schemas",
			s.known, total, strings.Join(s.examples, ", "), s.passed))
	}
	r := strings.Join(parts, "; ")
	if len(rest) > 0 && rest[0].value() > 0 {
		r += fmt.Sprintf("; next best %s (%d known, %d valid)", rest[0].name, rest[0].known, rest[0].passed)
	}
	return r
}

// pathMatches is true when a URL path is documented by this dialect and by
// no other, so the generic "/ws" never decides.
func pathMatches(d *dialect.Dialect, urls []string) bool {
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil {
			continue
		}
		for _, p := range d.Paths {
			if p == u.Path && uniquePath(p) {
				return true
			}
		}
	}
	return false
}

func uniquePath(p string) bool {
	n := 0
	for _, name := range dialect.Names() {
		if d, err := dialect.Get(name); err == nil && containsStr(d.Paths, p) {
			n++
		}
	}
	return n == 1
}

func hasErrors(fs []check.Finding) bool {
	for _, f := range fs {
		if f.Severity == check.Error {
			return true
		}
	}
	return false
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
