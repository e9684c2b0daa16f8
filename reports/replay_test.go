package reports

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// ReplayReport is a `wsconform replay` report of minicodex: the new
// server stream judged as one session, and two connections compared with
// the recording. c1 matched; c2 differs after same identical rows: a
// run_status whose run_id and text changed, a turn_done missing from the
// replay and an agent_error extra in it, then three identical rows; c1
// ends with a late row. The
// browser test opens it with thousands of identical rows.
func ReplayReport(same int) *Report {
	r := New(KindReplay, "wsconform test", t0)
	r.Finished = t0.Add(3 * time.Second)
	r.Dialects = []string{"minicodex"}
	r.Targets = []Target{{Name: "ws://127.0.0.1:7337/ws", URL: "ws://127.0.0.1:7337/ws"}}
	r.Command = "wsconform replay --against ws://127.0.0.1:7337/ws --ignore /ts session.jsonl"
	idx := map[string]int64{}
	frame := func(conn string, dir wire.Direction, typ string, seq int, payload string) *Frame {
		idx[conn]++
		s := ""
		if seq > 0 {
			s = fmt.Sprint(seq)
		}
		f := NewFrame(wire.Frame{Conn: conn, Index: idx[conn], Dir: dir, Time: t0.Add(time.Duration(idx[conn]) * 10 * time.Millisecond),
			Op: wire.OpText, Payload: []byte(payload)}, typ, s, 0)
		return &f
	}
	event := func(conn string, seq int, ts string) *Frame {
		return frame(conn, wire.ServerToClient, "assistant_text", seq,
			fmt.Sprintf(`{"type":"assistant_text","event_id":%d,"run_id":"r1","text":"chunk %d","ts":"%s"}`, seq, seq, ts))
	}
	pair := func(op string, a, b *Frame) ReplayRow { return ReplayRow{Op: op, Recorded: a, Replayed: b} }

	var c1 []ReplayRow
	c1 = append(c1, pair(DiffSame,
		frame("c1", wire.ServerToClient, "welcome", 0, `{"type":"welcome","v":"1.0.0","session_id":"s1"}`),
		frame("r1", wire.ServerToClient, "welcome", 0, `{"type":"welcome","v":"1.0.0","session_id":"s9"}`)))
	for i := 1; i <= 2; i++ {
		c1 = append(c1, pair(DiffSame, event("c1", i, "10:00:01"), event("r1", i, "11:00:01")))
	}
	// The recorded client left before this one came: shown, not counted.
	c1 = append(c1, pair(DiffLate, nil, frame("r1", wire.ServerToClient, "heartbeat", 0, `{"type":"heartbeat","ts":"11:00:02"}`)))
	var c2 []ReplayRow
	for i := 1; i <= same; i++ {
		c2 = append(c2, pair(DiffSame, event("c2", i, "10:00:02"), event("r2", i, "11:00:02")))
	}
	n := same + 1
	c2 = append(c2,
		ReplayRow{Op: DiffChanged,
			Recorded: frame("c2", wire.ServerToClient, "run_status", n, fmt.Sprintf(`{"type":"run_status","event_id":%d,"run_id":"r1","status":"running","text":"<b>thinking</b>"}`, n)),
			Replayed: frame("r2", wire.ServerToClient, "run_status", n, fmt.Sprintf(`{"type":"run_status","event_id":%d,"run_id":"r2","status":"running"}`, n)),
			Members:  []MemberDiff{{Pointer: "/run_id", Recorded: `"r1"`, Replayed: `"r2"`}, {Pointer: "/text", Recorded: `"<b>thinking</b>"`}}},
		pair(DiffMissing, frame("c2", wire.ServerToClient, "turn_done", n+1, fmt.Sprintf(`{"type":"turn_done","event_id":%d,"run_id":"r1"}`, n+1)), nil),
		pair(DiffExtra, nil, frame("r2", wire.ServerToClient, "agent_error", 0, `{"type":"agent_error","message":"model overloaded, try again"}`)))
	for i := n + 2; i <= n+4; i++ {
		c2 = append(c2, pair(DiffSame, event("c2", i, "10:00:03"), event("r2", i-1, "11:00:03")))
	}
	masks := []string{"/ts", "/session_id"}
	r.Replays = []ReplayDiff{
		{Conn: "c1", Replayed: "r1", URL: "ws://127.0.0.1:7337/ws", Dialect: "minicodex", Side: wire.ServerToClient, Matched: true, Masks: masks, Rows: c1},
		{Conn: "c2", Replayed: "r2", URL: "ws://127.0.0.1:7337/ws", Dialect: "minicodex", Side: wire.ServerToClient, Masks: masks, Rows: c2},
	}
	b := NewSessionBuilder("minicodex", "--dialect minicodex", "", DefaultWireLimits)
	b.OpenConn("r1", "ws://127.0.0.1:7337/ws", t0)
	b.Bind("r1", "s9")
	for _, row := range c1 {
		f := row.Replayed
		b.Frame("s9", wire.Frame{Conn: f.Conn, Index: f.Index, Dir: f.Dir, Time: f.Time, Op: wire.OpText, Payload: []byte(f.Payload)}, f.Type, f.Seq, nil)
	}
	b.CloseConn("r1", t0.Add(time.Second), 1000, "", "client")
	r.Sessions = b.Sessions()
	r.Tally()
	return r
}

