package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wsconform/wsconform/internal/requirements"
)

// What a run says of one requirement (Coverage).
const (
	CovPassed    = "passed"
	CovFailed    = "failed"
	CovNonStrict = "non-strict"
	CovObserved  = "observed"
	CovNotTested = "not-tested"
)

// Why a requirement was not tested, as classes the counts group by (the
// row's Reason says it in words). They are listed in the order the
// reasons are tried: the first that applies is the reason.
const (
	WhyUntested     = "untested"     // the registry says why nothing can test it yet
	WhyNoScenario   = "no-scenario"  // no scenario of the features cites it
	WhyNotSelected  = "not-selected" // scenarios cite it, but this run left them out
	WhyScripted     = "scripted"     // every citing scenario needs --scripted
	WhyBlocked      = "blocked"      // cited only as context by scenarios that broke their own primary requirement
	WhySkipped      = "skipped"
	WhyInconclusive = "inconclusive"
	WhyNotRun       = "not-run"
	WhyError        = "error"
)

// whyOrder is the order the classes are printed in a count line.
var whyOrder = []string{WhyBlocked, WhyScripted, WhySkipped, WhyInconclusive, WhyNotRun, WhyError, WhyNotSelected, WhyNoScenario, WhyUntested}

// whyWords says a class in a count line ("38 need --scripted").
var whyWords = map[string][2]string{
	WhyUntested:     {"marked untested", "marked untested"},
	WhyNoScenario:   {"no scenario", "no scenario"},
	WhyNotSelected:  {"not selected", "not selected"},
	WhyScripted:     {"needs --scripted", "need --scripted"},
	WhyBlocked:      {"blocked by another requirement's failure", "blocked by another requirement's failure"},
	WhySkipped:      {"skipped", "skipped"},
	WhyInconclusive: {"inconclusive", "inconclusive"},
	WhyNotRun:       {"not run", "not run"},
	WhyError:        {"error", "errors"},
}

// NeedsScripted is why a scenario that needs the scripted agent is skipped
// against a foreign target (the runner's SkipScripted): coverage tells it
// apart from other skips by these words.
const NeedsScripted = "needs the scripted agent of the reference server (pass --scripted if the target follows the test-mode hints of ci/testmode.md)"

// RequirementRef is a requirement as a scenario cites it: enough to say
// what was broken, in the spec's words, and on what evidence.
type RequirementRef struct {
	ID       string                `json:"id"`
	Section  string                `json:"section,omitempty"`
	Quote    string                `json:"quote,omitempty"`
	Evidence requirements.Evidence `json:"evidence"`
	Level    requirements.Level    `json:"level"`
	Reading  string                `json:"reading,omitempty"`
}

// Ref is the part of a registry entry a report carries.
func Ref(q requirements.Requirement) *RequirementRef {
	return &RequirementRef{ID: q.ID, Section: q.Section, Quote: q.Quote, Evidence: q.Evidence, Level: q.Level, Reading: q.Reading}
}

// RequirementCoverage is one requirement (on one target, when the run had
// several) and what the run says of it.
type RequirementCoverage struct {
	RequirementRef
	Dialect string `json:"dialect"`
	Target  string `json:"target,omitempty"`
	// Status is passed, failed, non-strict, observed or not-tested.
	Status string `json:"status"`
	// Reason says why it failed (the scenario and its reason) or why it
	// was not tested; Why is the class of the latter.
	Reason string `json:"reason,omitempty"`
	Why    string `json:"why,omitempty"`
	// Scenarios are the ids of the scenarios that cite it, run or not.
	Scenarios []string `json:"scenarios,omitempty"`
}

// CoverageCounts tallies the rows of one target (Target empty when the
// run had one).
type CoverageCounts struct {
	Target string `json:"target,omitempty"`
	// Stated is how many stated requirements there are, and the rest how
	// many of them ended each way: the numbers a reader looks for.
	Stated    int `json:"stated"`
	Passed    int `json:"passed"`
	Failed    int `json:"failed"`
	NonStrict int `json:"non_strict"`
	Observed  int `json:"observed"`
	NotTested int `json:"not_tested"`
	// NotTestedWhy counts the stated requirements not tested by class.
	NotTestedWhy map[string]int `json:"not_tested_why,omitempty"`
	// ByEvidence counts every requirement (stated, shown, interpretation)
	// by evidence and status.
	ByEvidence map[requirements.Evidence]map[string]int `json:"by_evidence"`
}

