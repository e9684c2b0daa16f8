package perf

import (
	"errors"
	"strings"
	"testing"
)

// sampleTable has a figure of each kind the measures give: per dialect,
// a ratio to a baseline, a ratio to a program that is not installed, one
// without a goal, one with a note, and groups that failed or did not run.
func sampleTable(quick bool) *Table {
	engine := Figure{Name: "check engine", Unit: "frames/s", Goal: "≥ 300k"}
	engine.Add("myagent", 80e3)
	engine.Add("minicodex", 400e3)
	burst := Figure{Name: "burst | 50,000 frames", Unit: "frames/s", Goal: "wsproxy ≥ 0.8× tcp-relay; ≥ 10× mitmproxy", Note: "mitmproxy not installed"}
	burst.Add("wsproxy", 90e3)
	burst.Add("tcp-relay", 100e3)
	burst.Add("direct", 200e3)
	rss := Figure{Name: "peak RSS", Unit: "MB"}
	rss.Add("wsconform", 393)
	return &Table{
		Machine: Machine{Cores: 2, CPU: "AMD EPYC", LoadBefore: "1.00 1.10 1.20", LoadAfter: "2.00 1.50 1.30", Go: "go1.26.8", Commit: "abc1234", Mitmproxy: "not installed: apt-get install mitmproxy"},
		Rounds:  5,
		Quick:   quick,
		Groups: []Group{
			{Name: "engine", Figures: []Figure{engine}, Load: "1.00"},
			{Name: "relay", Figures: []Figure{burst}, Load: "1.70"},
			{Name: "validate", Figures: []Figure{rss}},
			{Name: "suite", Err: errors.New("wsconform run: exit status 1")},
		},
		NotInstalled: map[string]string{"mitmproxy": "not installed: apt-get install mitmproxy"},
	}
}

func TestTableRows(t *testing.T) {
	t.Parallel()
	rows, notes := sampleTable(false).Rows()
	want := []Row{
		{Group: "engine", Figure: "check engine (frames/s)", Medians: "minicodex 400.0k, myagent 80.0k", Goal: "≥ 300k", Met: "not met"},
		{Group: "relay", Figure: "burst | 50,000 frames (frames/s)", Medians: "direct 200.0k, tcp-relay 100.0k, wsproxy 90.0k",
			Ratio: "wsproxy/tcp-relay 0.90×; mitmproxy: not installed: apt-get install mitmproxy",
			Goal:  "wsproxy ≥ 0.8× tcp-relay; ≥ 10× mitmproxy",
			Met:   "wsproxy ≥ 0.8× tcp-relay: met; ≥ 10× mitmproxy: not judged, mitmproxy: not installed: apt-get install mitmproxy", Note: 1},
		{Group: "validate", Figure: "peak RSS (MB)", Medians: "wsconform 393"},
		{Group: "suite", Figure: "—", Medians: "failed: wsconform run: exit status 1"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, rows[i], want[i])
		}
	}
	if len(notes) != 1 || notes[0] != "mitmproxy not installed" {
		t.Errorf("notes = %q", notes)
	}
}

func TestTableQuickIsNotJudged(t *testing.T) {
	t.Parallel()
	rows, _ := sampleTable(true).Rows()
	if rows[0].Met != "not judged (--quick)" {
		t.Errorf("quick engine row: met %q, want not judged", rows[0].Met)
	}
	var b strings.Builder
	if err := sampleTable(true).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "these figures mean nothing") {
		t.Errorf("quick table does not say its figures mean nothing:\n%s", b.String())
	}
}

func TestTableWriters(t *testing.T) {
	t.Parallel()
	var text, md strings.Builder
	tab := sampleTable(false)
	if err := tab.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := tab.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 cores (AMD EPYC)", "1.00 1.10 1.20 before", "2.00 1.50 1.30 after", "go1.26.8", "abc1234", "5 interleaved rounds", "as each group started: engine 1.00, relay 1.70", "[1] mitmproxy not installed"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	for _, line := range strings.Split(text.String(), "\n") {
		if strings.HasSuffix(line, " ") {
			t.Errorf("text line ends in a space: %q", line)
		}
	}
	// Every Markdown table line has the six columns' seven bars, the
	// figure's own | escaped.
	var tableLines int
	for _, line := range strings.Split(md.String(), "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		tableLines++
		if n := strings.Count(line, "|") - strings.Count(line, `\|`); n != len(columns)+1 {
			t.Errorf("markdown line has %d cell bars, want %d: %q", n, len(columns)+1, line)
		}
	}
	if want := 2 + 4; tableLines != want {
		t.Errorf("markdown table has %d lines, want %d:\n%s", tableLines, want, md.String())
	}
}

func TestHuman(t *testing.T) {
	t.Parallel()
	for v, want := range map[float64]string{0: "0", 0.834: "0.83", 9.3: "9.30", 42.42: "42.4", 393: "393", 4262: "4262", 96400: "96.4k", 1.25e6: "1.25M"} {
		if got := human(v); got != want {
			t.Errorf("human(%v) = %q, want %q", v, got, want)
		}
	}
}
