package reports_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/reports"
)

// TestReportInBrowserInterrupted: the page of an interrupted run renders
// (its script ran to the end), says so above everything, and filters
// on the not-run verdict.
func TestReportInBrowserInterrupted(t *testing.T) {
	b := newBrowser(t)
	page := filepath.Join(artifacts(t), "interrupted.html")
	writePage(t, page, reports.InterruptedReport())
	dom, _ := b.dom(page)
	expect(t, dom, `data-ready="1"`, `data-shown="6"`, `<section class="notice" id="interrupted">`,
		`interrupted by the user after 4 of 6 scenarios`, `data-count="not-run">2<`, `class="chip v-not-run"`)
	dom, _ = b.dom(page + "?verdict=not-run")
	if got := attr(dom, "data-shown"); got != "2" {
		t.Errorf("?verdict=not-run: %s shown, want 2", got)
	}
	if hidden := strings.Count(dom, `<details class="item hid"`); hidden != 4 {
		t.Errorf("?verdict=not-run: %d items hidden, want 4", hidden)
	}
}
