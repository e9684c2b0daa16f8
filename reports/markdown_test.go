package reports

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportMarkdownBounded: a thousand failures give a summary that lists
// twenty, says how many more there are, and stays under its size bound.
func TestReportMarkdownBounded(t *testing.T) {
	t.Parallel()
	r := sample()
	long := strings.Repeat("why ", 500)
	base := r.Scenarios[1]
	r.Scenarios = nil
	for i := range 1000 {
		s := base
		s.ID, s.Reason = fmt.Sprintf("m.fail%d", i), long
		r.Scenarios = append(r.Scenarios, s)
	}
	r.Tally()
	var b bytes.Buffer
	if err := WriteMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if len(md) > mdMaxBytes || strings.Count(md, "\n- ❌") != mdMaxItems || !strings.Contains(md, "… and 980 more") ||
		!strings.Contains(md, "#### Failures (1000)") {
		t.Errorf("%d bytes:\n%s", len(md), md)
	}
	if strings.Contains(md, long) {
		t.Error("a reason was not cut")
	}
}

func TestReportMarkdownEscapes(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteMarkdown(&b, HostileReport()); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, bad := range []string{"<img", "<script", "</script"} {
		if strings.Contains(md, bad) {
			t.Errorf("markdown holds %q:\n%s", bad, md)
		}
	}
	if got := mdCode("a `b` c"); got != "``a `b` c``" {
		t.Errorf("mdCode: %s", got)
	}
	if got := mdText("a|b *c* [d](e) <f>\nnext"); got != `a\|b \*c\* \[d\](e) &lt;f&gt; next` {
		t.Errorf("mdText: %s", got)
	}
}

// TestReportStepSummary appends to $GITHUB_STEP_SUMMARY, and does nothing
// without it. It sets the environment, so it does not run in parallel.
func TestReportStepSummary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(path, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	if err := AppendStepSummary(sample()); err != nil {
		t.Fatalf("unset: %v", err)
	}
	t.Setenv("GITHUB_STEP_SUMMARY", path)
	for range 2 {
		if err := AppendStepSummary(sample()); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.HasPrefix(s, "earlier step\n### ❌ wsconform conformance run: failed") ||
		strings.Count(s, "### ❌") != 2 {
		t.Errorf("summary file:\n%s", s)
	}
}
