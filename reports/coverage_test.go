package reports

import (
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/requirements"
)

// covRegistry is a minicodex registry with one requirement per case the
// coverage tests need.
const covRegistry = `{
  "dialect": "minicodex",
  "spec": "minicodex-v1.md",
  "requirements": [
    {"id": "minicodex.t.passed", "section": "§Resume", "quote": "replay is gapless", "evidence": "stated", "level": "must"},
    {"id": "minicodex.t.failed", "section": "§Resume", "quote": "the server MUST replay every event", "evidence": "stated", "level": "must"},
    {"id": "minicodex.t.flaky", "section": "§Resume", "quote": "in order", "evidence": "stated", "level": "must"},
    {"id": "minicodex.t.non-strict", "section": "§Envelope", "quote": "seq SHOULD grow", "evidence": "stated", "level": "should"},
    {"id": "minicodex.t.observed", "section": "§Envelope", "quote": "errors are reported", "evidence": "interpretation", "level": "should", "reading": "an error frame"},
    {"id": "minicodex.t.mixed", "section": "§Envelope", "quote": "type: string", "evidence": "stated", "level": "type"},
    {"id": "minicodex.t.untested", "section": "§Auth", "quote": "tokens rotate", "evidence": "stated", "level": "must", "untested": "needs a second identity provider"},
    {"id": "minicodex.t.uncited", "section": "§Auth", "quote": "auth first", "evidence": "stated", "level": "must"},
    {"id": "minicodex.t.unselected", "section": "§Auth", "quote": "hello first", "evidence": "stated", "level": "type"},
    {"id": "minicodex.t.scripted", "section": "§Turns", "quote": "a turn ends", "evidence": "stated", "level": "must"},
    {"id": "minicodex.t.skipped", "section": "§Turns", "quote": "skills list", "evidence": "stated", "level": "must"},
    {"id": "minicodex.t.inconclusive", "section": "§Turns", "quote": "a model answers", "evidence": "stated", "level": "must"},
    {"id": "minicodex.t.not-run", "section": "§Turns", "quote": "abort stops", "evidence": "stated", "level": "must"},
    {"id": "minicodex.t.error", "section": "§Turns", "quote": "ping answered", "evidence": "stated", "level": "may"},
    {"id": "minicodex.t.shown", "section": "§Turns", "quote": "{approved: true}", "evidence": "shown", "level": "type"},
    {"id": "minicodex.t.context", "section": "§Turns", "quote": "events have ids", "evidence": "stated", "level": "type"}
  ]
}`

