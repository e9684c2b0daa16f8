package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func init() {
	// Tests must not write into the job summary of the CI running them;
	// TestValidateStepSummary sets its own.
	os.Unsetenv("GITHUB_STEP_SUMMARY")
}

// TestValidateReports: --html, --junit and --markdown write the sessions
// of every file through the report model: connections with their reconnect
// lineage, findings linked to frames, and the wire log.
func TestValidateReports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	html, junit, md := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.md")
	code, stdout, _ := wsconform(t, "validate", "--html", html, "--junit", junit, "--markdown", md,
		"testdata/minicodex-planted.jsonl", "testdata/minicodex-capture.har")
	if code != exitFail {
		t.Fatalf("exit %d, want %d\n%s", code, exitFail, stdout)
	}
	if !strings.Contains(stdout, "minicodex.replay-mismatch") {
		t.Errorf("the console output changed:\n%s", stdout)
	}
	page := read(t, html)
	for _, want := range []string{
		`<details class="item" id="session-s1" data-n="0" data-verdict="failed"`,
		`<details class="item" id="session-s1~2" data-n="1" data-verdict="passed"`, // the HAR's session, named by its welcome
		`↳ <b>c2</b> <span class="dim">reconnects c1</span>`,
		`href="#session-s1-f14"`,                             // the replay finding links to its frame…
		`related: <a class="fl rel" href="#session-s1-f10">`, // …and to the original
		`"a":"session-s1","s":"event_id"`,                    // the wire log, for the page's script
		`data-count="failed">1<`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	if n := strings.Count(page, `,"c1","s2c","text","`); n != 9 {
		t.Errorf("%d server frames of c1 in the wire log, want 9", n)
	}
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(read(t, junit)), &suites); err != nil {
		t.Fatalf("junit: %v", err)
	}
	// A session per file, and the root causes of the planted file beside
	// its suite (reports.WriteJUnit).
	if len(suites.Suites) < 2 || suites.Suites[0].Name != "minicodex @ testdata/minicodex-capture.har" ||
		suites.Suites[0].Cases[0].Name != "session s1 (testdata/minicodex-capture.har)" || suites.Suites[0].Cases[0].Failure != nil {
		t.Fatalf("junit: %+v", suites)
	}
	f := suites.Suites[1].Cases[0].Failure
	if suites.Suites[1].Name != "minicodex @ testdata/minicodex-planted.jsonl" || f == nil ||
		!strings.Contains(f.Message, "minicodex.event-id-order") || !strings.Contains(f.Body, "c2 ws://127.0.0.1:7337/ws (reconnects c1)") {
		t.Errorf("junit failure: %+v", suites.Suites[1])
	}
	summary := read(t, md)
	for _, want := range []string{"### ❌ wsconform recording validation: failed", "**session `s1`** in testdata/minicodex-planted.jsonl",
		"`minicodex.replay-mismatch` frame 14"} {
		if !strings.Contains(summary, want) {
			t.Errorf("markdown lacks %q:\n%s", want, summary)
		}
	}
}

// TestValidateReportUnreadable: a file that cannot be read is a harness
// error of the report, and the other files are still reported.
func TestValidateReportUnreadable(t *testing.T) {
	t.Parallel()
	html := filepath.Join(t.TempDir(), "r.html")
	code, _, _ := wsconform(t, "validate", "--html", html, "testdata/minicodex-clean.jsonl", "testdata/no-such-file.jsonl")
	if code != exitHarness {
		t.Fatalf("exit %d, want %d", code, exitHarness)
	}
	page := read(t, html)
	if !strings.Contains(page, `data-verdict="error"`) || !strings.Contains(page, "no-such-file.jsonl") ||
		!strings.Contains(page, `data-verdict="passed"`) {
		t.Errorf("the report of a missing file:\n%.3000s", page)
	}
}

// TestValidateStepSummary: with $GITHUB_STEP_SUMMARY set, validate appends
// its Markdown summary there, report flags or not.
func TestValidateStepSummary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", path)
	if code, _, _ := wsconform(t, "validate", "testdata/minicodex-clean.jsonl"); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if s := read(t, path); !strings.HasPrefix(s, "### ✅ wsconform recording validation: passed") {
		t.Errorf("summary:\n%s", s)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
