package reports

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"
)

// InterruptedReport is the sample run stopped by the user: two more
// scenarios, one stopped while it ran (its first step passed) and one not
// started. The browser test opens it.
func InterruptedReport() *Report {
	r := sample()
	r.Scenarios = append(r.Scenarios,
		Scenario{ID: "m.held", Name: "was running", Dialect: "minicodex", Target: "reference", Level: "must", Verdict: NotRun,
			Reason: "stopped while it ran", Duration: time.Second,
			Steps: []Step{{Keyword: "Given", Text: "a client connects", Status: "passed"},
				{Keyword: "Then", Text: `the client receives "x"`, Status: "failed", Error: "scenario stopped: context canceled"}}},
		Scenario{ID: "m.later", Name: "never started", Dialect: "minicodex", Target: "reference", Level: "must", Verdict: NotRun,
			Reason: "not started"})
	r.MarkInterrupted("the user")
	r.Tally()
	return r
}

func TestMarkInterrupted(t *testing.T) {
	t.Parallel()
	r := InterruptedReport()
	const said = "interrupted by the user after 4 of 6 scenarios"
	if r.Interrupted != said || r.Counts[NotRun] != 2 || r.Verdict != Failed {
		t.Errorf("%q, counts %v, verdict %s", r.Interrupted, r.Counts, r.Verdict)
	}
	if got := r.Scenarios[4].Reason; got != said+": stopped while it ran" {
		t.Errorf("reason %q", got)
	}
	if sample().MarkInterrupted("the user") {
		t.Error("a run whose scenarios all finished is marked interrupted")
	}
}

// TestNotRunRank: an interrupted run never reads as a pass, and a failure
// seen before the stop still shows.
func TestNotRunRank(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ other, want Verdict }{
		{Passed, NotRun}, {Skipped, NotRun}, {NonStrict, NotRun}, {Inconclusive, NotRun},
		{Flaky, Flaky}, {Failed, Failed}, {Error, Error},
	} {
		r := New(KindRun, "t", t0)
		r.Scenarios = []Scenario{{ID: "a", Verdict: c.other}, {ID: "b", Verdict: NotRun}}
		r.Tally()
		if r.Verdict != c.want {
			t.Errorf("%s and not-run: %s, want %s", c.other, r.Verdict, c.want)
		}
	}
}

// TestInterruptedWriters: every writer says the run was interrupted, and
// shows the not-run scenarios as such (JUnit: skipped, with why).
func TestInterruptedWriters(t *testing.T) {
	t.Parallel()
	r := InterruptedReport()
	const said = "interrupted by the user after 4 of 6 scenarios"
	var ju bytes.Buffer
	if err := WriteJUnit(&ju, r); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Skipped int `xml:"skipped,attr"`
		Errors  int `xml:"errors,attr"`
	}
	if err := xml.Unmarshal(ju.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	if parsed.Skipped != 4 || parsed.Errors != 0 || strings.Count(ju.String(), `<skipped message="not run: `+said+`: `) != 2 {
		t.Errorf("JUnit: %d skipped, %d errors:\n%s", parsed.Skipped, parsed.Errors, ju.String())
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "**Interrupted by the user after 4 of 6 scenarios**") || !strings.Contains(md.String(), "| reference | 1 | 0 | 2 | 0 | 0 | 1 | 2 | 0 |") {
		t.Errorf("Markdown:\n%s", md.String())
	}
	var h bytes.Buffer
	if err := WriteHTML(&h, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<section class="notice" id="interrupted">`, said, `data-count="not-run">2<`, "2 not run", "<b>Not run:</b> " + said} {
		if !strings.Contains(h.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"interrupted":"`+said+`"`) && !strings.Contains(js.String(), `"interrupted": "`+said+`"`) {
		t.Errorf("JSON lacks the interruption")
	}
}
