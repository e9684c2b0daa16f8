package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/requirements"
)

// The levels of a scenario, derived from its primary requirement
// (DeriveLevel); each gives a failed step its own verdict (judge).
const (
	LevelMust           = "must"           // stated MUST-like or type: failed
	LevelShould         = "should"         // stated SHOULD-like: non-strict
	LevelMay            = "may"            // stated MAY: observation
	LevelShown          = "shown"          // only shown by an example: non-strict
	LevelInterpretation = "interpretation" // our reading of the spec's silence: observation
)

// DeriveLevel is a scenario's level from its primary requirement: the
// evidence first (what the spec only shows or does not say can never fail
// a target), then the stated requirement's own level.
func DeriveLevel(q requirements.Requirement) string {
	switch {
	case q.Evidence == requirements.Shown:
		return LevelShown
	case q.Evidence == requirements.Interpretation:
		return LevelInterpretation
	case q.Level == requirements.Should:
		return LevelShould
	case q.Level == requirements.May:
		return LevelMay
	}
	return LevelMust
}

// registries loads each dialect's requirement registry once, from the
// features' own file system: a user's --features tree brings its own, or
// has none and keeps @must / @should.
type registries struct {
	fsys     fs.FS
	byName   map[string]*requirements.Registry
	read     map[string]bool
	problems []string
}

func newRegistries(fsys fs.FS) *registries {
	return &registries{fsys: fsys, byName: map[string]*requirements.Registry{}, read: map[string]bool{}}
}

// get returns the registry of a dialect, nil when the features have none;
// a registry that does not parse is a problem of the catalog, named once.
func (r *registries) get(d string) *requirements.Registry {
	if !r.read[d] {
		r.read[d] = true
		reg, err := requirements.Load(r.fsys, d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			r.problems = append(r.problems, strings.ReplaceAll(err.Error(), "\n", "; "))
		default:
			r.byName[d] = reg
		}
	}
	return r.byName[d]
}

// of lists the registries of the cases' dialects, in dialect order.
func (r *registries) of(cases []*Case) []*requirements.Registry {
	used := map[string]bool{}
	for _, c := range cases {
		used[c.Dialect] = true
	}
	var out []*requirements.Registry
	for _, d := range dialect.Names() {
		if !used[d] {
			continue
		}
		if reg := r.get(d); reg != nil {
			out = append(out, reg)
		}
	}
	return out
}

// resolveLevel looks the case's @req tags up in its dialect's registry and
// derives its level from the first; it returns what is wrong: an unknown
// id, an id of another dialect, a level tag that contradicts the derived
// level, or no level at all.
func (c *Case) resolveLevel(regs *registries) []string {
	where := fmt.Sprintf("%s:%d: scenario %q", c.File, c.Line, c.Name)
	if len(c.Reqs) == 0 {
		if c.tagLevel == "" {
			return []string{where + " has no level: cite its requirement (@req:ID) or tag it @must or @should"}
		}
		c.Level = c.tagLevel
		return nil
	}
	reg := regs.get(c.Dialect)
	var problems []string
	for i, id := range c.Reqs {
		if other, _, _ := strings.Cut(id, "."); other != c.Dialect && dialect.Known(other) {
			problems = append(problems, fmt.Sprintf("%s cites @req:%s of dialect %s (a %s scenario cites %s requirements)", where, id, other, c.Dialect, c.Dialect))
			continue
		}
		if reg == nil {
			problems = append(problems, fmt.Sprintf("%s cites @req:%s, but there is no %s/%s", where, id, c.Dialect, requirements.FileName))
			continue
		}
		q, ok := reg.Lookup(id)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s cites unknown requirement @req:%s (not in %s)", where, id, reg.File))
			continue
		}
		if i == 0 {
			c.Primary = &q
		}
	}
	if c.Primary == nil {
		return problems
	}
	c.Level = DeriveLevel(*c.Primary)
	if c.tagLevel != "" && c.tagLevel != c.Level {
		problems = append(problems, fmt.Sprintf("%s: @%s contradicts requirement %s (%s %s)", where, c.tagLevel, c.Primary.ID, c.Primary.Evidence, c.Primary.Level))
	}
	return problems
}

// matchTags evaluates a godog tag expression ("@a && ~@b", "@a,@b": a
// comma is or, && is and, ~ is not) on a scenario's tags as godog does
// (every @ dropped on both sides), so that the derived level, which is no
// written tag, selects too.
func matchTags(expr string, tags []string) bool {
	if strings.TrimSpace(expr) == "" {
		return true
	}
	has := map[string]bool{}
	for _, t := range tags {
		has[strings.ReplaceAll(t, "@", "")] = true
	}
	for _, and := range strings.Split(expr, "&&") {
		any := false
		for _, or := range strings.Split(and, ",") {
			t := strings.ReplaceAll(strings.TrimSpace(or), "@", "")
			if neg := strings.HasPrefix(t, "~"); neg {
				any = any || !has[t[1:]]
			} else {
				any = any || has[t]
			}
		}
		if !any {
			return false
		}
	}
	return true
}

// selectSection keeps the cases whose primary requirement's section
// contains section, ignoring case and a leading § as the registry's
// filter does; "" keeps them all.
func (cat *Catalog) selectSection(section string) {
	want := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(section), "§"))
	if want == "" {
		return
	}
	kept := cat.Cases[:0]
	for _, c := range cat.Cases {
		if c.Primary != nil && strings.Contains(strings.ToLower(c.Primary.Section), want) {
			kept = append(kept, c)
		}
	}
	cat.Cases = kept
	cat.Registries = newRegistriesFrom(cat.Registries).of(kept)
}

// newRegistriesFrom indexes registries already read.
func newRegistriesFrom(regs []*requirements.Registry) *registries {
	r := newRegistries(nil)
	for _, reg := range regs {
		r.byName[reg.Dialect], r.read[reg.Dialect] = reg, true
	}
	return r
}