// Coverage is the requirements view of a run: per requirement of the
// run's dialects, passed, failed, non-strict, observed or not tested and
// why. Every writer renders it; it is computed once, here.
type Coverage struct {
	Counts       []CoverageCounts      `json:"counts"`
	Requirements []RequirementCoverage `json:"requirements"`
}

// CoverageInput is what coverage is computed from.
type CoverageInput struct {
	// Registries are the requirement registries of the run's dialects.
	Registries []*requirements.Registry
	// Citing lists, per requirement id, every scenario of the features
	// that cites it, whether the run selected it or not.
	Citing map[string][]string
	// Scenarios are the run's results; Targets the names of its targets.
	Scenarios []Scenario
	Targets   []string
}

// NewCoverage computes the coverage of a run. A requirement is tested by
// the scenarios that cite it (primary or not) and ran: its status is the
// worst of their verdicts (failed, flaky > non-strict > observation >
// passed). Otherwise it is not tested, for the first reason of: the
// registry's own untested text, no scenario cites it, the run left its
// scenarios out, they need --scripted, were skipped, inconclusive, not
// run (interrupted) or errored.
func NewCoverage(in CoverageInput) *Coverage {
	targets := in.Targets
	if len(targets) == 0 {
		targets = []string{""}
	}
	byTarget := map[string]map[string][]*Scenario{} // target → id → results citing it
	for i := range in.Scenarios {
		s := &in.Scenarios[i]
		m := byTarget[s.Target]
		if m == nil {
			m = map[string][]*Scenario{}
			byTarget[s.Target] = m
		}
		for _, id := range s.Requirements {
			m[id] = append(m[id], s)
		}
	}
	cov := &Coverage{Requirements: []RequirementCoverage{}}
	for _, t := range targets {
		counts := CoverageCounts{ByEvidence: map[requirements.Evidence]map[string]int{}}
		if len(in.Targets) > 1 {
			counts.Target = t
		}
		for _, reg := range in.Registries {
			for _, q := range reg.Requirements {
				row := RequirementCoverage{RequirementRef: *Ref(q), Dialect: reg.Dialect, Target: counts.Target,
					Scenarios: in.Citing[q.ID]}
				judgeRequirement(&row, q, len(in.Citing[q.ID]) > 0, byTarget[t][q.ID])
				counts.add(row)
				cov.Requirements = append(cov.Requirements, row)
			}
		}
		cov.Counts = append(cov.Counts, counts)
	}
	return cov
}

// covRank orders the statuses of a tested requirement.
var covRank = map[string]int{CovPassed: 0, CovObserved: 1, CovNonStrict: 2, CovFailed: 3}

// statusOf is what a scenario's verdict says of the requirements it cites;
// "" when it did not test them.
func statusOf(v Verdict) string {
	switch v {
	case Passed:
		return CovPassed
	case Observation:
		return CovObserved
	case NonStrict:
		return CovNonStrict
	case Failed, Flaky:
		return CovFailed
	}
	return ""
}

// judgeRequirement fills a row's status and reason from the results of
// the scenarios citing it (cited: some scenario of the features does).
func judgeRequirement(row *RequirementCoverage, q requirements.Requirement, cited bool, results []*Scenario) {
	var worst, blocked *Scenario
	for _, s := range results {
		st := statusOf(s.Verdict)
		if st == "" {
			continue
		}
		if st != CovPassed && s.Primary != nil && s.Primary.ID != q.ID {
			// the scenario broke its own requirement; what it cites as
			// context was not shown to hold, nor to break
			if blocked == nil {
				blocked = s
			}
			continue
		}
		if worst == nil || covRank[st] > covRank[statusOf(worst.Verdict)] {
			worst = s
		}
	}
	if worst != nil {
		row.Status = statusOf(worst.Verdict)
		if row.Status == CovPassed {
			row.Reason = unseenEffect(results)
		} else {
			row.Reason = worst.ID + ": " + worst.Reason
			if worst.Baselined != "" {
				row.Reason += " (known failure: " + worst.Baselined + ")"
			}
		}
		return
	}
	row.Status = CovNotTested
	first := func(v Verdict) *Scenario {
		for _, s := range results {
			if s.Verdict == v {
				return s
			}
		}
		return nil
	}
	scripted := len(results) > 0
	for _, s := range results {
		scripted = scripted && s.Verdict == Skipped && s.Reason == NeedsScripted
	}
	switch {
	case blocked != nil:
		row.Why, row.Reason = WhyBlocked, fmt.Sprintf("blocked: %s is %s on %s", blocked.ID, blocked.Verdict, blocked.Primary.ID)
	case q.Untested != "":
		row.Why, row.Reason = WhyUntested, q.Untested
	case !cited:
		row.Why, row.Reason = WhyNoScenario, "no scenario cites it"
	case len(results) == 0:
		row.Why, row.Reason = WhyNotSelected, "not selected: the run's --dialect, --tags or --section left its scenarios out"
	case scripted:
		row.Why, row.Reason = WhyScripted, "needs --scripted"
	case first(Skipped) != nil:
		row.Why, row.Reason = WhySkipped, "skipped: "+first(Skipped).Reason
	case first(Inconclusive) != nil:
		row.Why, row.Reason = WhyInconclusive, "inconclusive: "+first(Inconclusive).Reason
	case first(NotRun) != nil:
		row.Why, row.Reason = WhyNotRun, "not run (interrupted)"
	default:
		s := first(Error)
		row.Why, row.Reason = WhyError, "error"
		if s != nil {
			row.Reason = "error: " + s.Reason
		}
	}
}

