package reports

import (
	"fmt"
	"strings"

	"github.com/wsconform/wsconform/internal/requirements"
)

// mdCoverage writes the requirements view: the counts line (per target),
// then the stated requirements that failed and those not tested, each
// with its reason, bounded like the failures.
func mdCoverage(b *strings.Builder, r *Report) {
	if r.Coverage == nil {
		return
	}
	b.WriteString("#### Requirements\n\n")
	for _, c := range r.Coverage.Counts {
		who := ""
		if c.Target != "" {
			who = mdText(c.Target) + ": "
		}
		fmt.Fprintf(b, "- %s**%s**\n", who, mdText(c.Line()))
	}
	b.WriteString("\n")
	var rows []string
	more := 0
	for _, row := range r.Coverage.Requirements {
		if row.Evidence != requirements.Stated || (row.Status != CovFailed && row.Status != CovNotTested) {
			continue
		}
		if len(rows) == mdMaxItems {
			more++
			continue
		}
		mark := "❌"
		if row.Status == CovNotTested {
			mark = "➖"
		}
		line := fmt.Sprintf("| %s %s | `%s` | %s | %s |", mark, row.Status, mdCodeText(row.ID), mdText(row.Section), mdText(cutRunes(row.Reason, mdMaxReason)))
		if row.Target != "" {
			line = fmt.Sprintf("| %s %s | `%s` | %s | %s | %s |", mark, row.Status, mdCodeText(row.ID), mdText(row.Target), mdText(row.Section), mdText(cutRunes(row.Reason, mdMaxReason)))
		}
		rows = append(rows, line)
	}
	if len(rows) == 0 {
		return
	}
	if r.Coverage.Counts[0].Target != "" {
		b.WriteString("| status | requirement | target | section | why |\n|---|---|---|---|---|\n")
	} else {
		b.WriteString("| status | requirement | section | why |\n|---|---|---|---|\n")
	}
	b.WriteString(strings.Join(rows, "\n") + "\n")
	if more > 0 {
		fmt.Fprintf(b, "\n… and %d more failed or not tested: see the HTML or JSON report\n", more)
	}
	b.WriteString("\n")
}

// mdObservations lists the observations: what the spec leaves open and
// the target did its own way, reported and never judged.
func mdObservations(b *strings.Builder, r *Report) {
	var lines []string
	more := 0
	for _, s := range r.Scenarios {
		if s.Verdict != Observation {
			continue
		}
		if len(lines) == mdMaxItems {
			more++
			continue
		}
		line := fmt.Sprintf("- %s `%s` %s", mdEmoji[Observation], mdCodeText(s.ID), mdText(s.Name))
		if len(r.Targets) > 1 {
			line += " (" + mdText(s.Target) + ")"
		}
		if s.Reason != "" {
			line += "  \n  " + mdText(cutRunes(s.Reason, mdMaxReason))
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "#### Observations (the spec does not say; reported, never judged)\n\n%s\n", strings.Join(lines, "\n"))
	if more > 0 {
		fmt.Fprintf(b, "- … and %d more: see the HTML report\n", more)
	}
	b.WriteString("\n")
}
