package requirements_test

import (
	"fmt"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/requirements"
)

// strength ranks evidence: stated over shown over interpretation.
func strength(e requirements.Evidence) int {
	switch e {
	case requirements.Stated:
		return 2
	case requirements.Shown:
		return 1
	}
	return 0
}

// citeProblems is what is wrong with the requirements a rule cites: a
// dialect rule cites at least one entry of its dialect's registry, every
// cited id exists there (once), and the strongest evidence among them caps
// the rule's evidence and so its severity (stated allows an error, the
// rest a warning). A rule of every dialect is Generic and cites nothing.
func citeProblems(r check.Rule, reg *requirements.Registry) []string {
	var out []string
	if r.Dialect == "" {
		if !check.Generic(r.ID) {
			out = append(out, fmt.Sprintf("rule %s applies to every dialect but its id has none of the generic prefixes %v", r.ID, check.GenericPrefixes))
		}
		if len(r.Requires) > 0 {
			out = append(out, fmt.Sprintf("rule %s applies to every dialect, so no one registry holds %v", r.ID, r.Requires))
		}
		return out
	}
	if check.Generic(r.ID) {
		out = append(out, fmt.Sprintf("rule %s of %s has a generic prefix", r.ID, r.Dialect))
	}
	if len(r.Requires) == 0 {
		return append(out, fmt.Sprintf("rule %s cites no requirement of %s", r.ID, r.Dialect))
	}
	best := requirements.Evidence("")
	seen := map[string]bool{}
	for _, id := range r.Requires {
		if seen[id] {
			out = append(out, fmt.Sprintf("rule %s cites %s twice", r.ID, id))
		}
		seen[id] = true
		q, ok := reg.Lookup(id)
		if !ok {
			out = append(out, fmt.Sprintf("rule %s cites %s, which %s does not have", r.ID, id, reg.File))
			continue
		}
		if best == "" || strength(q.Evidence) > strength(best) {
			best = q.Evidence
		}
	}
	if best == "" {
		return out
	}
	if strength(r.Evidence) > strength(best) {
		out = append(out, fmt.Sprintf("rule %s claims %s evidence, its requirements %v give %s at most", r.ID, r.Evidence, r.Requires, best))
	}
	if r.Severity > check.MaxSeverity(best) {
		out = append(out, fmt.Sprintf("rule %s is an %s, its requirements %v (%s at most) allow a %s", r.ID, r.Severity, r.Requires, best, check.MaxSeverity(best)))
	}
	return out
}

// overSevere lists the rules whose severity their requirements do not
// support and that wait for a decision, each with why; the test fails once
// one of them is no longer over-severe, so the list only shrinks.
//
// (Empty: minicodex.resume-unseen was here until the registry's
// minicodex.resume.last-seen-is-seen rested on the test matrix's "Resume
// after refresh with last_seen_event_id replay": the member names the last
// event the client saw, and the matrix's replay rests on it.)
var overSevere = map[string]string{}

// TestRulesCiteRequirements: every rule of the check engine, the
// contradictions the dialect manifests declare included, cites existing
// requirements of its dialect, and no rule is more severe than they allow.
func TestRulesCiteRequirements(t *testing.T) {
	t.Parallel()
	regs := map[string]*requirements.Registry{}
	for _, name := range dialect.Names() {
		regs[name] = load(t, name)
	}
	cited := 0
	for _, r := range check.Rules("") {
		problems := citeProblems(r, regs[r.Dialect])
		if why, pending := overSevere[r.ID]; pending {
			if len(problems) == 0 {
				t.Errorf("rule %s is no longer over-severe: drop it from overSevere", r.ID)
			}
			t.Logf("pending: %s (%s): %q", r.ID, why, problems)
			continue
		}
		for _, p := range problems {
			t.Error(p)
		}
		if len(r.Requires) > 0 {
			cited++
		}
	}
	if cited == 0 {
		t.Fatal("no rule cites a requirement")
	}
}

// TestCiteProblems: the meta-test fails on a rule that cites nothing, an
// unknown id, or requirements weaker than its severity.
func TestCiteProblems(t *testing.T) {
	t.Parallel()
	reg, err := requirements.Parse("d/requirements.json", []byte(`{"dialect": "d", "spec": "d.md", "requirements": [
		{"id": "d.a.stated", "section": "§A", "quote": "x must be y", "evidence": "stated", "level": "must"},
		{"id": "d.a.shown", "section": "§A", "quote": "{x: y}", "evidence": "shown", "level": "type"},
		{"id": "d.a.read", "section": "§A", "quote": "x", "evidence": "interpretation", "level": "should", "reading": "x is y"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rule := func(sev check.Severity, ev check.Evidence, ids ...string) check.Rule {
		return check.Rule{ID: "d.rule", Dialect: "d", Severity: sev, Evidence: ev, Requires: ids}
	}
	tests := []struct {
		name string
		r    check.Rule
		want int
	}{
		{"stated error", rule(check.Error, check.Stated, "d.a.stated"), 0},
		{"context of a weaker rule", rule(check.Warning, check.Interpretation, "d.a.read", "d.a.stated"), 0},
		{"shown warning", rule(check.Warning, check.Shown, "d.a.shown"), 0},
		{"cites nothing", rule(check.Warning, check.Interpretation), 1},
		{"unknown id", rule(check.Warning, check.Interpretation, "d.a.gone"), 1},
		{"twice", rule(check.Warning, check.Interpretation, "d.a.read", "d.a.read"), 1},
		{"error on an interpretation", rule(check.Error, check.Stated, "d.a.read"), 2},
		{"stated on shown", rule(check.Warning, check.Stated, "d.a.shown"), 1},
		{"generic", check.Rule{ID: "frame.x", Severity: check.Error, Evidence: check.Stated}, 0},
		{"generic citing", check.Rule{ID: "frame.x", Requires: []string{"d.a.stated"}}, 1},
		{"dialect-less, not generic", check.Rule{ID: "d.other"}, 1},
		{"dialect rule, generic prefix", check.Rule{ID: "frame.d", Dialect: "d", Requires: []string{"d.a.read"}}, 1},
	}
	for _, tt := range tests {
		if got := citeProblems(tt.r, reg); len(got) != tt.want {
			t.Errorf("%s: %d problems %q, want %d", tt.name, len(got), got, tt.want)
		}
	}
}
