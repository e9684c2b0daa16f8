package reports_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/reports"
)

// The browser tests run one at a time (not in parallel): each Chromium
// takes a core, and other packages' timing tests run beside them.

// browserTimeout bounds every Chromium run.
const browserTimeout = 90 * time.Second

// browser runs headless Chromium on report pages.
type browser struct {
	t   *testing.T
	bin string
	dir string // profile and scratch
}

// newBrowser finds Chromium. Without it the test fails (CI installs it,
// see .ci/run), unless WSCONFORM_SKIP_BROWSER is set.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	names := []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}
	if env := os.Getenv("WSCONFORM_CHROMIUM"); env != "" {
		names = []string{env}
	}
	bin := ""
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if os.Getenv("WSCONFORM_SKIP_BROWSER") != "" {
			t.Skip("no Chromium, and WSCONFORM_SKIP_BROWSER is set")
		}
		t.Fatal("the report's browser test needs headless Chromium: install it (Debian: apt-get install chromium; " +
			".ci/run does it), point WSCONFORM_CHROMIUM at it, or set WSCONFORM_SKIP_BROWSER=1 to skip this test")
	}
	return &browser{t: t, bin: bin, dir: t.TempDir()}
}

// run starts Chromium with args, bounded by browserTimeout, and returns
// its stdout and how long it took.
func (b *browser) run(args ...string) ([]byte, time.Duration) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), browserTimeout)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
		"--disable-extensions", "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
		"--user-data-dir=" + filepath.Join(b.dir, "profile")}
	cmd := exec.CommandContext(ctx, b.bin, append(base, args...)...)
	killGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if ctx.Err() != nil {
		b.t.Fatalf("chromium %v: no answer within %s\n%s", args, browserTimeout, tail(errb.String()))
	}
	if err != nil {
		b.t.Fatalf("chromium %v: %v\n%s", args, err, tail(errb.String()))
	}
	return out.Bytes(), took
}

// dom loads page (a file path, with an optional ?query#fragment) and
// returns the DOM after its scripts ran.
func (b *browser) dom(page string) (string, time.Duration) {
	b.t.Helper()
	out, took := b.run("--virtual-time-budget=5000", "--window-size=1280,1600", "--dump-dom", fileURL(page))
	return string(out), took
}

// screenshot saves a PNG of page.
func (b *browser) screenshot(page, png string, width, height int, extra ...string) {
	b.t.Helper()
	args := append([]string{"--virtual-time-budget=5000", fmt.Sprintf("--window-size=%d,%d", width, height),
		"--screenshot=" + png}, extra...)
	b.run(append(args, fileURL(page))...)
	if st, err := os.Stat(png); err != nil || st.Size() < 1000 {
		b.t.Fatalf("no screenshot at %s: %v", png, err)
	}
	b.t.Logf("screenshot: %s", png)
}

// harness writes a harness page (html) to path and runs it in the
// browser, with virtual time budgetMS, until its script puts its result on
// the body's data-result: JSON, decoded into res, and returned as text
// for the test's messages. A harness that did not finish, or that reports
// an Error, fails the test.
func (b *browser) harness(t *testing.T, path, html string, budgetMS int, res any) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := b.run("--allow-file-access-from-files", fmt.Sprintf("--virtual-time-budget=%d", budgetMS),
		"--window-size=1280,1000", "--dump-dom", fileURL(path))
	m := harnessResult.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("the harness did not finish:\n%s", tail(string(out)))
	}
	raw := strings.NewReplacer("&quot;", `"`, "&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(m[1])
	var failed struct{ Error string }
	if err := json.Unmarshal([]byte(raw), &failed); err != nil {
		t.Fatalf("harness result %s: %v", raw, err)
	}
	if failed.Error != "" {
		t.Fatalf("the harness failed: %s", failed.Error)
	}
	if err := json.Unmarshal([]byte(raw), res); err != nil {
		t.Fatalf("harness result %s: %v", raw, err)
	}
	return raw
}

var harnessResult = regexp.MustCompile(`data-result="([^"]*)"`)

func fileURL(page string) string {
	path, rest, _ := strings.Cut(page, "?")
	if rest != "" {
		rest = "?" + rest
	} else if p, frag, ok := strings.Cut(path, "#"); ok {
		path, rest = p, "#"+frag
	}
	abs, _ := filepath.Abs(path)
	return (&url.URL{Scheme: "file", Path: abs}).String() + rest
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// artifacts is where pages and screenshots are kept: $WSCONFORM_ARTIFACTS
// when set (CI uploads it), else a temporary directory.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("WSCONFORM_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writePage(t *testing.T, path string, r *reports.Report) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := reports.WriteHTML(f, r); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("report: %s", path)
}

