package reports_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// covHarness reads the coverage card of a report like a reader: where it
// is, what it counts; then clicks the "not tested" chip and searches the
// table, writing what followed into its body's data-result.
const covHarness = `<!DOCTYPE html><html><body><iframe id="f" src="PAGE" style="width:1280px;height:900px;border:0"></iframe>
<script>
var f = document.getElementById('f'), out = {};
function done() { document.body.setAttribute('data-result', JSON.stringify(out)); }
function shown(d) { return [].slice.call(d.querySelectorAll('#cov-table tr.crow')).filter(function (r) { return r.offsetParent !== null; }).length; }
f.addEventListener('load', function () { setTimeout(function () { try {
  var w = f.contentWindow, d = f.contentDocument;
  var card = d.querySelector('#requirements .covcard');
  out.cardBottom = Math.round(card.getBoundingClientRect().bottom);
  out.viewport = w.innerHeight;
  out.tested = d.querySelector('[data-cov="tested"]').textContent;
  out.stated = d.querySelector('[data-cov="stated"]').textContent;
  out.failed = d.querySelector('[data-cov="failed"]').textContent;
  out.why = d.querySelector('#requirements .cwhy').textContent;
  out.openBefore = d.getElementById('cov-table-box').open;
  d.querySelector('button.cchip[data-cs="not-tested"]').click();
  setTimeout(function () { try {
    out.open = d.getElementById('cov-table-box').open;
    out.notTested = shown(d);
    out.counter = d.getElementById('cov-shown').textContent;
    var q = d.getElementById('cov-q'); q.value = 'scripted'; q.dispatchEvent(new Event('input'));
    out.searched = shown(d);
    done();
  } catch (e) { out.error = String(e.stack || e); done(); } }, 100);
} catch (e) { out.error = String(e.stack || e); done(); } }, 50); });
</script></body></html>`

// TestReportInBrowserCoverage: the coverage sample's page shows the
// requirements card within the first screen (how many stated requirements
// were tested, failed, and why the rest were not), and its "not tested"
// chip opens the table filtered to the 8 stated requirements not tested;
// the search narrows it further.
func TestReportInBrowserCoverage(t *testing.T) {
	b := newBrowser(t)
	dir := artifacts(t)
	html, err := os.ReadFile(filepath.Join("testdata", "coverage.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "coverage.html")
	if err := os.WriteFile(page, html, 0o644); err != nil {
		t.Fatal(err)
	}
	dom, _ := b.dom(page)
	expect(t, dom, `data-ready="1"`, `id="requirements"`)
	h := strings.Replace(covHarness, "PAGE", filepath.Base(page), 1)
	var res struct {
		CardBottom, Viewport, NotTested, Searched int
		Tested, Stated, Failed, Why, Counter      string
		OpenBefore, Open                          bool
	}
	raw := b.harness(t, filepath.Join(dir, "coverage-harness.html"), h, 10000, &res)
	t.Logf("coverage: %s", raw)
	if res.CardBottom > res.Viewport || res.Tested != "5" || res.Stated != "14" || res.Failed != "2" ||
		!strings.Contains(res.Why, "1 needs --scripted") || !strings.Contains(res.Why, "1 no scenario") {
		t.Errorf("the card: %s", raw)
	}
	if res.OpenBefore || !res.Open || res.NotTested != 9 || res.Counter != "9 of 16" || res.Searched != 1 {
		t.Errorf("the not-tested chip and the search: %s", raw)
	}
	b.screenshot(page, filepath.Join(dir, "coverage.png"), 1280, 900)
}
