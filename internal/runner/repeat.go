package runner

import (
	"fmt"
	"strings"

	"github.com/wsconform/wsconform/reports"
)

// mergeRepeats folds the runs of each scenario on each target (--repeat)
// into one result. When every run agrees the first run stands for them;
// when verdicts differ the scenario is flaky (an observation when they are
// only passed and observation), its reason lists each outcome, and the worst run's steps and findings are kept so the report
// shows what went wrong.
func mergeRepeats(results []reports.Scenario) []reports.Scenario {
	type key struct{ id, target string }
	runs := map[key][]reports.Scenario{}
	var order []key
	for _, s := range results {
		k := key{s.ID, s.Target}
		if _, seen := runs[k]; !seen {
			order = append(order, k)
		}
		runs[k] = append(runs[k], s)
	}
	out := make([]reports.Scenario, 0, len(order))
	for _, k := range order {
		out = append(out, merge(runs[k]))
	}
	return out
}

func merge(runs []reports.Scenario) reports.Scenario {
	if s, ok := mergeInterrupted(runs); ok {
		return s
	}
	worst := runs[0]
	same := true
	for _, s := range runs[1:] {
		if s.Verdict != runs[0].Verdict {
			same = false
		}
		if s.Verdict.Rank() > worst.Verdict.Rank() {
			worst = s
		}
	}
	if same {
		return runs[0]
	}
	var outcomes []string
	for i, s := range runs {
		o := fmt.Sprintf("run %d: %s", i+1, s.Verdict)
		if s.Reason != "" {
			o += " (" + s.Reason + ")"
		}
		outcomes = append(outcomes, o)
	}
	differ := fmt.Sprintf("verdicts differ across %d runs: %s", len(runs), strings.Join(outcomes, "; "))
	if worst.Verdict == reports.Observation {
		// passed and observation only: what the spec leaves open, done
		// sometimes, is still only an observation, never held against
		// the target as flaky
		worst.Reason = differ
		return worst
	}
	worst.Verdict = reports.Flaky
	worst.Reason = differ
	return worst
}

// mergeInterrupted folds the runs of a scenario that the user stopped
// before all of them finished: it is not-run, since fewer runs than asked
// cannot say whether it is flaky; the reason lists the runs that did
// finish, so that a failure seen before the stop is not lost.
func mergeInterrupted(runs []reports.Scenario) (reports.Scenario, bool) {
	var stopped *reports.Scenario
	var done []string
	for i := range runs {
		if runs[i].Verdict == reports.NotRun {
			if stopped == nil {
				stopped = &runs[i]
			}
			continue
		}
		done = append(done, fmt.Sprintf("run %d: %s", i+1, runs[i].Verdict))
	}
	if stopped == nil {
		return reports.Scenario{}, false
	}
	out := *stopped
	if len(done) > 0 {
		out.Reason = fmt.Sprintf("%s; %d of %d runs finished (%s)", out.Reason, len(done), len(runs), strings.Join(done, "; "))
	}
	return out, true
}
