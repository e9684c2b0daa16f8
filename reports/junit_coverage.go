package reports

import (
	"fmt"
	"strings"

	"github.com/wsconform/wsconform/internal/requirements"
)

// requirementCase is one testcase of the "requirements" suite.
type requirementCase struct {
	junitCase
	suite string
}

// requirementCases are the stated requirements of a run as JUnit
// testcases, in a "requirements" suite (per target when there are
// several): failed with the scenario that broke it, skipped with why it
// was not tested, passing otherwise (non-strict and observed say so in
// system-out). A CI dashboard then counts the spec's requirements, not
// only scenarios.
func requirementCases(r *Report) []requirementCase {
	if r.Coverage == nil {
		return nil
	}
	var out []requirementCase
	for _, row := range r.Coverage.Requirements {
		if row.Evidence != requirements.Stated {
			continue
		}
		name := "requirements"
		if row.Target != "" {
			name += " @ " + row.Target
		}
		c := junitCase{Name: row.ID, Classname: row.Dialect + ".requirements", Time: "0"}
		detail := xmlSafe(requirementDetail(row))
		switch row.Status {
		case CovFailed:
			c.Failure = &junitProblem{Message: oneLine(row.Reason), Type: "requirement", Body: detail}
		case CovNotTested:
			c.Skipped = &junitProblem{Message: "not tested: " + oneLine(row.Reason)}
		case CovNonStrict, CovObserved:
			c.SystemOut = cdata(row.Status + ": " + row.Reason + "\n\n" + detail)
		}
		out = append(out, requirementCase{junitCase: c, suite: name})
	}
	return out
}

// requirementDetail is a requirement in the spec's words, with the
// scenarios that cite it.
func requirementDetail(row RequirementCoverage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s %s) %s\n%s\n", row.ID, row.Evidence, row.Level, row.Section, row.Quote)
	if len(row.Scenarios) > 0 {
		fmt.Fprintf(&b, "Scenarios: %s\n", strings.Join(row.Scenarios, ", "))
	}
	return b.String()
}
