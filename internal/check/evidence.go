package check

import (
	"fmt"
	"strings"
)

// Evidence is what the spec gives for a rule, and it caps the rule's
// severity (DESIGN.md, the evidence policy): only words or types that state
// a requirement may make a finding an error. A conformance tool that fails
// correct servers on a reading of its own is worse than none.
type Evidence string

// The three kinds of evidence.
const (
	// Stated: the spec's words require it (MUST, must, never, every), a type
	// definition declares it (a TypeScript member without ?, a Pydantic field
	// without default, a Literal or a closed union), or it guarantees it
	// ("index is monotonic"). A violation is an error.
	Stated Evidence = "stated"
	// Shown: the shape appears only in an example payload or a flow
	// diagram, or prose describes it without a type. A different shape is
	// a warning that says "the spec only shows …".
	Shown Evidence = "shown"
	// Interpretation: the spec is silent and we chose a reading. At most a
	// warning, never a failed MUST.
	Interpretation Evidence = "interpretation"
)

// Valid reports whether e is one of the three kinds.
func (e Evidence) Valid() bool { return e == Stated || e == Shown || e == Interpretation }

// MaxSeverity is the highest severity this evidence allows.
func (e Evidence) MaxSeverity() Severity {
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
	case r.Severity > r.Evidence.MaxSeverity():
		return fmt.Errorf("rule %s: severity %s needs stated evidence, it has %s", r.ID, r.Severity, r.Evidence)
	case r.Severity == Error && strings.TrimSpace(r.Quote) == "":
		return fmt.Errorf("rule %s: an error rule quotes the spec words it rests on", r.ID)
	}
	return nil
}
