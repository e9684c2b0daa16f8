package reports

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

// The three root causes of RootCausesReport.
const (
	rcNull  = "schema.violation"         // an error on turn_done /text, in 30 scenarios
	rcShown = "schema.shown"             // a warning on assistant_text /meta, in 5
	rcOrder = "minicodex.event-id-order" // an error in a proxy session
)

// RootCausesReport is a run of 40 scenarios on one target whose findings
// make three root causes: a null where the spec types a string, received
// by 30 scenarios (failing the one that was about it, background in the
// others, the first of which passed and starts closed), a warning only an
// example shows, in 5 scenarios, and an event_id out of order in a
// session. Two more scenarios fail on a step, for the same reason: a
// fourth root cause, a step cause; one more fails on a step of its own (no
// root cause explains it), and one sends a deliberately invalid frame.
func RootCausesReport() *Report {
	r := New(KindRun, "wsconform test", t0)
	r.Finished = t0.Add(9 * time.Second)
	r.Dialects = []string{"minicodex"}
	r.Targets = []Target{{Name: "ours", URL: "ws://127.0.0.1:9000/ws"}}
	frame := func(i int64, dir wire.Direction, typ, payload string) Frame {
		return NewFrame(wire.Frame{Conn: "A#1", Index: i, Dir: dir, Time: t0.Add(time.Duration(i) * time.Millisecond),
			Op: wire.OpText, Payload: []byte(payload)}, typ, "", 0)
	}
	null := check.Finding{Rule: rcNull, Severity: check.Error, Evidence: check.Stated, Spec: "minicodex-v1.md §Messages: turn_done",
		Quote: "class TurnDone(BaseModel): text: str", Message: "/text: null where the type is a string", Type: "turn_done",
		Pointer: "/text", Expected: "a string", Actual: "null", Conn: "A#1", Dir: wire.ServerToClient, Frame: 2}
	shown := check.Finding{Rule: rcShown, Severity: check.Warning, Evidence: check.Shown, Spec: "minicodex-v1.md §Examples",
		Quote: `{"type":"assistant_text","meta":{"model":"…"}}`, Message: "/meta: a string where the example shows an object",
		Type: "assistant_text", Pointer: "/meta", Expected: "an object", Actual: `"gpt"`, Conn: "A#1", Dir: wire.ServerToClient, Frame: 3}
	for i := 1; i <= 40; i++ {
		s := Scenario{ID: fmt.Sprintf("m.s%02d", i), Name: fmt.Sprintf("scenario %d", i), Feature: "F", Dialect: "minicodex",
			Target: "ours", Level: "must", Verdict: Passed, Duration: time.Millisecond,
			Steps:  []Step{{Keyword: "When", Text: "the client sends a turn", Status: "passed"}},
			Frames: []Frame{frame(1, wire.ClientToServer, "send", `{"type":"send","text":"hi"}`)}}
		if i <= 30 {
			s.Frames = append(s.Frames, frame(2, wire.ServerToClient, "turn_done", `{"type":"turn_done","text":null,"event_id":2}`))
			s.Findings = append(s.Findings, Finding{Finding: null, Background: i != 6})
		}
		if i == 6 {
			s.Verdict, s.Reason = Failed, null.Rule+": "+null.Message
		}
		if i > 30 && i <= 35 {
			s.Frames = append(s.Frames, frame(3, wire.ServerToClient, "assistant_text", `{"type":"assistant_text","meta":"gpt","event_id":3}`))
			s.Findings = append(s.Findings, Finding{Finding: shown, Background: true})
		}
		if i == 36 || i == 37 {
			s.Verdict, s.Reason = Failed, `Then the server answers "pong" within 2s: no answer`
			s.Steps = append(s.Steps, Step{Keyword: "Then", Text: `the server answers "pong" within 2s`, Status: "failed", Error: "no answer",
				Expected: `"pong" within 2s`, Actual: "received no message"})
		}
		if i == 39 {
			s.Verdict, s.Reason = Failed, `Then the server closes within 1s: still open`
			s.Steps = append(s.Steps, Step{Keyword: "Then", Text: `the server closes within 1s`, Status: "failed", Error: "still open"})
		}
		if i == 38 {
			s.Findings = append(s.Findings, Finding{Finding: check.Finding{Rule: "schema.violation", Severity: check.Error,
				Evidence: check.Stated, Message: "/text: a number where the type is a string", Type: "send", Pointer: "/text",
				Dir: wire.ClientToServer, Frame: 1}})
		}
		r.Scenarios = append(r.Scenarios, s)
	}
	b := NewSessionBuilder("minicodex", "--dialect minicodex", "", DefaultWireLimits)
	b.OpenConn("p1", "ws://127.0.0.1:9000/ws", t0)
	b.Bind("p1", "live")
	b.Frame("live", wire.Frame{Conn: "p1", Index: 1, Dir: wire.ServerToClient, Time: t0, Op: wire.OpText,
		Payload: []byte(`{"type":"assistant_text","text":"a","event_id":5}`)}, "assistant_text", "5", nil)
	b.Frame("live", wire.Frame{Conn: "p1", Index: 2, Dir: wire.ServerToClient, Time: t0.Add(time.Millisecond), Op: wire.OpText,
		Payload: []byte(`{"type":"assistant_text","text":"b","event_id":4}`)}, "assistant_text", "4",
		[]Finding{{Finding: check.Finding{Rule: rcOrder, Severity: check.Error, Evidence: check.Stated, Spec: "minicodex-v1.md §Semantics: Ordering",
			Quote: "event_id is strictly monotonic per session", Message: "event_id 4 after 5", Type: "assistant_text", Pointer: "/event_id",
			Expected: "> 5", Actual: "4", Conn: "p1", Dir: wire.ServerToClient, Frame: 2, Related: []int64{1}}}})
	r.Sessions = b.Sessions()
	r.Sessions[0].Verdict = Failed
	r.Tally()
	return r
}

