package check

import (
	"fmt"
	"strings"

	"github.com/wsconform/wsconform/internal/requirements"
)

// Evidence is what the spec gives for a rule, and it caps the rule's
// severity (DESIGN.md, the evidence policy): only words or types that state
// a requirement may make a finding an error. A conformance tool that fails
// correct servers on a reading of its own is worse than none. It is the
// requirement registry's vocabulary: one word means one thing everywhere.
type Evidence = requirements.Evidence

// The three kinds of evidence (see package requirements).
const (
	Stated         = requirements.Stated
	Shown          = requirements.Shown
	Interpretation = requirements.Interpretation
)

// MaxSeverity is the highest severity evidence e allows: only stated
// evidence may fail a target.
func MaxSeverity(e Evidence) Severity {
	if e == Stated {
		return Error
	}
	return Warning
}

// ParseEvidence reads an evidence kind by name.
func ParseEvidence(s string) (Evidence, error) {
	e := Evidence(strings.TrimSpace(s))
	if !e.Valid() {
		return "", fmt.Errorf("unknown evidence kind %q (want stated, shown or interpretation)", s)
	}
	return e, nil
}

// checkPolicy is the evidence policy for one rule: every rule names its
// evidence, a severity above what the evidence allows is a programming
// error, and an error rule quotes the words it rests on.
func checkPolicy(r Rule) error {
	switch {
	case !r.Evidence.Valid():
		return fmt.Errorf("rule %s: evidence %q is not stated, shown or interpretation", r.ID, r.Evidence)
	case r.Severity > MaxSeverity(r.Evidence):
		return fmt.Errorf("rule %s: severity %s needs stated evidence, it has %s", r.ID, r.Severity, r.Evidence)
	case r.Severity == Error && strings.TrimSpace(r.Quote) == "":
		return fmt.Errorf("rule %s: an error rule quotes the spec words it rests on", r.ID)
	}
	return nil
}
