//go:build unix

package web

import (
	"encoding/json"
	"testing"

	"github.com/wsconform/wsconform/internal/cdp"
)

// TestBrowserVirtualList: with 1,500 frames on the page, only the rows in
// view and a margin are in the document, yet the list is as tall as all
// of them; scrolled anywhere, the page draws the rows there, in the
// model's order; a text selection in view survives the frames that keep
// coming while the page follows, and the follow resumes once it is gone.
func TestBrowserVirtualList(t *testing.T) {
	b, s := openLive(t, Config{PageRate: 1 << 20}) // every frame sent to the page, however fast
	c := dialClient(t, s.proxyURL)
	n := c.turn("/stream 1500")
	b.WaitFor("every frame on the page", `wsLive.state().frames >= `+jsInt(n))
	// A page following traffic faster than a screenful per draw draws
	// every BUSY_EVERY ms: the newest row comes into view with the next.
	b.WaitFor("the newest row drawn", `wsLive.state().following && !!document.getElementById(wsLive.rows().at(-1).id)?.isConnected`)
	var at struct {
		Drawn, Rows, Height int
		Consecutive         bool
		Index               float64
	}
	// where says what is drawn: how many rows, whether they are a run of
	// the model's rows in its order, and how far into the model the row at
	// the middle of the list's view is (0 to 1).
	where := `new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
	  const l = document.getElementById("lv-list"), ids = wsLive.rows().map(r => r.id);
	  const drawn = Array.from(l.querySelectorAll(".lv-r")).map(e => e.id);
	  const from = ids.indexOf(drawn[0]);
	  const box = l.getBoundingClientRect();
	  const mid = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest(".lv-r");
	  done({Drawn: drawn.length, Rows: ids.length, Height: l.scrollHeight,
	    Consecutive: from >= 0 && drawn.every((id, k) => ids[from + k] === id),
	    Index: mid ? ids.indexOf(mid.id) / ids.length : -1});
	})))`
	if err := json.Unmarshal(b.Eval(where), &at); err != nil {
		t.Fatal(err)
	}
	if at.Rows < 1500 || at.Drawn == 0 || at.Drawn > 100 || at.Height < 20*at.Rows || !at.Consecutive || at.Index < 0.95 {
		t.Fatalf("following: %+v; want under 100 of the rows drawn, in order, the list as tall as all of them, the newest in view", at)
	}
	b.Eval(`{ const l = document.getElementById("lv-list"); l.scrollTop = l.scrollHeight / 2; l.dispatchEvent(new Event("scroll")); } true`)
	b.WaitFor("following paused", `!wsLive.state().following`)
	if err := json.Unmarshal(b.Eval(where), &at); err != nil {
		t.Fatal(err)
	}
	if at.Drawn == 0 || at.Drawn > 100 || !at.Consecutive || at.Index < 0.4 || at.Index > 0.6 {
		t.Fatalf("scrolled to the middle: %+v; want the middle rows drawn, in order", at)
	}

	// Back at the bottom, select a payload in view; more frames come.
	b.Eval(`document.getElementById("lv-pill").click(); true`)
	b.Eval(`{ const l = document.getElementById("lv-list"); l.scrollTop = l.scrollHeight; l.dispatchEvent(new Event("scroll")); } true`)
	b.WaitFor("following again", `wsLive.state().following`)
	selected := `(() => { const s = getSelection(); return s.rangeCount && s.anchorNode.isConnected ? s.toString() : ""; })()`
	b.Eval(`{ const rows = document.querySelectorAll("#lv-list .lv-r.s2c .p"), p = rows[rows.length - 3];
	  const r = document.createRange(); r.selectNodeContents(p); getSelection().removeAllRanges(); getSelection().addRange(r); } true`)
	var before, after string
	_ = json.Unmarshal(b.Eval(selected), &before)
	c.turn("/stream 50")
	b.WaitFor("the new frames taken in", `wsLive.state().last >= `+jsInt(int(mustLast(t, b))+50))
	_ = json.Unmarshal(b.Eval(`new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(`+selected+`))))`), &after)
	if before == "" || after != before {
		t.Fatalf("selection %q became %q", before, after)
	}
	b.Eval(`getSelection().removeAllRanges(); true`)
	c.turn("/stream 5 more")
	b.WaitFor("the newest in view again", `(() => { const l = document.getElementById("lv-list"); return l.scrollHeight - l.scrollTop - l.clientHeight < 8 &&
	  document.querySelector("#lv-list .lv-r:nth-last-child(2)")?.id === wsLive.rows().at(-1).id; })()`)
	c.close()
}

// mustLast is the newest frame index the page holds.
func mustLast(t *testing.T, b *cdp.Browser) float64 {
	t.Helper()
	var n float64
	if err := json.Unmarshal(b.Eval(`wsLive.state().last`), &n); err != nil {
		t.Fatal(err)
	}
	return n
}
