package reports

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

// Hostile payloads: if either ever became markup, the page would change
// its title and mark its body.
const (
	xssImg    = `<img src=x onerror="document.title='pwned';document.body.dataset.pwned=1">`
	xssScript = `</script><script>document.title='pwned';document.body.dataset.pwned=1</script><!--`
)

// HostileReport is a run report whose every field that comes from the wire
// or from a feature file carries markup; the browser test opens it.
func HostileReport() *Report {
	r := sample()
	r.Command = "wsconform run " + xssScript
	r.Notes = []string{xssImg}
	sc := &r.Scenarios[1]
	sc.Name, sc.Reason, sc.Requirement = xssImg, xssScript, xssImg
	sc.Steps[0].Text, sc.Steps[0].Error, sc.Steps[0].Actual = xssImg, xssScript, xssImg
	at := func(i int64) time.Time { return t0.Add(time.Duration(i) * time.Millisecond) }
	frame := func(i int64, op wire.Opcode, payload []byte) Frame {
		f := NewFrame(wire.Frame{Conn: `A#1<b>`, Index: i, Dir: wire.ServerToClient, Time: at(i), Op: op, Payload: payload}, xssImg, xssScript, 0)
		return f
	}
	json := []byte(`{"type":"` + strings.ReplaceAll(xssScript, `"`, `\"`) + `","html":"` + strings.ReplaceAll(xssImg, `"`, `\"`) + `","event_id":3}`)
	sc.Frames = append(sc.Frames,
		frame(3, wire.OpText, json),
		frame(4, wire.OpText, []byte(xssImg+xssScript)),
		frame(5, wire.OpBinary, []byte(xssImg)),
		frame(6, wire.OpClose, []byte(xssImg)))
	sc.Findings = append(sc.Findings, Finding{Finding: check.Finding{Rule: "x.<i>rule</i>", Severity: check.Error, Spec: xssImg,
		Message: xssImg, Pointer: xssScript, Expected: xssScript, Actual: xssImg, Diff: "- " + xssImg + "\n+ " + xssScript,
		Conn: `A#1<b>`, Dir: wire.ServerToClient, Frame: 3, Related: []int64{4}}},
		Finding{Finding: check.Finding{Rule: "x.close", Severity: check.Warning, Message: xssScript, Dir: wire.ServerToClient, Frame: 6}})
	r.Tally()
	return r
}

