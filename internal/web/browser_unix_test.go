//go:build unix

package web

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/cdp"
)

// pageState is window.wsLive.state() of the page.
type pageState struct {
	Rows      int    `json:"rows"`
	Frames    int    `json:"frames"`
	Shown     int    `json:"shown"`
	Drawn     int    `json:"drawn"`
	Repeats   int    `json:"repeats"`
	Taken     int    `json:"taken"`
	Last      int    `json:"last"`
	Pending   bool   `json:"pending"`
	Findings  int    `json:"findings"`
	Following bool   `json:"following"`
	NewFrames int    `json:"newFrames"`
	Pill      bool   `json:"pill"`
	Dropped   int    `json:"dropped"`
	Removed   int    `json:"removed"`
	Stream    string `json:"stream"`
}

// stateOf is the page's own account of itself (window.wsLive.state()).
func stateOf(t *testing.T, b *cdp.Browser) pageState {
	t.Helper()
	var st pageState
	if err := json.Unmarshal(b.Eval(`wsLive.state()`), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// openLive serves a proxy with the live view (startStack) and opens the
// page in headless Chromium, its stream live; the browser ends with t.
func openLive(t *testing.T, cfg Config, mutate ...string) (*cdp.Browser, *stack) {
	t.Helper()
	b := cdp.Start(t, cdp.Options{Window: "1280,800"})
	b.Timeout, b.Diag = 2*timeout, "JSON.stringify(window.wsLive && wsLive.state())"
	s := startStack(t, cfg, mutate...)
	b.Navigate(s.webURL)
	b.WaitFor("the stream", `window.wsLive && wsLive.state().stream === "live"`)
	return b, s
}

// TestBrowserLiveView: the page in headless Chromium while a client talks
// through the proxy to a reference server that breaks the schema (run_status
// without run_state). Frames and findings appear while the client talks;
// scrolling up pauses following and new frames show the "N new frames ↓"
// pill, which jumps back; an opened payload stays open across updates; a
// filter given in the URL applies on load.
func TestBrowserLiveView(t *testing.T) {
	b, s := openLive(t, Config{}, "minicodex-run-status-without-state")
	c := dialClient(t, s.proxyURL)
	for i := 0; i < 6; i++ {
		c.turn(fmt.Sprintf("/stream 8 turn %d", i))
	}
	b.WaitFor("frames and findings", `wsLive.state().frames >= 40 && wsLive.state().findings >= 1`)
	b.WaitFor("the finding in the page's rows", `wsLive.rows().some(r => r.sev === 2 && r.fx.some(x => x.rule === "schema.violation" && !x.first))`)
	b.WaitFor("following at the bottom", `wsLive.state().following`)
	b.WaitFor("the finding's rule in view", `Array.from(document.querySelectorAll(".lv-r.sev-2 code.rule")).some(e => e.textContent === "schema.violation")`)
	if st := stateOf(t, b); st.Pill || st.Drawn >= st.Rows {
		t.Errorf("pill shown while following, or every row drawn: %+v", st)
	}

	// Scroll up: following pauses. Open a payload there: it stays open
	// while new frames come, and the view stays where the user is.
	// A user scrolls up until the view stops following: one scroll may land
	// while the list is not yet taller than its box (row heights are
	// measured as rows are drawn), and then it is still at the bottom.
	b.WaitFor("following paused", `(() => { var l = document.getElementById("lv-list"); l.scrollTop = 0; l.dispatchEvent(new Event("scroll")); return !wsLive.state().following })()`)
	b.WaitFor("the top drawn", `!!document.querySelector(".lv-r.s2c .lv-l") && document.querySelector(".lv-r.s2c").getBoundingClientRect().top < 400`)
	b.Eval(`document.querySelector(".lv-r.s2c .lv-l").click(); true`)
	opened := jsString(strings.Trim(string(b.Eval(`document.querySelector(".lv-r.s2c.open").id`)), `"`))
	c.turn("/stream 5 while paused")
	b.WaitFor("the new frames pill", `wsLive.state().pill && wsLive.state().newFrames > 0 && /new frames? ↓/.test(document.getElementById("lv-pill").textContent)`)
	if st := stateOf(t, b); st.Following {
		t.Errorf("following after scrolling up: %+v", st)
	}
	var stillOpen bool
	_ = json.Unmarshal(b.Eval(`document.querySelectorAll(".lv-r.open .jt, .lv-r.open .lv-raw").length > 0 && document.getElementById("lv-list").scrollTop < 50`), &stillOpen)
	if !stillOpen {
		t.Errorf("the opened payload or the scroll position did not survive the update: %s",
			b.Eval(`({open: document.querySelectorAll(".lv-r.open").length, tree: document.querySelectorAll(".lv-r.open .jt, .lv-r.open .lv-raw").length, top: document.getElementById("lv-list").scrollTop, rows: wsLive.rows().filter(r => r.open)})`))
	}
	b.Screenshot("web-view-paused.png")
	b.Eval(`document.getElementById("lv-pill").click(); true`)
	b.WaitFor("following again", `wsLive.state().following && !wsLive.state().pill`)
	b.WaitFor("the opened row out of view", `!document.getElementById(`+opened+`)?.isConnected`)

	// Back to the bottom for the picture: a finding in view.
	c.turn("/stream 3 last")
	b.WaitFor("the last turn", `Array.from(document.querySelectorAll(".lv-r.s2c .p")).some(e => e.textContent.includes('"text":"last"')) && wsLive.rows().at(-1).y === "turn_done"`)
	shot := b.Screenshot("web-view.png")
	if dir := os.Getenv("WSCONFORM_WEB_SCREENSHOT"); dir != "" {
		data, _ := os.ReadFile(shot)
		_ = os.WriteFile(filepath.Join(dir, "web-view.png"), data, 0o644)
	}
	// The opened payload, scrolled back to, is still open.
	b.Eval(`var l = document.getElementById("lv-list"); l.scrollTop = 0; l.dispatchEvent(new Event("scroll")); true`)
	b.WaitFor("the opened row drawn open again", `document.getElementById(`+opened+`)?.isConnected && document.getElementById(`+opened+`).classList.contains("open") && !!document.querySelector("#"+`+opened+`+" .jt")`)

	// A filter in the URL: only client-to-server frames of type send.
	b.Navigate(s.webURL + "?dir=c2s&type=send")
	b.WaitFor("the filtered page", `window.wsLive && wsLive.state().stream === "live" && wsLive.state().frames > 0`)
	var check struct {
		Shown, Drawn, Bad int
		Dir, Type         string
	}
	_ = json.Unmarshal(b.Eval(`(() => { const rows = wsLive.rows(), drawn = Array.from(document.querySelectorAll(".lv-r"));
	  return {Shown: rows.length, Drawn: drawn.length, Bad: rows.filter(r => r.d !== "c2s" || r.y !== "send").length +
	      drawn.filter(r => !r.classList.contains("c2s") || r.querySelector(".y").textContent !== "send").length,
	    Dir: document.getElementById("f-dir").value, Type: document.getElementById("f-type").value}; })()`), &check)
	if check.Shown == 0 || check.Drawn == 0 || check.Bad != 0 || check.Dir != "c2s" || check.Type != "send" {
		t.Errorf("filter from the URL: %+v", check)
	}
	c.close()
}