// TestReplayGoldens: the rendered fragment of the differing diff, and the
// JUnit XML, Markdown and JSON of the replay report, against testdata
// (go test ./reports -update rewrites them).
func TestReplayGoldens(t *testing.T) {
	t.Parallel()
	r := ReplayReport(12)
	var frag bytes.Buffer
	if err := ReplayDiffHTML(&frag, r.Replays[1]); err != nil {
		t.Fatal(err)
	}
	golden(t, "replay.fragment.html", frag.Bytes())
	for ext, write := range map[string]func(io.Writer, *Report) error{
		"junit.xml": WriteJUnit, "md": WriteMarkdown, "json": WriteJSON, "html": WriteHTML} {
		var b bytes.Buffer
		if err := write(&b, ReplayReport(12)); err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		golden(t, "replay."+ext, b.Bytes())
	}
}

func TestReplayVerdictAndLede(t *testing.T) {
	t.Parallel()
	r := ReplayReport(3)
	if r.Verdict != Failed {
		t.Errorf("an unmatched replay: verdict %s, want failed", r.Verdict)
	}
	p, err := newPage(r)
	if err != nil {
		t.Fatal(err)
	}
	if p.KindLabel != "Replay" || p.Lede != "2 connections replayed, 1 differs. The session passed." {
		t.Errorf("label %q, lede %q", p.KindLabel, p.Lede)
	}
	diff := func(side wire.Direction, matched ...bool) []ReplayDiff {
		var out []ReplayDiff
		for _, m := range matched {
			out = append(out, ReplayDiff{Side: side, Matched: m})
		}
		return out
	}
	for _, tc := range []struct {
		diffs []ReplayDiff
		want  string
	}{
		{nil, ""},
		{diff(wire.ServerToClient, true), "1 connection replayed, it matches"},
		{diff(wire.ServerToClient, false), "1 connection replayed, it differs"},
		{diff(wire.ServerToClient, true, true, true), "3 connections replayed, all match"},
		{diff(wire.ServerToClient, true, false, false), "3 connections replayed, 2 differ"},
		{diff(wire.ClientToServer, false, true), "2 client connections compared with the recording, 1 differs"},
	} {
		if got := replayLede(tc.diffs); got != tc.want {
			t.Errorf("replayLede(%v) = %q, want %q", tc.diffs, got, tc.want)
		}
	}
}