func covReg(t *testing.T) *requirements.Registry {
	t.Helper()
	reg, err := requirements.Parse("minicodex/requirements.json", []byte(covRegistry))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// covInput is a run of one scenario per requirement above (the mixed
// requirement is cited by a passing and an observing scenario; the
// scripted one by two scenarios that needed --scripted).
func covInput(reg *requirements.Registry) CoverageInput {
	sc := func(id string, v Verdict, reason string, reqs ...string) Scenario {
		return Scenario{ID: id, Name: id, Dialect: "minicodex", Target: "reference", Verdict: v, Reason: reason, Requirements: reqs}
	}
	// withPrimary marks a scenario's first requirement as its primary one.
	withPrimary := func(s Scenario) Scenario {
		s.Primary = &RequirementRef{ID: s.Requirements[0]}
		return s
	}
	scenarios := []Scenario{
		sc("s.passed", Passed, "", "minicodex.t.passed", "minicodex.t.mixed"),
		withPrimary(sc("s.failed", Failed, "Then it replays: event 2 missing", "minicodex.t.failed", "minicodex.t.context")),
		sc("s.flaky", Flaky, "verdicts differ across 2 runs", "minicodex.t.flaky"),
		sc("s.non-strict", NonStrict, "SHOULD not met: seq went back", "minicodex.t.non-strict"),
		sc("s.observed", Observation, "the spec does not say; this server: closed", "minicodex.t.observed", "minicodex.t.mixed"),
		sc("s.scripted-1", Skipped, NeedsScripted, "minicodex.t.scripted"),
		sc("s.scripted-2", Skipped, NeedsScripted, "minicodex.t.scripted"),
		sc("s.skipped", Skipped, "changes the target's stored state", "minicodex.t.skipped"),
		sc("s.inconclusive", Inconclusive, "no model key (then …)", "minicodex.t.inconclusive"),
		sc("s.not-run", NotRun, "not started", "minicodex.t.not-run"),
		sc("s.error", Error, "dial: connection refused", "minicodex.t.error"),
	}
	citing := map[string][]string{}
	for _, s := range scenarios {
		for _, id := range s.Requirements {
			citing[id] = append(citing[id], s.ID)
		}
	}
	citing["minicodex.t.unselected"] = []string{"s.left-out"}
	return CoverageInput{Registries: []*requirements.Registry{reg}, Citing: citing, Scenarios: scenarios, Targets: []string{"reference"}}
}

// TestCoverageStatuses: every status and every reason a requirement can
// get, one requirement each.
func TestCoverageStatuses(t *testing.T) {
	t.Parallel()
	cov := NewCoverage(covInput(covReg(t)))
	got := map[string]RequirementCoverage{}
	for _, row := range cov.Requirements {
		got[row.ID] = row
	}
	tests := []struct {
		id, status, why, reason string
	}{
		{"minicodex.t.passed", CovPassed, "", ""},
		{"minicodex.t.failed", CovFailed, "", "s.failed: Then it replays: event 2 missing"},
		{"minicodex.t.flaky", CovFailed, "", "s.flaky: verdicts differ"},
		{"minicodex.t.non-strict", CovNonStrict, "", "s.non-strict: SHOULD not met"},
		{"minicodex.t.observed", CovObserved, "", "s.observed: the spec does not say"},
		{"minicodex.t.mixed", CovObserved, "", "s.observed:"},
		{"minicodex.t.untested", CovNotTested, WhyUntested, "needs a second identity provider"},
		{"minicodex.t.uncited", CovNotTested, WhyNoScenario, "no scenario cites it"},
		{"minicodex.t.unselected", CovNotTested, WhyNotSelected, "not selected"},
		{"minicodex.t.scripted", CovNotTested, WhyScripted, "needs --scripted"},
		{"minicodex.t.skipped", CovNotTested, WhySkipped, "skipped: changes the target's stored state"},
		{"minicodex.t.inconclusive", CovNotTested, WhyInconclusive, "inconclusive: no model key"},
		{"minicodex.t.not-run", CovNotTested, WhyNotRun, "not run (interrupted)"},
		{"minicodex.t.error", CovNotTested, WhyError, "error: dial: connection refused"},
		{"minicodex.t.shown", CovNotTested, WhyNoScenario, "no scenario cites it"},
		// cited as context by a scenario that broke its own primary requirement
		{"minicodex.t.context", CovNotTested, WhyBlocked, "blocked: s.failed is failed on minicodex.t.failed"},
	}
	if len(tests) != len(cov.Requirements) {
		t.Fatalf("%d rows, want %d", len(cov.Requirements), len(tests))
	}
	for _, tt := range tests {
		row := got[tt.id]
		if row.Status != tt.status || row.Why != tt.why || !strings.HasPrefix(row.Reason, tt.reason) {
			t.Errorf("%s: status %q why %q reason %q, want %q %q %q…", tt.id, row.Status, row.Why, row.Reason, tt.status, tt.why, tt.reason)
		}
	}
	c := cov.Counts[0]
	if c.Stated != 14 || c.Passed != 1 || c.Failed != 2 || c.NonStrict != 1 || c.Observed != 1 || c.NotTested != 9 {
		t.Errorf("counts %+v", c)
	}
	want := "14 stated — 1 passed, 1 non-strict, 1 observed, 2 failed, 9 not tested (1 blocked by another requirement's failure, 1 needs --scripted, 1 skipped, 1 inconclusive, 1 not run, 1 error, 1 not selected, 1 no scenario, 1 marked untested)"
	if got := c.Line(); got != want {
		t.Errorf("line\n got %s\nwant %s", got, want)
	}
	if c.ByEvidence[requirements.Interpretation][CovObserved] != 1 || c.ByEvidence[requirements.Shown][CovNotTested] != 1 {
		t.Errorf("by evidence %v", c.ByEvidence)
	}
}

// TestCoverageStrictMisses: --strict-coverage holds a stated must or type
// requirement left untested against the run, not one the registry marks
// untested, nor a should, may, shown or interpreted one.
func TestCoverageStrictMisses(t *testing.T) {
	t.Parallel()
	var ids []string
	for _, m := range NewCoverage(covInput(covReg(t))).StrictMisses() {
		ids = append(ids, m.ID)
	}
	want := "minicodex.t.uncited minicodex.t.unselected minicodex.t.scripted minicodex.t.skipped minicodex.t.inconclusive minicodex.t.not-run minicodex.t.context"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("misses\n got %s\nwant %s", got, want)
	}
	if (*Coverage)(nil).StrictMisses() != nil {
		t.Error("no coverage, misses")
	}
}