func TestReportHTMLEscapesWireContent(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteHTML(&b, HostileReport()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if n := len(regexp.MustCompile(`(?i)<script`).FindAllStringIndex(html, -1)); n != 3 {
		t.Errorf("%d <script elements, want 3 (class switch, data, page script)", n)
	}
	for _, bad := range []string{"<img", "<i>rule", "A#1<b>", "<!--"} {
		if strings.Contains(html, bad) {
			t.Errorf("html holds %q unescaped", bad)
		}
	}
	data := html[strings.Index(html, `id="wsc-data">`):]
	data = data[len(`id="wsc-data">`):strings.Index(data, "</script>")]
	var parsed struct {
		Items []struct {
			Frames [][]any `json:"f"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(data), &parsed); err != nil {
		t.Fatalf("embedded data is not JSON: %v", err)
	}
	if got := parsed.Items[1].Frames[3][9]; got != xssImg+xssScript {
		t.Errorf("payload round trip: %q", got)
	}
}

func TestReportHTMLSelfContained(t *testing.T) {
	t.Parallel()
	for name, r := range map[string]*Report{"run": sample(), "sessions": sessions()} {
		var b bytes.Buffer
		if err := WriteHTML(&b, r); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		for _, ref := range []string{"http://", "https://", "<link", "@import", "url(", " src="} {
			if strings.Contains(html, ref) {
				t.Errorf("%s: the page refers to %q: it must open offline", name, ref)
			}
		}
	}
}

func TestReportHTMLSessions(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteHTML(&b, sessions()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		`<details class="item" id="session-s1"`,
		`<div class="timeline" data-n="0">`,
		`↳ <b>c2</b> <span class="dim">reconnects c1</span>`, // reconnect lineage
		`href="#session-s1-f4"`,                              // the finding links to its frame
		`related: <a class="fl rel" href="#session-s1-f2">`,  // and to the original
		`<div class="jdiff" data-a="2" data-b="4">`,
		`Recording`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
}

func TestReportAnchors(t *testing.T) {
	t.Parallel()
	used := map[string]bool{}
	for _, c := range []struct{ in, want string }{
		{"s-ref-a.b", "s-ref-a.b"},
		{"s-my target-a", "s-my_target-a"},
		{"s-my_target-a", "s-my_target-a~2"},
		{`s-"><img>`, "s-___img_"},
	} {
		if got := uniqueAnchor(c.in, used); got != c.want {
			t.Errorf("uniqueAnchor(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestReportLineage(t *testing.T) {
	t.Parallel()
	conns := []Connection{{ID: "c3", Parent: "c2"}, {ID: "c1"}, {ID: "c2", Parent: "c1"}, {ID: "x", Parent: "gone"},
		{ID: "loop1", Parent: "loop2"}, {ID: "loop2", Parent: "loop1"}}
	var got []string
	for _, c := range lineage(conns) {
		got = append(got, strings.Repeat(">", c.Depth)+c.ID)
	}
	want := "c1 >c2 >>c3 x loop1 >loop2"
	if strings.Join(got, " ") != want {
		t.Errorf("lineage: %v, want %s", got, want)
	}
}

func TestReportDurations(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{0: "0s", 1500 * time.Microsecond: "2ms", 254 * time.Millisecond: "254ms",
		6012 * time.Millisecond: "6.01s", 123 * time.Second: "2m3s", 12345 * time.Nanosecond: "12µs"} {
		if got := fmtDuration(d); got != want {
			t.Errorf("fmtDuration(%v) = %s, want %s", d, got, want)
		}
	}
}

func TestReportProse(t *testing.T) {
	t.Parallel()
	in := "  spec §1: the first\n    line goes on.\n\n    Interpretation: a second\n    paragraph.\n"
	if got, want := prose(in), "spec §1: the first line goes on.\n\nInterpretation: a second paragraph."; got != want {
		t.Errorf("prose: %q", got)
	}
}

// TestReportHTMLEdgeCases: an empty report, a report of harness errors
// only, and scenarios missing on one of two targets all render.
func TestReportHTMLEdgeCases(t *testing.T) {
	t.Parallel()
	empty := New(KindProxy, "wsconform test", t0)
	empty.Tally()
	broken := New(KindRun, "wsconform test", t0)
	broken.Errors = []string{"target unreachable: dial tcp 127.0.0.1:1: connection refused"}
	broken.Tally()
	twoTargets := sample()
	twoTargets.Targets = append(twoTargets.Targets, Target{Name: "other", URL: "ws://other"})
	extra := twoTargets.Scenarios[0]
	extra.Target = "other"
	twoTargets.Scenarios = append(twoTargets.Scenarios, extra)
	twoTargets.Tally()
	for name, c := range map[string]struct {
		r     *Report
		wants []string
	}{
		"empty":  {empty, []string{"Nothing was seen.", "Nothing to show."}},
		"broken": {broken, []string{`data-verdict="error"`, "Harness errors", "connection refused"}},
		"two targets": {twoTargets, []string{`<th class="tcol">other</th>`, `<a href="#s-other-m.pass" class="v v-passed"`,
			`<td class="cell"><span class="dim">—</span></td>`}},
	} {
		var b bytes.Buffer
		if err := WriteHTML(&b, c.r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, w := range c.wants {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: html lacks %q", name, w)
			}
		}
		var j, m bytes.Buffer
		if err := WriteJUnit(&j, c.r); err != nil {
			t.Errorf("%s: junit: %v", name, err)
		}
		if err := WriteMarkdown(&m, c.r); err != nil {
			t.Errorf("%s: markdown: %v", name, err)
		}
	}
}

// TestReportGateKind: a gate report (what internal/gate writes: the
// proxy's sessions judged on the client's frames, and two scenarios for
// the command) counts client findings only; the reference server's are
// listed apart.
func TestReportGateKind(t *testing.T) {
	t.Parallel()
	r := sessions()
	r.Kind = KindGate
	s := &r.Sessions[0]
	s.Findings = append(s.Findings, Finding{Finding: check.Finding{Rule: "minicodex.client.resume-from", Severity: check.Error,
		Message: "resume from 4, but the client last received 6", Conn: "c2", Dir: wire.ClientToServer, Frame: 3}, Session: "s1"})
	r.Scenarios = []Scenario{{ID: "gate.command", Name: "the client command succeeds", Dialect: "minicodex", Target: "reference",
		Verdict: Passed, Steps: []Step{{Keyword: "Run", Text: "npm test", Status: "passed"}}}}
	r.Tally()
	var h, j, m bytes.Buffer
	if err := WriteHTML(&h, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteJUnit(&j, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&m, r); err != nil {
		t.Fatal(err)
	}
	html := h.String()
	for _, want := range []string{"Client gate report", `data-noun="check"`, "1 finding on the reference server&#39;s frames",
		`<h2>Checks</h2>`, `data-count="failed">1<`} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
	if strings.Contains(j.String(), "minicodex.replay-mismatch") || !strings.Contains(j.String(), "minicodex.client.resume-from") {
		t.Errorf("junit should blame the client only:\n%s", j.String())
	}
	md := m.String()
	if !strings.Contains(md, "client gate: failed") || !strings.Contains(md, "| minicodex sessions | 1 |") ||
		strings.Contains(md, "replay-mismatch") || !strings.Contains(md, "resume from 4") {
		t.Errorf("markdown:\n%s", md)
	}
}
