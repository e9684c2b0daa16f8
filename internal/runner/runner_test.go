package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reports"
)

// runReference runs the features of one dialect (filtered by tags) against
// a fresh reference server committing the given mutations.
func runReference(t *testing.T, d string, mutate []string, tags string) []reports.Scenario {
	t.Helper()
	ctx := context.Background()
	srv, target, err := StartReference(ctx, []string{d}, mutate)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown(ctx)
	res, err := Run(ctx, Options{Dialects: []string{d}, Targets: []Target{target}, Vars: ReferenceVars(), Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func describe(s reports.Scenario) string {
	var b strings.Builder
	b.WriteString(s.ID + ": " + string(s.Verdict) + ": " + s.Reason)
	for _, st := range s.Steps {
		if st.Status != "passed" {
			b.WriteString("\n    " + st.Status + " " + st.Keyword + " " + st.Text + " " + st.Error)
			if st.Expected != "" || st.Actual != "" {
				b.WriteString("\n      expected: " + st.Expected + "\n      actual:   " + st.Actual)
			}
		}
	}
	return b.String()
}

// TestReferencePasses: the unmutated reference server passes every
// scenario of its dialect, strictly.
func TestReferencePasses(t *testing.T) {
	t.Parallel()
	for _, d := range dialect.Names() {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			res := runReference(t, d, nil, "")
			if len(res) == 0 {
				t.Fatal("no scenario ran")
			}
			for _, s := range res {
				if s.Verdict != reports.Passed {
					t.Error(describe(s))
				}
			}
		})
	}
}

// catchers says, per dialect, which scenarios must fail against each
// mutation of the reference server. Each dialect's features fill theirs
// in mutations_<dialect>_test.go.
var catchers = map[string]map[string][]string{}

// unprovables says, per dialect, which scenarios a mutation must make
// inconclusive rather than passed: the mutation fakes a vacuous pass (it
// refuses for another reason, or ignores the action whose effect the
// scenario is about), so the scenario proves nothing either way. Each
// dialect fills its own in mutations_<dialect>_test.go.
var unprovables = map[string]map[string][]string{}

// TestMutationsAreCaught: for every mutation of the reference server, the
// scenarios meant to catch it fail. A mutation whose rule is a SHOULD (a
// warning) is caught when its scenarios are non-strict or failed: a
// conformance tool must not fail a server for breaking a SHOULD. A
// mutation seen on a frame no step of the scenario was about is caught by
// the run's root causes: the run fails (or is non-strict) with the
// mutation's rule, naming the scenario.
func TestMutationsAreCaught(t *testing.T) {
	t.Parallel()
	for _, d := range dialect.Names() {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			table := catchers[d]
			for _, m := range reference.Mutations(d) {
				t.Run(m.Name, func(t *testing.T) {
					ids, vacuous := table[m.Name], unprovables[d][m.Name]
					if len(ids)+len(vacuous) == 0 {
						t.Fatalf("no scenario is meant to catch mutation %s (%s): add it to mutations_%s_test.go", m.Name, m.Summary, d)
					}
					tags := "@id:" + strings.Join(append(append([]string(nil), ids...), vacuous...), ",@id:")
					res := runReference(t, d, []string{m.Name}, tags)
					got := map[string]reports.Scenario{}
					for _, s := range res {
						got[s.ID] = s
					}
					rep := &reports.Report{Kind: reports.KindRun, Scenarios: res}
					rep.Tally()
					for _, id := range ids {
						s, ok := got[id]
						switch {
						case !ok:
							t.Errorf("scenario %s did not run (no such id?)", id)
						case s.Verdict == reports.NonStrict && warningRule(m.Rule):
						case s.Verdict == reports.Observation && interpretationRule(m.Rule):
							// the mutation breaks only our reading of the spec's silence
						case (s.Verdict == reports.NonStrict || s.Verdict == reports.Observation) && s.Level != "must":
							// reported at the strongest verdict its requirement allows: a
							// mutation that breaks only what the spec shows or leaves to our
							// reading is non-strict or an observation, never a failed MUST
						case s.Verdict != reports.Failed && !rootCauseCatches(rep, m.Rule, id):
							t.Errorf("mutation %s (%s) not caught by %s", m.Name, m.Summary, describe(s))
						}
					}
					for _, id := range vacuous {
						s, ok := got[id]
						switch {
						case !ok:
							t.Errorf("scenario %s did not run (no such id?)", id)
						case s.Verdict != reports.Inconclusive:
							t.Errorf("mutation %s (%s) fakes a vacuous pass: %s must be inconclusive, got %s", m.Name, m.Summary, id, describe(s))
						}
					}
				})
			}
		})
	}
}

// rootCauseCatches reports whether a background root cause of the rule,
// touching the scenario, fails the run (or, for a warning rule, makes it
// non-strict).
func rootCauseCatches(rep *reports.Report, rule, scenario string) bool {
	for _, rc := range rep.RootCauses {
		if rc.Rule != rule || !rc.Background || (rc.Severity < check.Error && !warningRule(rule)) {
			continue
		}
		for _, id := range rc.Scenarios {
			if id == scenario {
				return true
			}
		}
	}
	return false
}

func warningRule(id string) bool {
	r, ok := check.Lookup(id)
	return ok && r.Severity == check.Warning
}

// interpretationRule reports whether the rule rests on our reading of the
// spec's silence: what breaks it is an observation.
func interpretationRule(id string) bool {
	r, ok := check.Lookup(id)
	return ok && r.Evidence == check.Interpretation
}