// TestReplayGateClientWording: a gate report whose diffs are a client's
// (serve --replay) says so.
func TestReplayGateClientWording(t *testing.T) {
	t.Parallel()
	r := ReplayReport(3)
	r.Kind = KindGate
	for i := range r.Replays {
		r.Replays[i].Side = wire.ClientToServer
	}
	r.Tally()
	var b bytes.Buffer
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"2 client connections compared with the recording, 1 differs.", ">client stream<",
		"recorded (expected) <b>c2</b>", "client sent <b>r2</b>", "− missing from the client"} {
		if !strings.Contains(html, want) {
			t.Errorf("the gate page lacks %q", want)
		}
	}
}

// TestReplayHTMLFolds: a long run of identical rows is one folded line
// with the context rows beside the differences shown; differences are
// never folded; wire text is escaped.
func TestReplayHTMLFolds(t *testing.T) {
	t.Parallel()
	r := ReplayReport(3000)
	extra := r.Replays[1].Rows[3002].Replayed
	extra.Payload, extra.Type = xssImg+xssScript, xssImg
	var b bytes.Buffer
	if err := ReplayDiffHTML(&b, r.Replays[1]); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		`<details class="rrun"><summary>… 2998 identical frames</summary>`,
		`<details class="rr op-changed" id="replay-c2-r3001">`,
		`<code class="ptr">/run_id</code> <code class="rv">&#34;r1&#34;</code> → <code class="rv">&#34;r2&#34;</code>`,
		`<code class="ptr">/text</code> <code class="rv">&#34;&lt;b&gt;thinking&lt;/b&gt;&#34;</code> → <i class="dim">absent</i>`,
		`<details class="rr op-missing" id="replay-c2-r3002">`,
		`<details class="rr op-extra" id="replay-c2-r3003">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the fragment lacks %q", want)
		}
	}
	for _, bad := range []string{"<b>thinking", "<img", "<script", "<!--"} {
		if strings.Contains(html, bad) {
			t.Errorf("a payload's markup %q is not escaped", bad)
		}
	}
	// 2 context rows before the differences, 3 after (too few to fold)
	if n := strings.Count(html, `class="rr op-same"`) - 2998; n != 5 {
		t.Errorf("%d identical rows shown outside the fold, want 5", n)
	}
	long := ReplayReport(replayRunMax + 300)
	b.Reset()
	if err := ReplayDiffHTML(&b, long.Replays[1]); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `class="rr op-same"`); n != replayRunMax+5 ||
		!strings.Contains(b.String(), `… 5298 identical frames</summary>`) || !strings.Contains(b.String(), "… and 298 more identical frames, not in this page") {
		t.Errorf("a run beyond replayRunMax: %d identical rows rendered", n)
	}
	var m bytes.Buffer
	if err := ReplayDiffHTML(&m, r.Replays[0]); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.String(), `<span class="v v-passed">✓ matched</span>`) || strings.Contains(m.String(), " open>") {
		t.Errorf("a matched diff: %s", m.String())
	}
}

// TestReplayJSONRoundTrip: the report's replays read back as written.
func TestReplayJSONRoundTrip(t *testing.T) {
	t.Parallel()
	r := ReplayReport(5)
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Replays, r.Replays) {
		t.Errorf("replays changed in a JSON round trip:\n%+v\n%+v", back.Replays[1].Rows[5], r.Replays[1].Rows[5])
	}
}

// TestReplayJUnit: well-formed XML (every token decodes), a "replay"
// suite with a testcase per connection, the unmatched one failed with its
// differing rows in the body.
func TestReplayJUnit(t *testing.T) {
	t.Parallel()
	r := ReplayReport(80)
	r.Replays[1].Rows[0].Recorded.Payload = "bad \x01 ]]> <frame>"
	r.Replays[1].Error = "the server closed with 1011 \x02"
	var b bytes.Buffer
	if err := WriteJUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	for {
		if _, err := dec.Token(); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("not well-formed XML: %v\n%s", err, b.String())
			}
			break
		}
	}
	var parsed struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	for _, s := range parsed.Suites {
		if s.Name != "replay" {
			continue
		}
		if s.Tests != 2 || s.Failures != 1 || s.Cases[0].Failure != nil || s.Cases[1].Failure == nil {
			t.Fatalf("replay suite: %+v", s)
		}
		f := s.Cases[1].Failure
		if f.Message != "stopped early: the server closed with 1011 \uFFFD; 3 differences in 86 frames (1 changed, 1 missing, 1 extra)" {
			t.Errorf("message %q", f.Message)
		}
		for _, want := range []string{"row 81 changed\n  recorded: #81 ← run_status [81]\n  replayed: #81 ← run_status [81]\n    /run_id: \"r1\" → \"r2\"\n    /text: \"<b>thinking</b>\" → (absent)\n",
			"row 82 missing\n  recorded: #82 ← turn_done [82] {\"type\":\"turn_done\"", "row 83 extra\n  replayed: #82 ← agent_error {\"type\":\"agent_error\""} {
			if !strings.Contains(f.Body, want) {
				t.Errorf("failure body lacks %q:\n%s", want, f.Body)
			}
		}
		return
	}
	t.Fatal("no replay suite")
}

// TestReplayMarkdownBounded: a diff of many differing rows lists the
// first ones and says how many more.
func TestReplayMarkdownBounded(t *testing.T) {
	t.Parallel()
	r := ReplayReport(2)
	d := &r.Replays[1]
	extra := d.Rows[4]
	for i := 0; i < 40; i++ {
		d.Rows = append(d.Rows, extra)
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if strings.Count(md, "| ≠ changed |") != 1 || strings.Count(md, "| + extra |") != 8 ||
		!strings.Contains(md, "… and 33 more differing rows: see the HTML report") {
		t.Errorf("markdown:\n%s", md)
	}
}

// TestReplayRedacted: credentials in replayed payloads, member values and
// URLs are redacted as the sessions' frames are, and the report given is
// not changed.
func TestReplayRedacted(t *testing.T) {
	t.Parallel()
	r := ReplayReport(2)
	d := &r.Replays[1]
	d.URL = "ws://h/ws?token=SECRET1-query"
	d.Rows[0].Recorded.Payload = `{"type":"hello","apiKey":"SECRET4-apikey"}`
	d.Rows[0].Replayed.Payload = `{"type":"hello","apiKey":"SECRET6-replayed"}`
	d.Rows[2].Members = append(d.Rows[2].Members, MemberDiff{Pointer: "/auth/token", Recorded: `"SECRET7-member"`, Replayed: `"SECRET8-member"`})
	d.Rows[3].Recorded.Payload = `{"type":"turn_done","note":"echo SECRET6-replayed"}`
	before, _ := json.Marshal(r)
	red := Redact(r)
	out := writeAll(t, red)
	var frag bytes.Buffer
	if err := ReplayDiffHTML(&frag, red.Replays[1]); err != nil {
		t.Fatal(err)
	}
	out += frag.String()
	for _, s := range []string{"SECRET1-query", "SECRET4-apikey", "SECRET6-replayed", "SECRET7-member", "SECRET8-member"} {
		if strings.Contains(out, s) {
			i := strings.Index(out, s)
			t.Errorf("a report holds %s: …%s…", s, out[max(0, i-120):min(len(out), i+40)])
		}
	}
	if after, _ := json.Marshal(r); !bytes.Equal(before, after) {
		t.Error("Redact changed the report it was given")
	}
	if !json.Valid([]byte(red.Replays[1].Rows[0].Replayed.Payload)) {
		t.Errorf("a replayed payload is no longer JSON: %s", red.Replays[1].Rows[0].Replayed.Payload)
	}
	once, _ := json.Marshal(red)
	twice, _ := json.Marshal(Redact(red))
	if !bytes.Equal(once, twice) {
		t.Error("redacting twice changed the replays")
	}
}