// realRun runs a few minicodex scenarios against two reference servers
// side by side: a clean one and one told to alter an event when it
// replays it, so one scenario fails with a replay finding.
func realRun(t *testing.T) *reports.Report {
	t.Helper()
	ctx := context.Background()
	start := func(name string, mutate []string) runner.Target {
		srv, target, err := runner.StartReference(ctx, []string{"minicodex"}, mutate)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
		target.Name = name
		return target
	}
	targets := []runner.Target{start("reference", nil), start("mutated", []string{"minicodex-replay-alters-payload"})}
	started := time.Now()
	tags := "@id:minicodex.connect.hello-welcome-snapshot,@id:minicodex.send.turn,@id:minicodex.errors.invalid-command-not-json," +
		"@id:minicodex.resume.replay-after-refresh"
	res, err := runner.Run(ctx, runner.Options{Dialects: []string{"minicodex"}, Targets: targets, Vars: runner.ReferenceVars(), Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	r := reports.New(reports.KindRun, "wsconform browser-test", started)
	r.Finished = time.Now()
	r.Scenarios = res
	r.Dialects = []string{"minicodex"}
	r.Command = "wsconform run --dialect minicodex --tags '" + tags + "'"
	for _, tg := range targets {
		r.Targets = append(r.Targets, reports.Target{Name: tg.Name, URL: tg.URL, Reference: true})
	}
	for i := range r.Scenarios {
		if s := &r.Scenarios[i]; s.Verdict == reports.Failed {
			s.Rerun = "wsconform run --dialect minicodex --mutate minicodex-replay-alters-payload --tags @id:" + s.ID
		}
	}
	r.Tally()
	return r
}

// TestReportInBrowser opens the page of a real run in headless Chromium and
// checks the DOM after its scripts ran: the counts, the failed scenario
// open with its finding linked to the offending frame (highlighted) and to
// the original (its side-by-side diff drawn), the filters driven from the
// URL, and navigation to a frame that was not rendered yet.
func TestReportInBrowser(t *testing.T) {
	b := newBrowser(t)
	dir := artifacts(t)
	r := realRun(t)
	if r.Verdict != reports.Failed || r.Counts[reports.Failed] != 1 || len(r.Scenarios) != 8 {
		for _, s := range r.Scenarios {
			t.Logf("%s [%s] %s %s", s.ID, s.Target, s.Verdict, s.Reason)
		}
		t.Fatalf("the run: %s %v, want 1 failure in 8 scenarios", r.Verdict, r.Counts)
	}
	page := filepath.Join(dir, "report.html")
	writePage(t, page, r)
	failed := "s-mutated-minicodex.resume.replay-after-refresh"

	dom, took := b.dom(page)
	t.Logf("dump-dom of the run report: %s", took)
	expect(t, dom, `data-ready="1"`, `data-shown="8"`, `data-count="failed">1<`, `data-count="passed">7<`,
		`<details class="item" id="`+failed+`"`, `<table class="jd">`)
	// The finding links to its frame; the script rendered that row,
	// highlighted it as an error and opened its payload.
	link := regexp.MustCompile(`<a class="fl" href="#(` + regexp.QuoteMeta(failed) + `-f(\d+))">frame #(\d+)</a>`).FindStringSubmatch(dom)
	if link == nil || link[2] != link[3] {
		t.Fatalf("no finding linked to a frame of %s", failed)
	}
	if cls := rowClass(dom, link[1]); !strings.Contains(cls, "bad-2") {
		t.Errorf("the offending frame %s: row class %q, want it highlighted (bad-2)", link[1], cls)
	}
	expect(t, dom, `<div class="fx" data-for="`+link[2]+`">`, `<span class="j-k">"ts"</span>`)
	rel := regexp.MustCompile(`<a class="fl rel" href="#([^"]+)">`).FindStringSubmatch(dom)
	if rel == nil || !strings.Contains(rowClass(dom, rel[1]), "rel") {
		t.Errorf("the related (original) frame is not marked")
	}
	if n := strings.Count(dom, `class="v v-failed"`); n < 2 { // the matrix cell and the item
		t.Errorf("%d failed badges", n)
	}

	// Filters from the URL: verdict, text in a payload only the mutated
	// replay carries, severity with target, and nothing.
	for _, c := range []struct {
		query string
		shown int
	}{
		{"verdict=failed", 1},
		{"q=" + url.QueryEscape("1970-01-01T00:00:00.000Z"), 1},
		{"severity=error&target=reference", 0},
		{"verdict=passed,non-strict&dialect=minicodex", 7},
		{"q=no+such+text+anywhere", 0},
	} {
		dom, _ := b.dom(page + "?" + c.query)
		if got := attr(dom, "data-shown"); got != strconv.Itoa(c.shown) {
			t.Errorf("?%s: %s shown, want %d", c.query, got, c.shown)
		}
		if hidden := strings.Count(dom, `<details class="item hid"`); hidden != 8-c.shown {
			t.Errorf("?%s: %d items hidden, want %d", c.query, hidden, 8-c.shown)
		}
	}

	// A link to a frame of a closed, unrendered scenario opens it and
	// renders up to that frame.
	passing := "s-reference-minicodex.send.turn"
	dom, _ = b.dom(page + "#" + passing + "-f5")
	if cls := rowClass(dom, passing+"-f5"); !strings.HasPrefix(cls, "wr fr ") {
		t.Errorf("navigating to frame 5 of %s: row class %q", passing, cls)
	}
	expect(t, dom, `<details class="item" id="`+passing+`" data-n="`, `<div class="fx" data-for="5">`)

	// The replay the mutated target altered is a root cause, listed once
	// above the matrix, its first frame linked.
	roots := regexp.MustCompile(`(?s)<section class="roots" id="root-causes">.*?</section>`).FindString(dom)
	if !strings.Contains(roots, `<code class="rule">minicodex.replay-mismatch</code>`) ||
		!strings.Contains(roots, `<a class="fl first" href="#`+failed+`-f`) || strings.Index(dom, `id="root-causes"`) > strings.Index(dom, `id="matrix"`) {
		t.Errorf("the root causes section:\n%s", roots)
	}

	interact(t, b, page, failed)

	b.screenshot(page, filepath.Join(dir, "report.png"), 1280, 1800)
	b.screenshot(page+"?verdict=failed", filepath.Join(dir, "report-failed.png"), 1280, 2600)
	b.screenshot(page+"?verdict=failed", filepath.Join(dir, "report-failed-dark.png"), 1280, 2600, "--force-dark-mode")
}

// TestReportInBrowserHostile: payloads, names and findings full of markup
// are shown as text; none of it runs.
func TestReportInBrowserHostile(t *testing.T) {
	b := newBrowser(t)
	dir := artifacts(t)
	page := filepath.Join(dir, "hostile.html")
	writePage(t, page, reports.HostileReport())
	dom, _ := b.dom(page)
	expect(t, dom, `data-ready="1"`)
	if regexp.MustCompile(`<body[^>]*data-pwned`).MatchString(dom) || strings.Contains(dom, "<title>pwned") {
		t.Fatal("a payload ran as script")
	}
	if regexp.MustCompile(`<img[\s>]`).MatchString(dom) {
		t.Error("a payload became an <img> element")
	}
	// The offending frame carrying the markup was rendered, as text.
	if cls := rowClass(dom, "s-reference-m.fail-f3"); !strings.Contains(cls, "bad-2") {
		t.Errorf("hostile frame row: class %q", cls)
	}
	expect(t, dom, `&lt;img src=x onerror=`, `&lt;/script&gt;&lt;script&gt;document.title`)
	b.screenshot(page, filepath.Join(dir, "hostile.png"), 1280, 2000)
}

// TestReportInBrowserLarge: a report of 9,000 frames (one session of 5,000)
// opens at once, and a link to its 4,900th frame renders up to it.
func TestReportInBrowserLarge(t *testing.T) {
	b := newBrowser(t)
	dir := artifacts(t)
	page := filepath.Join(dir, "large.html")
	start := time.Now()
	writePage(t, page, reports.BigReport(5000))
	st, _ := os.Stat(page)
	t.Logf("WriteHTML of 9,000 frames: %s, %d KiB", time.Since(start), st.Size()>>10)
	dom, took := b.dom(page)
	initMs, _ := strconv.Atoi(attr(dom, "data-init-ms"))
	t.Logf("chromium --dump-dom: %s wall, page script %d ms", took, initMs)
	expect(t, dom, `data-ready="1"`, `data-shown="41"`, `Showing 500 of 5000 frames.`)
	if initMs > 3000 {
		t.Errorf("the page script took %d ms to start", initMs)
	}
	dom, took = b.dom(page + "#session-long-f4900")
	initMs, _ = strconv.Atoi(attr(dom, "data-init-ms"))
	t.Logf("… with #session-long-f4900: %s wall, page script %d ms", took, initMs)
	if cls := rowClass(dom, "session-long-f4900"); !strings.Contains(cls, "fr") {
		t.Errorf("frame 4900 not rendered: %q", cls)
	}
	b.screenshot(page, filepath.Join(dir, "large.png"), 1280, 1800)
}

// harness drives a report page in an iframe (Chromium treats file: pages
// as one origin with --allow-file-access-from-files) the way a reader
// does, and writes what it saw as JSON into its body's data-result.
const harness = `<!DOCTYPE html><html><body><iframe id="f" src="PAGE" style="width:1200px;height:900px;border:0"></iframe>
<script>
var f = document.getElementById('f'), out = {}, d, w;
function done() { document.body.setAttribute('data-result', JSON.stringify(out)); }
function later(ms, fn) { setTimeout(function () { try { fn(); } catch (e) { out.error = String(e.stack || e); done(); } }, ms); }
function ytop(el) { return el.getBoundingClientRect().top; }
function search(q) { var i = d.getElementById('f-q'); i.value = q; i.dispatchEvent(new Event('input')); }
// at is the element at the top of the viewport (under the sticky toolbar)
// and where it is: what the reader looks at.
function at() {
  var y = d.getElementById('toolbar').getBoundingClientRect().bottom + 6;
  var hit = d.elementFromPoint(300, y);
  var el = (hit && hit.closest('.fr, .fx, tr, .finding, li, p, h2, h3, summary, details.item, section')) || d.body;
  return { el: el, y: ytop(el), what: el.tagName + '.' + el.className };
}
function moved(a) { return ytop(a.el) - a.y; }
f.addEventListener('load', function () { later(50, function () {
  w = f.contentWindow; d = f.contentDocument;
  var last = d.getElementById('LAST');
  w.scrollTo(0, ytop(last) + w.scrollY - d.getElementById('toolbar').offsetHeight - 2);
  out.scrolled = w.scrollY > 0;
  var a = at();
  out.anchor = a.what;
  search('minicodex.send.turn');          // hides the items above LAST, and most below
  later(600, function () {
    out.searchShown = d.body.dataset.shown;
    out.searchDelta = moved(a);
    a = at();
    d.querySelector('button[data-act=clear]').click();
    out.clearDelta = moved(a);
    out.clearShown = d.body.dataset.shown;
    w.scrollBy(0, 700);
    a = at();
    d.querySelector('button[data-act=expand]').click();
    out.expandDelta = moved(a);
    out.open = d.querySelectorAll('details.item[open]').length;
    later(300, function () {
      var failed = d.getElementById('FAILED'), link = failed.querySelector(':scope > .body > .finding a.fl');
      link.click();
      later(100, function () {
        var row = d.getElementById(link.getAttribute('href').slice(1)), r = row.getBoundingClientRect();
        out.rowFlash = row.classList.contains('flash');
        out.rowInView = r.top >= 0 && r.bottom <= w.innerHeight;
        var plain = failed.querySelector('.fr:not(.bad-2):not(.rel)');
        plain.click();
        out.toggled = !!(plain.nextElementSibling && plain.nextElementSibling.classList.contains('fx'));
        search('1970-01-01T00:00:00.000Z');
        later(600, function () {
          out.matchRows = failed.querySelectorAll('.fr.match').length;
          out.matchShown = d.body.dataset.shown;
          done();
        });
      });
    });
  });
}); });
</script></body></html>`

// interact checks, in a real browser, what a reader does with the page:
// the search (debounced) hides items without moving the one the reader
// looks at (the element at the top of the viewport); clearing the filters
// and expanding everything do not move what is at the top either; a finding's link scrolls to its frame and flashes it; a click on a
// row opens its payload; a search marks the matching frames.
func interact(t *testing.T, b *browser, page, failed string) {
	t.Helper()
	h := strings.NewReplacer("PAGE", filepath.Base(page), "LAST", "s-reference-minicodex.send.turn", "FAILED", failed).Replace(harness)
	var res struct {
		Scrolled                             bool
		SearchShown, ClearShown, MatchShown  string
		SearchDelta, ClearDelta, ExpandDelta float64
		Open, MatchRows                      int
		RowFlash, RowInView, Toggled         bool
	}
	raw := b.harness(t, filepath.Join(filepath.Dir(page), "harness.html"), h, 15000, &res)
	t.Logf("interaction: %s", raw)
	near := func(d float64) bool { return d > -2 && d < 2 }
	if !res.Scrolled || res.SearchShown != "2" || !near(res.SearchDelta) || res.ClearShown != "8" || !near(res.ClearDelta) ||
		res.Open != 8 || !near(res.ExpandDelta) {
		t.Errorf("filtering or expanding moved the page or did not filter: %s", raw)
	}
	if !res.RowFlash || !res.RowInView || !res.Toggled {
		t.Errorf("navigation from a finding to its frame, or a row's payload: %s", raw)
	}
	if res.MatchShown != "1" || res.MatchRows < 1 {
		t.Errorf("a search of a payload: %s", raw)
	}
}

func expect(t *testing.T, dom string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(dom, w) {
			t.Errorf("the DOM lacks %q", w)
		}
	}
}

// rowClass is the class of the wire log row with id, "" when absent.
func rowClass(dom, id string) string {
	m := regexp.MustCompile(`<div class="([^"]*)" id="` + regexp.QuoteMeta(id) + `"`).FindStringSubmatch(dom)
	if m == nil {
		return ""
	}
	return m[1]
}

// attr is the value of a body data attribute.
func attr(dom, name string) string {
	m := regexp.MustCompile(`<body[^>]* ` + regexp.QuoteMeta(name) + `="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		return ""
	}
	return m[1]
}

// rootHarness clicks the first frame link of a report's first root cause,
// like a reader, and writes what followed into its body's data-result.
const rootHarness = `<!DOCTYPE html><html><body><iframe id="f" src="PAGE" style="width:1200px;height:900px;border:0"></iframe>
<script>
var f = document.getElementById('f'), out = {};
function done() { document.body.setAttribute('data-result', JSON.stringify(out)); }
f.addEventListener('load', function () { setTimeout(function () { try {
  var w = f.contentWindow, d = f.contentDocument;
  var link = d.querySelector('#root-causes .rc a.fl.first'), id = link.getAttribute('href').slice(1);
  var item = d.getElementById(id.replace(/-f\d+$/, ''));
  out.closedBefore = !item.open;
  out.renderedBefore = !!d.getElementById(id);
  link.click();
  setTimeout(function () { try {
    var row = d.getElementById(id), r = row && row.getBoundingClientRect();
    out.rendered = !!row;
    out.open = item.open;
    out.cls = row ? row.className : '';
    out.inView = !!row && r.top >= 0 && r.bottom <= w.innerHeight;
    out.payload = !!(row && row.nextElementSibling && row.nextElementSibling.classList.contains('fx'));
    out.hash = w.location.hash;
    done();
  } catch (e) { out.error = String(e.stack || e); done(); } }, 100);
} catch (e) { out.error = String(e.stack || e); done(); } }, 50); });
</script></body></html>`

// TestReportInBrowserRootCauses: the page of RootCausesReport leads with
// its four root causes (three of findings, one of a step failing alike
// in two scenarios); the first one's frame link opens the passed (so
// closed, not yet rendered) scenario where it was first seen, renders the
// wire log up to that frame, highlights it, scrolls it into view and
// flashes it.
func TestReportInBrowserRootCauses(t *testing.T) {
	b := newBrowser(t)
	dir := artifacts(t)
	page := filepath.Join(dir, "root-causes.html")
	writePage(t, page, reports.RootCausesReport())
	dom, _ := b.dom(page)
	expect(t, dom, `data-ready="1"`, `id="rc-headline">4 distinct problems: 3 errors, 1 warning<`,
		`<details class="item" id="s-ours-m.s01" data-n="0"`) // closed: no " open" after its attributes
	if n := strings.Count(dom, `<li class="rc `); n != 4 {
		t.Errorf("%d root causes rendered, want 4", n)
	}
	if regexp.MustCompile(`id="s-ours-m\.s01"[^>]* open`).MatchString(dom) {
		t.Error("the first root cause's scenario starts open: the link would not test lazy rendering")
	}
	h := strings.Replace(rootHarness, "PAGE", filepath.Base(page), 1)
	var res struct {
		ClosedBefore, RenderedBefore, Rendered, Open, InView, Payload bool
		Cls, Hash                                                     string
	}
	path := filepath.Join(dir, "root-harness.html")
	raw := b.harness(t, path, h, 10000, &res)
	t.Logf("root cause link: %s", raw)
	if !res.ClosedBefore || res.RenderedBefore || !res.Rendered || !res.Open || !res.InView || !res.Payload ||
		!strings.Contains(res.Cls, "bad-2") || !strings.Contains(res.Cls, "flash") || res.Hash != "#s-ours-m.s01-f2" {
		t.Errorf("the first root cause's frame link: %s", raw)
	}
	b.screenshot(page, filepath.Join(dir, "root-causes.png"), 1280, 1400)
	// The harness page after the click: the frame in view, highlighted.
	b.screenshot(path, filepath.Join(dir, "root-causes-frame.png"), 1220, 920, "--allow-file-access-from-files")
}
