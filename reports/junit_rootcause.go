package reports

import (
	"fmt"
	"sort"
	"strings"
)

// rcWhereListed is how many scenarios a root cause's testcase names.
const rcWhereListed = 50

// rcSuite is the "· root causes" suite beside a suite of scenarios or
// sessions.
type rcSuite struct {
	name  string
	cases []rcCase
}

type rcCase struct {
	junitCase
	verdict   Verdict
	message   string
	detail    string
	baselined string
}

// rcPart is what one suite saw of a root cause.
type rcPart struct {
	count int
	where []string
	first RootCauseRef
	// open is set when a scenario that is not baselined showed it.
	open bool
}

// rootCauseSuites splits the report's root causes by the suites their
// findings fall in (dialect and target, or dialect and recording), with
// the count and places of each in that suite.
func rootCauseSuites(r *Report) []rcSuite {
	if len(r.RootCauses) == 0 {
		return nil
	}
	idx := r.rootIndex()
	parts := map[string]map[int]*rcPart{}
	dialectOf := map[string]string{}
	var names []string
	note := func(suite, dialect string, k int, where string, ref RootCauseRef, open bool) {
		m, ok := parts[suite]
		if !ok {
			m = map[int]*rcPart{}
			parts[suite] = m
			dialectOf[suite] = dialect
			names = append(names, suite)
		}
		p, ok := m[k]
		if !ok {
			p = &rcPart{first: ref}
			m[k] = p
		}
		p.count++
		p.open = p.open || open
		if n := len(p.where); n == 0 || p.where[n-1] != where {
			p.where = append(p.where, where)
		}
	}
	for i := range r.Scenarios {
		sc := &r.Scenarios[i]
		suite := sc.Dialect
		if len(r.Targets) > 1 {
			suite += " @ " + sc.Target
		}
		for _, f := range sc.Findings {
			if k := r.rootOf(idx, f, true); k >= 0 {
				note(suite+" · root causes", sc.Dialect, k, r.scenarioWhere(sc),
					RootCauseRef{Scenario: sc.ID, Target: sc.Target, Frame: f.Frame}, sc.Baselined == "")
			}
		}
	}
	sources := map[string]bool{}
	for _, se := range r.Sessions {
		sources[se.Source] = true
	}
	for i := range r.Sessions {
		se := &r.Sessions[i]
		suite := se.Dialect
		if suite == "" {
			suite = "sessions"
		}
		if len(sources) > 1 {
			suite += " @ " + se.Source
		}
		for _, f := range se.Findings {
			if k := r.rootOf(idx, f, false); k >= 0 {
				note(suite+" · root causes", se.Dialect, k, "session "+se.ID, RootCauseRef{Session: se.ID, Frame: f.Frame}, true)
			}
		}
	}
	out := make([]rcSuite, 0, len(names))
	for _, name := range names {
		m := parts[name]
		ks := make([]int, 0, len(m))
		for k := range m {
			ks = append(ks, k)
		}
		sort.Ints(ks)
		rs := rcSuite{name: name}
		for _, k := range ks {
			rs.cases = append(rs.cases, rootCauseCase(r.RootCauses[k], m[k], dialectOf[name], len(r.Targets) > 1))
		}
		out = append(out, rs)
	}
	return out
}

// rootCauseCase is the testcase of one root cause in one suite: failed
// for an error (skipped when only baselined scenarios showed it and it is
// not background), passed with its detail in system-out for a warning.
func rootCauseCase(rc RootCause, p *rcPart, dialect string, multi bool) rcCase {
	name := rc.Rule
	if s := rc.Subject(); s != "" {
		name += " on " + s
	}
	if d := dirWords(rc.Dir); d != "" {
		name += " (" + d + ")"
	}
	if dialect == "" {
		dialect = "sessions"
	}
	c := rcCase{junitCase: junitCase{Name: name, Classname: dialect + ".root-causes", Time: "0"}, verdict: rc.Verdict(),
		message: rc.Message}
	detail := xmlSafe(rootCauseDetail(rc, p, multi))
	switch {
	case c.verdict == Failed && !p.open && !rc.Background:
		c.baselined = "only baselined scenarios show it"
		c.detail = detail
	case c.verdict == Failed:
		c.detail = detail
	default:
		c.verdict = Passed
		c.SystemOut = &junitText{Text: detail}
	}
	return c
}

// rootCauseDetail is the body of a root cause's testcase.
func rootCauseDetail(rc RootCause, p *rcPart, multi bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", rc.Severity, rc.Rule)
	if rc.Evidence != "" {
		fmt.Fprintf(&b, " (evidence: %s)", rc.Evidence)
	}
	fmt.Fprintf(&b, ": %s\n", rc.Message)
	if rc.Spec != "" {
		fmt.Fprintf(&b, "spec:     %s\n", rc.Spec)
	}
	if rc.Quote != "" {
		fmt.Fprintf(&b, "quote:    %s\n", strings.ReplaceAll(rc.Quote, "\n", "\n          "))
	}
	if s := rc.Subject(); s != "" {
		fmt.Fprintf(&b, "message:  %s", s)
		if d := dirWords(rc.Dir); d != "" {
			fmt.Fprintf(&b, ", %s", d)
		}
		b.WriteString("\n")
	}
	if rc.Expected != "" || rc.Actual != "" {
		fmt.Fprintf(&b, "expected: %s\nactual:   %s\n", rc.Expected, rc.Actual)
	}
	fmt.Fprintf(&b, "count:    %s here", plural(p.count, "finding"))
	if p.count != rc.Count {
		fmt.Fprintf(&b, " (%d in the report: %s)", rc.Count, rc.Reach())
	}
	b.WriteString("\n")
	first := RootCause{First: p.first}
	fmt.Fprintf(&b, "first:    %s\n", first.FirstLabel(multi))
	fmt.Fprintf(&b, "seen in:  %s\n", strings.Join(head(p.where, rcWhereListed), ", "))
	if rc.Background {
		b.WriteString("\nSome of these findings are on frames no step of their scenario was about: no scenario's verdict carries them, so this root cause decides the verdict by itself.\n")
	}
	return b.String()
}

// head is the first n of list, and "and N more" when it is longer.
func head(list []string, n int) []string {
	if len(list) <= n {
		return list
	}
	return append(append([]string{}, list[:n]...), fmt.Sprintf("and %d more", len(list)-n))
}