func (c *CoverageCounts) add(row RequirementCoverage) {
	if c.ByEvidence[row.Evidence] == nil {
		c.ByEvidence[row.Evidence] = map[string]int{}
	}
	c.ByEvidence[row.Evidence][row.Status]++
	if row.Evidence != requirements.Stated {
		return
	}
	c.Stated++
	switch row.Status {
	case CovPassed:
		c.Passed++
	case CovFailed:
		c.Failed++
	case CovNonStrict:
		c.NonStrict++
	case CovObserved:
		c.Observed++
	default:
		c.NotTested++
		if c.NotTestedWhy == nil {
			c.NotTestedWhy = map[string]int{}
		}
		c.NotTestedWhy[row.Why]++
	}
}

// Line says the counts in one line, the console's:
// "212 stated — 141 passed, 6 failed, 65 not tested (38 need --scripted,
// 19 inconclusive, 8 no scenario)".
func (c CoverageCounts) Line() string {
	parts := []string{fmt.Sprintf("%d passed", c.Passed)}
	if c.NonStrict > 0 {
		parts = append(parts, fmt.Sprintf("%d non-strict", c.NonStrict))
	}
	if c.Observed > 0 {
		parts = append(parts, fmt.Sprintf("%d observed", c.Observed))
	}
	parts = append(parts, fmt.Sprintf("%d failed", c.Failed), fmt.Sprintf("%d not tested", c.NotTested))
	line := fmt.Sprintf("%d stated — %s", c.Stated, strings.Join(parts, ", "))
	if why := c.WhyLine(); why != "" {
		line += " (" + why + ")"
	}
	return line
}

// WhyLine says why the stated requirements were not tested, the most
// actionable class first: "38 need --scripted, 8 no scenario".
func (c CoverageCounts) WhyLine() string {
	var why []string
	for _, k := range whyOrder {
		if n := c.NotTestedWhy[k]; n > 0 {
			w := whyWords[k][1]
			if n == 1 {
				w = whyWords[k][0]
			}
			why = append(why, fmt.Sprintf("%d %s", n, w))
		}
	}
	return strings.Join(why, ", ")
}

// StrictMisses are the stated MUST-like or type requirements the run did
// not test although it could have (--strict-coverage fails on them): those
// the registry marks untested, with its reason, are listed but not held
// against the run.
func (c *Coverage) StrictMisses() []RequirementCoverage {
	if c == nil {
		return nil
	}
	var out []RequirementCoverage
	for _, row := range c.Requirements {
		if row.Evidence == requirements.Stated && slices.Contains([]requirements.Level{requirements.Must, requirements.Type}, row.Level) &&
			row.Status == CovNotTested && row.Why != WhyUntested {
			out = append(out, row)
		}
	}
	return out
}

// unseenEffect says what a requirement's passes did not observe, when
// every one of them passed without observing the effect it is about (the
// protocol has no message that shows it); "" when one of them saw it.
func unseenEffect(results []*Scenario) string {
	why := ""
	for _, s := range results {
		if s.Verdict != Passed {
			continue
		}
		if s.Reason == "" {
			return ""
		}
		if why == "" {
			why = s.ID + ": " + s.Reason
		}
	}
	return why
}