func TestRootCausesFixture(t *testing.T) {
	t.Parallel()
	r := RootCausesReport()
	if len(r.RootCauses) != 4 || r.RootCauses[0].Rule != rcNull || r.RootCauses[0].Count != 30 ||
		len(r.RootCauses[0].Scenarios) != 30 || r.RootCauses[0].First.Scenario != "m.s01" || !r.RootCauses[0].Background {
		t.Fatalf("root causes: %+v", r.RootCauses)
	}
	if st := r.RootCauses[1]; st.Step == nil || st.Count != 2 || st.Step.Awaited != "pong" || st.Step.Hypothesis != "after `send`, the server sent nothing within 2s in 2 scenarios" {
		t.Fatalf("step cause: %+v %+v", st, st.Step)
	}
}

// section is the text of the HTML element that starts at id's tag and
// ends with end.
func section(t *testing.T, html, id, end string) string {
	t.Helper()
	i := strings.Index(html, `id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no element with id %s", id)
	}
	j := strings.Index(html[i:], end)
	if j < 0 {
		t.Fatalf("element %s does not end", id)
	}
	return html[i : i+j]
}

// TestRootCausesHTML: the page leads with the three root causes, each
// listed once (the 30 scenarios of the first named and linked, its first
// frame linked), does not repeat them per scenario under "Needs
// attention" (which keeps only the two step failures, as one reason),
// marks background findings and says whose frames the counts count.
func TestRootCausesHTML(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteHTML(&b, RootCausesReport()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	roots := section(t, html, "root-causes", "</section>")
	if !strings.Contains(roots, "4 distinct problems: 3 errors, 1 warning") {
		t.Errorf("root causes headline:\n%s", roots)
	}
	if n := strings.Count(roots, `<li class="rc `); n != 4 {
		t.Errorf("%d root cause rows, want 4", n)
	}
	for _, rule := range []string{rcNull, rcShown, rcOrder} {
		if n := strings.Count(roots, `<code class="rule">`+rule+`</code>`); n != 1 {
			t.Errorf("root cause %s listed %d times", rule, n)
		}
	}
	for _, want := range []string{
		`<a class="fl first" href="#s-ours-m.s01-f2">frame #2 of m.s01</a>`, // the first frame, in a passed scenario
		`30 findings in 30 scenarios`,
		`<a href="#s-ours-m.s30">m.s30</a>`, // every scenario touched is linked
		`<summary>and 22 more</summary>`,
		`<a class="fl first" href="#session-live-f2">frame #2 of session live</a>`,
		`<a href="#session-live">session live</a>`,
		`<span class="ev ev-stated"`, `<span class="ev ev-shown"`,
		`<blockquote class="quote">class TurnDone(BaseModel): text: str <cite>minicodex-v1.md §Messages: turn_done</cite></blockquote>`,
		`fails the report by itself`,
		`they explain 4 failed scenarios`, // m.s06, the session, m.s36 and m.s37
		`<code class="rule">step</code> <b class="subj">Then the server answers &#34;…&#34; within Ns</b> <span class="dim">awaited</span> <code class="ptr">pong</code>`,
		`<p class="hyp"><b>Likely:</b> after <code>send</code>, the server sent nothing within 2s in 2 scenarios</p>`,
		`<tr><th>got</th><td><code>received no message</code></td></tr>`,
		`#1 → send {&#34;type&#34;:&#34;send&#34;,&#34;text&#34;:&#34;hi&#34;}`,
		`2 scenarios: <span class="where"><a href="#s-ours-m.s36">m.s36</a>, <a href="#s-ours-m.s37">m.s37</a></span>`,
	} {
		if !strings.Contains(roots, want) {
			t.Errorf("root causes lack %q", want)
		}
	}
	if strings.Index(html, `id="root-causes"`) > strings.Index(html, `id="matrix"`) {
		t.Error("the root causes are not above the matrix")
	}
	attn := section(t, html, "attention", "</section>")
	if strings.Contains(attn, rcNull) || strings.Contains(attn, "event_id 4") {
		t.Errorf("needs attention repeats a root cause:\n%s", attn)
	}
	if strings.Contains(attn, "no answer") || strings.Count(attn, "still open") != 1 || !strings.Contains(attn, `m.s39</b></a>`) {
		t.Errorf("needs attention does not list only the step failure no root cause explains:\n%s", attn)
	}
	// Across the whole page the message of the first root cause is in its
	// row and in the findings of the scenarios that saw it, never in a
	// list of failures.
	if n := strings.Count(html, `<span class="why">`+rcNull); n != 0 {
		t.Errorf("%d failure lines repeat the first root cause", n)
	}
	for _, want := range []string{
		`<span class="who">server findings (judged):</span> <span class="sev-error">31 errors</span>, <span class="sev-warning">5 warnings</span> in <a href="#root-causes">3 distinct problems</a>`,
		`1 finding on frames sent by the tester, not judged`,
		`<span class="bgtag" title="`, `background (not what this scenario tested)`,
		`<span class="b bgb sev-error"`, // the badge of a scenario with background findings
		`<a class="rcl" href="#rc-1">root cause #1</a>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
	// A passed scenario whose only finding is background counts no error
	// of its own.
	s01 := section(t, html, "s-ours-m.s01", "</summary>")
	if strings.Contains(s01, `class="b sev-error"`) || !strings.Contains(s01, "1 background") {
		t.Errorf("m.s01's badges: %s", s01)
	}
}

// TestRootCausesMarkdown: the summary opens with the three distinct
// problems, one row each, before the counts and the failures, and the
// failure the first explains refers to it instead of repeating it.
func TestRootCausesMarkdown(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteMarkdown(&b, RootCausesReport()); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	head := strings.Index(md, "#### 4 distinct problems (3 errors, 1 warning)")
	if head < 0 || head > strings.Index(md, "| ✅ passed") || head > strings.Index(md, "#### Failures") {
		t.Fatalf("the summary does not open with the distinct problems:\n%s", md)
	}
	rows := regexp.MustCompile(`(?m)^\| \d+ \| .*\|$`).FindAllString(md, -1)
	if len(rows) != 4 {
		t.Fatalf("%d root cause rows:\n%s", len(rows), md)
	}
	rows = append(rows[:1], rows[2:]...) // the step cause's row is checked below
	for i, rule := range []string{rcNull, rcOrder, rcShown} {
		if !strings.Contains(rows[i], "`"+rule+"`") || strings.Count(md, "`"+rule+"`") != 1+map[int]int{0: 1, 1: 1}[i] {
			t.Errorf("row %d: %s (rule %s should be in its row, and the errors also in the one failure each explains)", i+1, rows[i], rule)
		}
	}
	for _, want := range []string{
		"| 1 | ❌ error ⚑ | `schema.violation` | stated | `turn_done /text` | 30 | `m.s01`, `m.s02`, `m.s03` and 27 more | expected `a string`, actual `null` |",
		"| 3 | ❌ error | `minicodex.event-id-order` | stated | `assistant_text /event_id` | 1 | session `live` | expected &gt; 5, actual `4` |",
		"shown | `assistant_text /meta` | 5 |",
		"root cause 1: `schema.violation`",
		"**session `live`**  \n  root cause 3: `minicodex.event-id-order` frame 2\n",
		"| 2 | ❌ failed | `step` `Then the server answers \"…\" within Ns` | — | `pong` | 2 | `m.s36`, `m.s37` | expected `\"pong\" within 2s`, got `received no message` |",
		"- 2: after \\`send\\`, the server sent nothing within 2s in 2 scenarios\n",
		"**`m.s36`** scenario 36  \n  root cause 2: this step failed the same way in 2 scenarios\n",
		"the server closes within 1s: still open",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestRootCausesJUnit: a "· root causes" suite holds one testcase per
// root cause, failed for the two errors with the quote, expected vs
// actual, the count and the scenarios in the body; the scenario suite is
// as before.
func TestRootCausesJUnit(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteJUnit(&b, RootCausesReport()); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
				Out string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &parsed); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	// 40 scenarios and a session (5 failed), and 3 root causes of
	// findings (2 failed); the step cause is in its scenarios' testcases
	if parsed.Tests != 44 || parsed.Failures != 7 || len(parsed.Suites) != 2 {
		t.Fatalf("tests %d failures %d suites %d:\n%s", parsed.Tests, parsed.Failures, len(parsed.Suites), b.String())
	}
	rs := parsed.Suites[1]
	if rs.Name != "minicodex · root causes" || rs.Tests != 3 || rs.Failures != 2 || parsed.Suites[0].Tests != 41 {
		t.Fatalf("suites: %s %d tests %d failures; %s %d tests", rs.Name, rs.Tests, rs.Failures, parsed.Suites[0].Name, parsed.Suites[0].Tests)
	}
	byName := map[string]int{}
	for i, c := range rs.Cases {
		byName[c.Name] = i
	}
	null, ok := byName["schema.violation on turn_done /text (server → client)"]
	if !ok {
		t.Fatalf("no testcase for the null: %v", byName)
	}
	f := rs.Cases[null].Failure
	if f == nil || f.Type != "root cause" || f.Message != "/text: null where the type is a string" {
		t.Fatalf("the null's testcase: %+v", rs.Cases[null])
	}
	for _, want := range []string{"quote:    class TurnDone(BaseModel): text: str", "expected: a string", "actual:   null",
		"count:    30 findings here", "seen in:  m.s01, m.s02,", "m.s30\n", "first:    frame #2 of m.s01", "decides the verdict by itself"} {
		if !strings.Contains(f.Body, want) {
			t.Errorf("the null's failure body lacks %q:\n%s", want, f.Body)
		}
	}
	order := rs.Cases[byName["minicodex.event-id-order on assistant_text /event_id (server → client)"]]
	if order.Failure == nil || !strings.Contains(order.Failure.Body, "seen in:  session live") {
		t.Errorf("the session's root cause: %+v", order)
	}
	warn := rs.Cases[byName["schema.shown on assistant_text /meta (server → client)"]]
	if warn.Failure != nil || !strings.Contains(warn.Out, "count:    5 findings here") || !strings.Contains(warn.Out, "evidence: shown") {
		t.Errorf("the warning's testcase: %+v", warn)
	}
}
