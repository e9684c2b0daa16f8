//go:build unix

package web

import (
	"encoding/json"
	"testing"

	"github.com/wsconform/wsconform/internal/cdp"
)

// TestBrowserReplaysLive: the replay diffs of a gate --replay grow while
// the page is open; the page shows a new diff and a diff's new rows
// without a reload, and what the user changed stays: a row opened stays
// open, a diff closed stays closed, and the section does not scroll away.
func TestBrowserReplaysLive(t *testing.T) {
	src := &replaySource{}
	src.add("c1", 30)
	src.add("c2", 3)
	s, url := startReplayView(t, src)
	b := cdp.Start(t, cdp.Options{Window: "1280,800"})
	b.Timeout, b.Diag = 2*timeout, `document.getElementById("lv-replays-body").innerText.slice(0, 400)`
	b.Navigate(url)
	b.WaitFor("the diffs", `document.querySelectorAll("#lv-replays-body .rdiff").length === 2`)
	b.Eval(`window.notReloaded = true;
	  document.querySelector("#replay-c1-r5 > summary").click();
	  document.querySelector('.rdiff[data-conn="c2"] > summary').click();
	  true`)
	b.WaitFor("the row open and the diff closed", `document.getElementById("replay-c1-r5").open && !document.querySelector('.rdiff[data-conn="c2"]').open`)
	b.Eval(`document.getElementById("lv-replays").scrollTop = 200; true`)

	src.grow("c1", 1)
	src.grow("c2", 2)
	src.add("c3", 20)
	s.ReplaysChanged()
	b.WaitFor("the new diff and rows", `!!document.querySelector('.rdiff[data-conn="c3"]') && !!document.getElementById("replay-c1-r31") && !!document.getElementById("replay-c2-r5")`)
	var got struct {
		Reloaded, RowOpen, C2Open, C1Open bool
		Top                               float64
	}
	if err := json.Unmarshal(b.Eval(`({Reloaded: !window.notReloaded, RowOpen: document.getElementById("replay-c1-r5").open,
	  C1Open: document.querySelector('.rdiff[data-conn="c1"]').open, C2Open: document.querySelector('.rdiff[data-conn="c2"]').open,
	  Top: document.getElementById("lv-replays").scrollTop})`), &got); err != nil {
		t.Fatal(err)
	}
	if got.Reloaded || !got.RowOpen || !got.C1Open || got.C2Open || got.Top < 199 || got.Top > 201 {
		t.Errorf("after the diffs changed: %+v; want no reload, row c1 #5 and diff c1 open, diff c2 closed, scrolled at 200", got)
	}

	// Read the last diff, at the bottom of the section; the first diff,
	// above it, grows, and then both: what is in view stays where it is.
	where := `(() => { const sec = document.getElementById("lv-replays");
	  return document.querySelector('.rdiff[data-conn="c3"]').getBoundingClientRect().top - sec.getBoundingClientRect().top; })()`
	b.Eval(`{ const sec = document.getElementById("lv-replays"); sec.scrollTop = sec.scrollHeight; } true`)
	var before, after float64
	_ = json.Unmarshal(b.Eval(where), &before)
	src.grow("c1", 5)
	s.ReplaysChanged()
	b.WaitFor("the first diff's new rows", `!!document.getElementById("replay-c1-r36")`)
	b.Eval(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`)
	_ = json.Unmarshal(b.Eval(where), &after)
	if after < before-1 || after > before+1 {
		t.Errorf("the diff in view moved from %.0f to %.0f px below the section's top as a diff above it grew", before, after)
	}
	src.grow("c1", 5)
	src.grow("c3", 1)
	s.ReplaysChanged()
	b.WaitFor("the new rows of both", `!!document.getElementById("replay-c1-r41") && !!document.getElementById("replay-c3-r21")`)
	b.Eval(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`)
	_ = json.Unmarshal(b.Eval(where), &after)
	if after < before-1 || after > before+1 {
		t.Errorf("the diff in view moved from %.0f to %.0f px below the section's top as it and a diff above it grew", before, after)
	}
	b.Screenshot("web-replays-live.png")
}

// TestBrowserRepeatedFindings: the reference server leaves run_state out
// of every run_status, so the same schema violation is on many frames of
// one connection; the first is shown in full, each repeat as one line
// linking to it, which opens to the full card. The severity filter still
// shows every frame with a repeat.
func TestBrowserRepeatedFindings(t *testing.T) {
	b, s := openLive(t, Config{}, "minicodex-run-status-without-state")
	c := dialClient(t, s.proxyURL)
	for i := 0; i < 3; i++ {
		c.turn("/stream 2")
	}
	c.close() // the validator judges a connection's frames before its close
	b.WaitFor("the connection closed, drawn", `wsLive.rows().some(r => r.ev && r.y.startsWith("closed")) && !wsLive.state().pending`)
	var got struct {
		Full, Repeats, BadLinks, Flagged int
		First                            string
	}
	if err := json.Unmarshal(b.Eval(`(() => {
	  const rows = wsLive.rows();
	  const full = rows.filter(r => r.fx.some(x => x.rule === "schema.violation" && !x.first));
	  const reps = rows.flatMap(r => r.fx.filter(x => x.first));
	  const first = full.length ? full[0].id : "";
	  const bad = reps.filter(x => x.first !== first || x.rule !== "schema.violation");
	  // The drawn repeat lines link to the first as the model says.
	  const links = Array.from(document.querySelectorAll(".lv-r > .lv-fx > .lv-rep")).filter(r => {
	    const a = r.querySelector("summary a.lv-first");
	    return !a || a.getAttribute("href") !== "#" + first || a.textContent !== "frame #" + first.slice(6) || r.querySelector(".finding");
	  });
	  return {Full: full.length, Repeats: reps.length, BadLinks: bad.length + links.length, First: first,
	    Flagged: rows.filter(r => r.sev === 2).length};
	})()`), &got); err != nil {
		t.Fatal(err)
	}
	if got.Full != 1 || got.Repeats < 3 || got.BadLinks != 0 || got.Flagged != got.Full+got.Repeats {
		t.Fatalf("findings on the page: %+v; want one full card, its repeats linking to %s", got, got.First)
	}

	// A repeat opens to the full card; its link shows the first.
	b.Eval(`document.querySelector(".lv-rep > summary").click(); true`)
	b.WaitFor("the repeat opened in full", `!!document.querySelector(".lv-rep[open] > .finding code.rule")`)
	b.Eval(`document.querySelectorAll(".lv-rep a.lv-first")[1].click(); true`)
	b.WaitFor("the first flashed", `document.getElementById(`+jsString(got.First)+`).classList.contains("flash") && !wsLive.state().following`)

	// Filters find the frames with repeats as they find the first.
	b.Eval(`{ const f = document.getElementById("f-sev"); f.value = "error"; f.dispatchEvent(new Event("change")); } true`)
	b.WaitFor("the error filter", `wsLive.state().shown === `+jsInt(got.Flagged)+` && wsLive.rows().every(r => r.sev === 2)`)
	b.Eval(`{ const f = document.getElementById("f-sev"); f.value = ""; f.dispatchEvent(new Event("change"));
	  const q = document.getElementById("f-q"); q.value = "schema.violation"; q.dispatchEvent(new Event("input")); } true`)
	b.WaitFor("the text filter", `wsLive.state().shown === `+jsInt(got.Flagged)+` && wsLive.rows().every(r => r.sev === 2)`)
	b.Screenshot("web-repeated-findings.png")
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func jsInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
