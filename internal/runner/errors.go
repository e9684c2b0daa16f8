package runner

import (
	"errors"
	"fmt"
)

// Failure is a step that found the target wrong: it carries what the
// step expected and what it saw, as h2spec's failures do.
type Failure struct {
	Msg      string
	Expected string
	Actual   string
}

func (f *Failure) Error() string {
	s := f.Msg
	if f.Expected != "" || f.Actual != "" {
		s += fmt.Sprintf("\n  expected: %s\n  actual:   %s", f.Expected, f.Actual)
	}
	return s
}

func failf(expected, actual, format string, args ...any) error {
	return &Failure{Msg: fmt.Sprintf(format, args...), Expected: expected, Actual: actual}
}

// HarnessError is a problem that says nothing about the target's
// conformance: the network failed, a feature file is wrong, a step is
// misused. It makes the scenario's verdict "error".
type HarnessError struct{ Err error }

func (e *HarnessError) Error() string { return e.Err.Error() }
func (e *HarnessError) Unwrap() error { return e.Err }

func harnessf(format string, args ...any) error {
	return &HarnessError{Err: fmt.Errorf(format, args...)}
}

// isHarness reports whether err is a harness problem rather than a
// conformance failure.
func isHarness(err error) bool {
	var h *HarnessError
	return errors.As(err, &h)
}

// Unprovable is a step that found the target's answer proves nothing
// about the requirement either way: it refused for another reason (busy, a
// disabled feature, an unknown session), or the effect the scenario is
// about never became observable. The scenario is inconclusive with Why,
// never passed (a vacuous pass) and never failed (a false alarm).
type Unprovable struct{ Why string }

func (u *Unprovable) Error() string { return u.Why }

func unprovablef(format string, args ...any) error {
	return &Unprovable{Why: fmt.Sprintf(format, args...)}
}