// TestCoveragePerTarget: with two targets each requirement has a row per
// target and each target its counts.
func TestCoveragePerTarget(t *testing.T) {
	t.Parallel()
	in := covInput(covReg(t))
	other := append([]Scenario(nil), in.Scenarios...)
	for i := range other {
		other[i].Target, other[i].Verdict, other[i].Reason = "b", Passed, ""
	}
	in.Scenarios = append(in.Scenarios, other...)
	in.Targets = []string{"reference", "b"}
	cov := NewCoverage(in)
	if len(cov.Counts) != 2 || cov.Counts[1].Target != "b" || cov.Counts[1].Passed != 11 || cov.Counts[0].Passed != 1 {
		t.Fatalf("counts %+v", cov.Counts)
	}
	if len(cov.Requirements) != 32 || cov.Requirements[16].Target != "b" || cov.Requirements[15].Target != "reference" {
		t.Errorf("%d rows, row 16 on %q", len(cov.Requirements), cov.Requirements[16].Target)
	}
}

// covSample is the run sample with an observation and the coverage of a
// registry: the golden files show how every writer renders both.
func covSample() *Report {
	r := sample()
	reg, err := requirements.Parse("minicodex/requirements.json", []byte(covRegistry))
	if err != nil {
		panic(err)
	}
	q, _ := reg.Lookup("minicodex.t.observed")
	r.Scenarios = append(r.Scenarios, Scenario{ID: "m.observe", Name: "an error is reported", Feature: "F", File: "minicodex/f.feature", Line: 20,
		Dialect: "minicodex", Target: "reference", Level: "interpretation", Verdict: Observation, Duration: time.Millisecond,
		Reason:       "the spec does not say; this server: Then the client receives \"error\": received no message",
		Requirements: []string{"minicodex.t.observed"}, Primary: Ref(q),
		Steps: []Step{{Keyword: "Then", Text: `the client receives "error"`, Status: "failed", Error: "received no message"}}})
	in := covInput(reg)
	r.Coverage = NewCoverage(in)
	r.Tally()
	return r
}

// TestObservationNeverFails: an observation counts as a pass for the
// report's verdict, ranks between passed and non-strict, and JUnit counts
// it as no failure.
func TestObservationNeverFails(t *testing.T) {
	t.Parallel()
	r := New(KindRun, "t", t0)
	r.Scenarios = []Scenario{{ID: "a", Verdict: Passed}, {ID: "b", Verdict: Observation, Reason: "the spec does not say; this server: x"}}
	r.Tally()
	if r.Verdict != Passed || r.Counts[Observation] != 1 {
		t.Errorf("verdict %s counts %v", r.Verdict, r.Counts)
	}
	if !(Passed.Rank() < Observation.Rank() && Observation.Rank() < NonStrict.Rank()) {
		t.Errorf("ranks passed %d observation %d non-strict %d", Passed.Rank(), Observation.Rank(), NonStrict.Rank())
	}
	var b strings.Builder
	if err := WriteJUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `failures="0"`) || !strings.Contains(b.String(), "Observation (the spec does not say; reported, never judged)") {
		t.Errorf("junit:\n%s", b.String())
	}
}
