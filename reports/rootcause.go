package reports

import (
	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// RootCause is one distinct problem of the target, however many scenarios
// or frames showed it: the findings of one rule on one message type (and
// member) from one side, listed once with their count. A single deviation
// of a server (a null where a string is expected, in a message every
// scenario receives) is one root cause, not the failure of every scenario
// that happened to receive it.
type RootCause struct {
	Rule     string         `json:"rule"`
	Severity check.Severity `json:"severity"`
	Evidence check.Evidence `json:"evidence,omitempty"`
	Spec     string         `json:"spec,omitempty"`
	Quote    string         `json:"quote,omitempty"`
	Type     string         `json:"type,omitempty"`
	Pointer  string         `json:"pointer,omitempty"`
	Dir      wire.Direction `json:"dir,omitempty"`
	// Message, Expected and Actual are those of the first finding.
	Message  string `json:"message"`
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
	// Count is how many findings the root cause groups.
	Count int `json:"count"`
	// First locates the first finding: a scenario id (with target) or a
	// session id, and the frame index there.
	First RootCauseRef `json:"first"`
	// Scenarios are the scenarios (id, and target when several) whose
	// traffic showed it; Sessions the proxy's or a recording's sessions.
	Scenarios []string `json:"scenarios,omitempty"`
	Sessions  []string `json:"sessions,omitempty"`
	// Background is set when some of its findings were on frames no step
	// of their scenario was about: no scenario's verdict carries them, so
	// the root cause decides the report's verdict itself.
	Background bool `json:"background,omitempty"`
	// Step is set when the root cause groups step failures (stepcause.go)
	// rather than findings: Rule is "step", Count the scenarios.
	Step *StepCause `json:"step,omitempty"`
}

// RootCauseRef names the place of a finding in a report.
type RootCauseRef struct {
	Scenario string `json:"scenario,omitempty"`
	Target   string `json:"target,omitempty"`
	Session  string `json:"session,omitempty"`
	Frame    int64  `json:"frame"`
}

// Verdict is what a root cause does to the report: an error fails it, a
// warning makes it non-strict.
func (rc RootCause) Verdict() Verdict {
	switch {
	case rc.Severity >= check.Error:
		return Failed
	case rc.Severity >= check.Warning:
		return NonStrict
	}
	return Passed
}

// rootKey groups findings: rule, side, message type and the member with
// its array indexes generalised.
type rootKey struct {
	rule, typ, ptr string
	dir            wire.Direction
}

// groupRootCauses collects the judged findings of the report's scenarios
// and sessions into root causes, worst first, then by count.
func (r *Report) groupRootCauses() []RootCause {
	byKey := map[rootKey]*RootCause{}
	var order []rootKey
	add := func(f Finding, ref RootCauseRef, where string, scenario bool) *RootCause {
		if f.Severity < check.Warning {
			return nil
		}
		k := rootKeyOf(f)
		rc, ok := byKey[k]
		if !ok {
			rc = &RootCause{Rule: f.Rule, Severity: f.Severity, Evidence: f.Evidence, Spec: f.Spec, Quote: f.Quote,
				Type: f.Type, Pointer: dialect.GenericPointer(f.Pointer), Dir: f.Dir, Message: f.Message, Expected: f.Expected, Actual: f.Actual,
				First: ref}
			byKey[k] = rc
			order = append(order, k)
		}
		rc.Count++
		if f.Severity > rc.Severity {
			rc.Severity = f.Severity
		}
		list := &rc.Sessions
		if scenario {
			list = &rc.Scenarios
		}
		if n := len(*list); n == 0 || (*list)[n-1] != where {
			*list = append(*list, where)
		}
		return rc
	}
	multi := len(r.Targets) > 1
	for _, s := range r.Scenarios {
		where := s.ID
		if multi {
			where += " [" + s.Target + "]"
		}
		for _, f := range s.Findings {
			if !r.Judged(f, true) {
				continue
			}
			if rc := add(f, RootCauseRef{Scenario: s.ID, Target: s.Target, Frame: f.Frame}, where, true); rc != nil && f.Background {
				rc.Background = true
			}
		}
	}
	for _, s := range r.Sessions {
		for _, f := range s.Findings {
			if r.Judged(f, false) {
				add(f, RootCauseRef{Session: s.ID, Frame: f.Frame}, s.ID, false)
			}
		}
	}
	out := make([]RootCause, 0, len(order))
	for _, k := range order {
		out = append(out, *byKey[k])
	}
	out = append(out, r.groupStepCauses()...)
	sortRootCauses(out)
	return out
}
