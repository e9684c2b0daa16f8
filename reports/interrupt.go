package reports

import "fmt"

// MarkInterrupted records that the user (by: "the user", "SIGTERM")
// stopped a run before every scenario finished: Interrupted says after how
// many, and the reason of each not-run scenario starts with it, so that
// every writer (a JUnit skipped message, the HTML item, the Markdown
// summary) says why it did not run. It reports whether any scenario was
// not run; a run whose scenarios all finished is not marked.
func (r *Report) MarkInterrupted(by string) bool {
	notRun := 0
	for _, s := range r.Scenarios {
		if s.Verdict == NotRun {
			notRun++
		}
	}
	if notRun == 0 {
		return false
	}
	total := len(r.Scenarios)
	r.Interrupted = fmt.Sprintf("interrupted by %s after %d of %d %s", by, total-notRun, total, pluralWord(total, "scenario"))
	for i := range r.Scenarios {
		if s := &r.Scenarios[i]; s.Verdict == NotRun {
			if s.Reason == "" {
				s.Reason = r.Interrupted
			} else {
				s.Reason = r.Interrupted + ": " + s.Reason
			}
		}
	}
	return true
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
