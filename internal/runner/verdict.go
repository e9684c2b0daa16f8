package runner

import (
	"errors"
	"fmt"

	"github.com/cucumber/godog"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/reports"
)

// judge gives a scenario its verdict from its steps, the errors its steps
// and hooks returned, and the check engine's findings on the frames its
// steps were about (background findings join the run's root causes
// instead). Only findings about server frames count: the scenario's own
// frames are sometimes invalid on purpose. A failed step gives the verdict
// of the scenario's level (stepVerdict): only a stated MUST-like or type
// requirement fails; a finding keeps its own severity, so an error finding
// is a stated requirement broken and fails the scenario whatever its level.
//
// When the steps failed after the target said its environment cannot do
// what the scenario needs (env, e.g. no model key), the verdict is
// inconclusive with the server's words: nothing was proven either way.
func judge(c *Case, steps []reports.Step, errs []error, findings []reports.Finding, env string) (reports.Verdict, string) {
	for _, err := range errs {
		if err != nil && isHarness(err) {
			return reports.Error, err.Error()
		}
	}
	for _, s := range steps {
		if s.Status == "undefined" {
			return reports.Error, fmt.Sprintf("step %q is not in the step vocabulary (wsconform run --steps lists it)", s.Text)
		}
		if s.Status == "pending" {
			return reports.Error, fmt.Sprintf("step %q is pending", s.Text)
		}
	}
	for _, err := range errs {
		if err != nil && errors.Is(err, godog.ErrUndefined) {
			return reports.Error, err.Error()
		}
	}
	v, reason := reports.Passed, ""
	for _, s := range steps {
		if s.Status == "failed" {
			v, reason = reports.Failed, s.Keyword+" "+s.Text+": "+s.Error
			break
		}
	}
	if v == reports.Passed {
		for _, err := range errs {
			if err != nil {
				v, reason = reports.Failed, err.Error()
				break
			}
		}
	}
	var u *Unprovable
	switch {
	case v == reports.Failed && unprovable(errs, &u):
		v, reason = reports.Inconclusive, "could not be tested on this target: "+u.Why
	case v == reports.Failed && env != "":
		v, reason = reports.Inconclusive, env+" (then "+reason+")"
	case v == reports.Failed:
		v, reason = stepVerdict(c.Level, reason)
	}
	if fv, freason := fromFindings(findings); fv.Rank() > v.Rank() {
		v, reason = fv, freason
	}
	return v, reason
}

// fromFindings judges the server's frames: an error fails the scenario, a
// warning on what the spec states or shows makes it non-strict, one that
// rests only on our reading of the spec's silence (interpretation) makes
// it an observation.
func fromFindings(findings []reports.Finding) (reports.Verdict, string) {
	v, reason := reports.Passed, ""
	for _, f := range findings {
		if f.Background || !reports.Judged(reports.KindRun, f, true) {
			continue
		}
		switch {
		case f.Severity >= check.Error:
			return reports.Failed, fmt.Sprintf("%s: %s", f.Rule, f.Message)
		case f.Severity >= check.Warning && f.Evidence == check.Interpretation:
			// our reading of the spec's silence: an observation, never non-strict
			if v == reports.Passed {
				v, reason = reports.Observation, fmt.Sprintf("the spec does not say; this server: %s: %s", f.Rule, f.Message)
			}
		case f.Severity >= check.Warning && v.Rank() < reports.NonStrict.Rank():
			v, reason = reports.NonStrict, fmt.Sprintf("%s: %s", f.Rule, f.Message)
		}
	}
	return v, reason
}

// stepVerdict is what a failed step means at a level (DESIGN.md,
// "Requirements: the spine"): "SHOULD not met" only where the spec says
// SHOULD; what the spec only shows is non-strict; what it allows (MAY)
// or leaves open is an observation, reported and never judged.
func stepVerdict(level, reason string) (reports.Verdict, string) {
	switch level {
	case LevelShould:
		return reports.NonStrict, "SHOULD not met: " + reason
	case LevelShown:
		return reports.NonStrict, "the spec only shows: " + reason
	case LevelMay:
		return reports.Observation, "the spec allows (MAY): " + reason
	case LevelInterpretation:
		return reports.Observation, "the spec does not say; this server: " + reason
	}
	return reports.Failed, reason
}

// unprovable finds the step error that says the target's answer proves
// nothing either way (Unprovable).
func unprovable(errs []error, u **Unprovable) bool {
	for _, err := range errs {
		if err != nil && errors.As(err, u) {
			return true
		}
	}
	return false
}
