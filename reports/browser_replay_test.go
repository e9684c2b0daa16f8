package reports_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/reports"
)

// replayHarness looks at a replay report's diff of c2 in an iframe the way
// a reader does and writes what it saw as JSON into its body's
// data-result: the changed row's two sides next to each other, its member
// pointer shown, the long run of identical rows folded (its rows not laid
// out), and a click on the changed row opening both payloads
// pretty-printed.
const replayHarness = `<!DOCTYPE html><html><body><iframe id="f" src="PAGE" style="width:1200px;height:900px;border:0"></iframe>
<script>
var f = document.getElementById('f'), out = {};
function done() { document.body.setAttribute('data-result', JSON.stringify(out)); }
function fail(e) { out.error = String(e.stack || e); done(); }
// shown: laid out and not inside a closed <details> (whose content
// Chromium keeps in the layout tree, hidden).
function shown(el) { return el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0; }
f.addEventListener('load', function () { setTimeout(function () { try {
  var d = f.contentDocument, diff = d.getElementById('replay-c2');
  var row = diff.querySelector('details.rr.op-changed'), sides = row.querySelectorAll(':scope > summary > .rs');
  var a = sides[0].getBoundingClientRect(), b = sides[1].getBoundingClientRect();
  out.diffOpen = diff.open;
  out.sideBySide = Math.abs(a.top - b.top) < 1 && a.right <= b.left && a.width > 300 && b.width > 300;
  out.leftType = sides[0].querySelector('.ty').textContent;
  out.rightType = sides[1].querySelector('.ty').textContent;
  out.pointer = row.querySelector('.rmem .ptr').textContent;
  out.pointerShown = row.querySelector('.rmem').getBoundingClientRect().height > 0;
  out.missingRight = diff.querySelector('details.rr.op-missing > summary > .rs:nth-child(3)').textContent;
  out.extraLeft = diff.querySelector('details.rr.op-extra > summary > .rs:first-child').textContent;
  var run = diff.querySelector('details.rrun');
  out.runLabel = run.querySelector('summary').textContent;
  out.runOpen = run.open;
  out.runRows = run.querySelectorAll('details.rr').length;
  out.runRowHidden = !shown(run.querySelector('details.rr'));
  out.shownRows = [].filter.call(diff.querySelectorAll('details.rr'), function (r) { return shown(r); }).length;
  row.querySelector('summary').click();
  setTimeout(function () { try {
    out.rowOpen = row.open;
    out.pretty = row.querySelectorAll('pre.rpj[data-pretty] span.j-k').length;
    diff.querySelector('button[data-ract=open]').click();
    out.allOpen = diff.querySelectorAll('details.rr:not(.op-same)[open]').length;
    run.querySelector('summary').click();
    setTimeout(function () { try {
      out.runRowShown = shown(run.querySelector('details.rr'));
      done();
    } catch (e) { fail(e); } }, 50);
  } catch (e) { fail(e); } }, 100);
} catch (e) { fail(e); } }, 50); });
</script></body></html>`

// TestReportInBrowserReplay opens a replay report whose differing
// connection has 3,000 identical rows before its differences, in headless
// Chromium: the Replay section leads, the diff renders side by side, a
// changed row shows its member pointer and opens to both payloads
// pretty-printed, and the run of identical rows is folded into one line.
func TestReportInBrowserReplay(t *testing.T) {
	b := newBrowser(t)
	dir := artifacts(t)
	page := filepath.Join(dir, "replay.html")
	writePage(t, page, reports.ReplayReport(3000))
	dom, took := b.dom(page)
	initMs, _ := strconv.Atoi(attr(dom, "data-init-ms"))
	t.Logf("dump-dom of the replay report: %s, page script %d ms", took, initMs)
	expect(t, dom, `data-ready="1"`, `id="lede">2 connections replayed, 1 differs. The session passed.<`,
		`<details class="rdiff r-bad" id="replay-c2"`, `<summary>… 2998 identical frames</summary>`)
	if i, j := strings.Index(dom, `id="replay"`), strings.Index(dom, `id="items"`); i < 0 || i > j {
		t.Error("the Replay section is not above the sessions")
	}
	if regexp.MustCompile(`<details class="rdiff r-ok" id="replay-c1"[^>]* open`).MatchString(dom) {
		t.Error("the matched connection starts open")
	}

	h := strings.Replace(replayHarness, "PAGE", filepath.Base(page), 1)
	var res struct {
		DiffOpen, SideBySide, PointerShown, RunOpen, RunRowHidden, RowOpen, RunRowShown bool
		LeftType, RightType, Pointer, MissingRight, ExtraLeft, RunLabel                 string
		RunRows, ShownRows, Pretty, AllOpen                                             int
	}
	raw := b.harness(t, filepath.Join(dir, "replay-harness.html"), h, 10000, &res)
	t.Logf("replay diff: %s", raw)
	if !res.DiffOpen || !res.SideBySide || res.LeftType != "run_status" || res.RightType != "run_status" {
		t.Errorf("the changed row is not side by side: %s", raw)
	}
	if res.Pointer != "/run_id" || !res.PointerShown {
		t.Errorf("the changed row does not show its member pointer: %s", raw)
	}
	if res.MissingRight != "—" || res.ExtraLeft != "—" {
		t.Errorf("a missing row has a right side or an extra one a left: %s", raw)
	}
	if res.RunLabel != "… 2998 identical frames" || res.RunOpen || res.RunRows != 2998 || !res.RunRowHidden || res.ShownRows != 8 {
		t.Errorf("the run of identical rows is not folded: %s", raw)
	}
	if !res.RowOpen || res.Pretty < 4 || res.AllOpen != 3 || !res.RunRowShown {
		t.Errorf("opening rows and the run: %s", raw)
	}

	b.screenshot(page, filepath.Join(dir, "replay.png"), 1280, 1300)
	// A changed row opened by a link to it (the page's own navigation), in
	// an iframe: a top-level page's screenshot ignores its scroll.
	frame := filepath.Join(dir, "replay-row-frame.html")
	if err := os.WriteFile(frame, []byte(`<!DOCTYPE html><html><body style="margin:0"><iframe src="`+filepath.Base(page)+
		`#replay-c2-r3001" style="width:1260px;height:980px;border:0"></iframe></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	b.screenshot(frame, filepath.Join(dir, "replay-row.png"), 1260, 980, "--allow-file-access-from-files")
	b.screenshot(frame, filepath.Join(dir, "replay-row-dark.png"), 1260, 980, "--allow-file-access-from-files", "--force-dark-mode")
}
