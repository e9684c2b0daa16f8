package reports

import (
	"fmt"
	"strings"

	"github.com/wsconform/wsconform/internal/requirements"
)

// covView is the requirements section of the page: a card of counts per
// target (how many stated requirements were tested, passed, failed, not
// tested and why, readable in seconds), then the table of every
// requirement, filterable by status, evidence, level and text.
type covView struct {
	Cards    []covCard
	Rows     []RequirementCoverage
	Multi    bool
	Dialects []string
}

// covCard is the counts of one target.
type covCard struct {
	CoverageCounts
	Tested int
	Segs   []covSeg
	Chips  []covSeg
	Why    string
	// Others says what became of the shown and interpreted requirements,
	// which are not counted against anything.
	Others []string
}

type covSeg struct {
	Status string
	N      int
	Word   string
}

// covStatuses is the order statuses show in, best first.
var covStatuses = []string{CovPassed, CovObserved, CovNonStrict, CovFailed, CovNotTested}

func newCovView(c *Coverage) *covView {
	if c == nil {
		return nil
	}
	v := &covView{Rows: c.Requirements, Multi: len(c.Counts) > 1}
	seen := map[string]bool{}
	for _, row := range c.Requirements {
		if !seen[row.Dialect] {
			seen[row.Dialect] = true
			v.Dialects = append(v.Dialects, row.Dialect)
		}
	}
	if len(v.Dialects) < 2 {
		v.Dialects = nil
	}
	for _, counts := range c.Counts {
		card := covCard{CoverageCounts: counts, Tested: counts.Passed + counts.Failed + counts.NonStrict + counts.Observed, Why: counts.WhyLine()}
		n := map[string]int{CovPassed: counts.Passed, CovObserved: counts.Observed, CovNonStrict: counts.NonStrict,
			CovFailed: counts.Failed, CovNotTested: counts.NotTested}
		for _, st := range covStatuses {
			seg := covSeg{Status: st, N: n[st], Word: strings.ReplaceAll(st, "-", " ")}
			if seg.N > 0 {
				card.Segs = append(card.Segs, seg)
			}
			if seg.N > 0 || st == CovPassed || st == CovFailed || st == CovNotTested {
				card.Chips = append(card.Chips, seg)
			}
		}
		for _, ev := range []requirements.Evidence{requirements.Shown, requirements.Interpretation} {
			by := counts.ByEvidence[ev]
			total := 0
			var parts []string
			for _, st := range covStatuses {
				if by[st] > 0 {
					total += by[st]
					parts = append(parts, fmt.Sprintf("%d %s", by[st], strings.ReplaceAll(st, "-", " ")))
				}
			}
			if total > 0 {
				card.Others = append(card.Others, fmt.Sprintf("%d %s (%s)", total, ev, strings.Join(parts, ", ")))
			}
		}
		v.Cards = append(v.Cards, card)
	}
	return v
}
