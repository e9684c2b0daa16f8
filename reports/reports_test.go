package reports

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// sample is a run report with one scenario of each interesting verdict;
// the passing one saw a background warning (a frame none of its steps was
// about), the failing one sent a deliberately invalid frame.
func sample() *Report {
	r := New(KindRun, "wsconform test", t0)
	r.Finished = t0.Add(1500 * time.Millisecond)
	r.Dialects = []string{"minicodex"}
	r.Targets = []Target{{Name: "reference", URL: "ws://127.0.0.1:7337", Reference: true}}
	hello := NewFrame(wire.Frame{Conn: "A#1", Index: 1, Dir: wire.ClientToServer, Time: t0, Op: wire.OpText,
		Payload: []byte(`{"type":"hello","v":"1.0.0"}`)}, "hello", "", 0)
	bad := NewFrame(wire.Frame{Conn: "A#1", Index: 2, Dir: wire.ServerToClient, Time: t0.Add(time.Millisecond), Op: wire.OpText,
		Payload: []byte(`{"type":"run_status","event_id":3}`)}, "run_status", "3", 0)
	welcome := NewFrame(wire.Frame{Conn: "A#1", Index: 2, Dir: wire.ServerToClient, Time: t0.Add(time.Millisecond), Op: wire.OpText,
		Payload: []byte(`{"type":"welcome","session_id":null}`)}, "welcome", "", 0)
	r.Scenarios = []Scenario{
		{ID: "m.pass", Name: "passes", Feature: "F", File: "minicodex/f.feature", Line: 3, Dialect: "minicodex",
			Target: "reference", Level: "must", Verdict: Passed, Duration: time.Millisecond,
			Steps: []Step{{Keyword: "Given", Text: "a client connects", Status: "passed"}}, Frames: []Frame{hello, welcome},
			Findings: []Finding{{Finding: check.Finding{Rule: "schema.null-optional", Severity: check.Warning, Evidence: check.Shown,
				Spec: "minicodex-v1.md §Messages", Quote: "session_id?: string", Message: "null in the optional member session_id",
				Type: "welcome", Pointer: "/session_id", Expected: "a string, or no member", Actual: "null", Dir: wire.ServerToClient,
				Frame: 2}, Background: true}}},
		{ID: "m.fail", Name: "fails <on purpose>", Feature: "F", File: "minicodex/f.feature", Line: 9, Dialect: "minicodex",
			Target: "reference", Level: "must", Requirement: "minicodex-v1.md §Resume: replay is gapless.",
			Verdict: Failed, Reason: "minicodex.replay-gap: replay skipped event_id 2", Duration: 2 * time.Millisecond,
			Steps: []Step{{Keyword: "Then", Text: `its "v" is "9"`, Status: "failed", Error: "wrong", Expected: `"9"`, Actual: `"1.0.0"`}},
			Findings: []Finding{{Finding: check.Finding{Rule: "minicodex.replay-gap", Severity: check.Error, Evidence: check.Stated,
				Spec: "minicodex-v1.md §Resume", Quote: "the server MUST replay every event after last_seen_event_id, in order",
				Message: "replay skipped event_id 2", Type: "run_status", Pointer: "/event_id", Expected: "2", Actual: "3",
				Dir: wire.ServerToClient, Frame: 2}},
				{Finding: check.Finding{Rule: "schema.violation", Severity: check.Error, Evidence: check.Stated, Message: "v must be a string",
					Type: "hello", Pointer: "/v", Dir: wire.ClientToServer, Frame: 1}}},
			Frames: []Frame{hello, bad}, Rerun: "wsconform run --tags @id:m.fail"},
		{ID: "m.skip", Name: "skipped", Dialect: "minicodex", Target: "reference", Level: "must", Verdict: Skipped, Reason: "needs the scripted agent"},
		{ID: "m.known", Name: "known", Dialect: "minicodex", Target: "reference", Level: "must", Verdict: Failed, Reason: "x", Baselined: "tracked"},
	}
	r.Tally()
	return r
}

// sessions is a validate report: one failing session of two connections
// (a reconnect) with a replay finding, and one passing session.
func sessions() *Report {
	r := New(KindValidate, "wsconform test", t0)
	r.Finished = t0.Add(2 * time.Second)
	r.Dialects = []string{"minicodex"}
	r.Targets = []Target{{Name: "planted.jsonl"}}
	r.Command = "wsconform validate --html r.html planted.jsonl"
	b := NewSessionBuilder("minicodex", "the recording header names minicodex", "planted.jsonl", DefaultWireLimits)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	frame := func(conn string, i int64, dir wire.Direction, payload string) wire.Frame {
		return wire.Frame{Conn: conn, Index: i, Dir: dir, Time: at(int(i) * 100), Op: wire.OpText, Payload: []byte(payload)}
	}
	b.OpenConn("c1", "ws://127.0.0.1:7337/ws", at(0))
	b.Bind("c1", "s1")
	b.Frame("s1", frame("c1", 1, wire.ClientToServer, `{"type":"hello","v":"1.0.0"}`), "hello", "", nil)
	b.Frame("s1", frame("c1", 2, wire.ServerToClient, `{"type":"turn_done","run_id":"r1","event_id":6}`), "turn_done", "6", nil)
	b.CloseConn("c1", at(250), 1006, "", "network")
	b.OpenConn("c2", "ws://127.0.0.1:7337/ws", at(300))
	b.SetParent("c2", "c1")
	b.Bind("c2", "s1")
	b.Frame("s1", frame("c2", 3, wire.ClientToServer, `{"type":"resume","last_seen_event_id":4}`), "resume", "", nil)
	replay := Finding{Finding: check.Finding{Rule: "minicodex.replay-mismatch", Severity: check.Error,
		Spec: "minicodex-v1.md §Handshake & resume", Message: "event_id 6 delivered again with different content",
		Pointer: "/run_id", Expected: `"r1"`, Actual: `"r2"`, Diff: "- /run_id: \"r1\"\n+ /run_id: \"r2\"",
		Conn: "c2", Dir: wire.ServerToClient, Frame: 4, Related: []int64{2}}}
	b.Frame("s1", frame("c2", 4, wire.ServerToClient, `{"type":"turn_done","run_id":"r2","event_id":6}`), "turn_done", "6", []Finding{replay})
	b.OpenConn("c3", "ws://127.0.0.1:7337/ws", at(1000))
	b.Bind("c3", "s2")
	b.Frame("s2", frame("c3", 5, wire.ClientToServer, `{"type":"hello","v":"1.0.0"}`), "hello", "", nil)
	b.CloseConn("c3", at(1500), 1000, "bye", "client")
	r.Sessions = b.Sessions()
	r.Notes = []string{"planted.jsonl: 1 malformed line skipped"}
	r.Tally()
	return r
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./reports -update rewrites it):\n%s", name, got)
	}
}

// TestReportGoldens writes every writer's output of both samples and
// compares it with testdata (go test ./reports -update rewrites them).
func TestReportGoldens(t *testing.T) {
	t.Parallel()
	writers := map[string]func(io.Writer, *Report) error{
		"html": WriteHTML, "json": WriteJSON, "junit.xml": WriteJUnit, "md": WriteMarkdown,
	}
	samples := map[string]func() *Report{"run": sample, "sessions": sessions, "coverage": covSample}
	for sname, mk := range samples {
		for ext, write := range writers {
			var b bytes.Buffer
			if err := write(&b, mk()); err != nil {
				t.Fatalf("%s.%s: %v", sname, ext, err)
			}
			golden(t, sname+"."+ext, b.Bytes())
		}
	}
}

func TestReportTally(t *testing.T) {
	t.Parallel()
	r := sample()
	if r.Verdict != Failed || r.Counts[Passed] != 1 || r.Counts[Failed] != 2 || r.Counts[Skipped] != 1 {
		t.Errorf("verdict %s counts %v", r.Verdict, r.Counts)
	}
	r.Scenarios = r.Scenarios[2:] // only the skipped one and the baselined failure
	r.Tally()
	if r.Verdict != Passed {
		t.Errorf("a skip and a baselined failure give %s, want passed", r.Verdict)
	}
}

func TestReportJUnitCounts(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteJUnit(&b, sample()); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
	}
	if err := xml.Unmarshal(b.Bytes(), &parsed); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	// 4 scenarios, and 2 root causes: the replay gap (failed) and the
	// background warning (passed)
	if parsed.Tests != 6 || parsed.Failures != 2 || parsed.Skipped != 2 {
		t.Errorf("tests %d failures %d skipped %d", parsed.Tests, parsed.Failures, parsed.Skipped)
	}
}

func TestReportHTMLStatic(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteHTML(&b, sample()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		"fails &lt;on purpose&gt;",                      // names are escaped
		`href="#s-reference-m.fail-f2"`,                 // the finding links to its frame's row…
		`"a":"s-reference-m.fail"`,                      // …which the script renders from the data
		`<details class="item" id="s-reference-m.fail"`, // failed scenarios start open
		`data-count="failed">2<`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
	if !strings.Contains(html, `id="s-reference-m.fail" data-n="1" data-verdict="failed" data-sev="3" data-dialect="minicodex" data-target="reference" open>`) {
		t.Error("the failed scenario does not start open")
	}
}

func TestReportNewFrame(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		op        wire.Opcode
		payload   []byte
		max       int
		want      string
		binary    bool
		truncated bool
	}{
		{"text", wire.OpText, []byte(`{"a":1}`), 0, `{"a":1}`, false, false},
		{"binary", wire.OpBinary, []byte{0, 1}, 0, "AAE=", true, false},
		{"invalid utf-8", wire.OpText, []byte{0xff}, 0, "/w==", true, false},
		{"cut", wire.OpText, []byte("abcdef"), 3, "abc", false, true},
		{"cut inside a rune", wire.OpText, []byte("aé"), 2, "a", false, true},
	}
	for _, tt := range tests {
		f := NewFrame(wire.Frame{Op: tt.op, Payload: tt.payload}, "", "", tt.max)
		if f.Payload != tt.want || f.Binary != tt.binary || f.Truncated != tt.truncated || f.Size != len(tt.payload) {
			t.Errorf("%s: %+v", tt.name, f)
		}
	}
}

func TestReportJUnitControlCharacters(t *testing.T) {
	t.Parallel()
	r := sample()
	r.Scenarios[1].Frames = append(r.Scenarios[1].Frames, NewFrame(wire.Frame{Conn: "A#1", Index: 3, Dir: wire.ServerToClient,
		Op: wire.OpText, Payload: []byte("bad \x01\x1b frame ]]> end")}, "", "", 0))
	var b bytes.Buffer
	if err := WriteJUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Suites []struct {
			Cases []struct {
				Out string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &parsed); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	if out := parsed.Suites[0].Cases[1].Out; !strings.Contains(out, "bad \uFFFD\uFFFD frame ]]> end") {
		t.Errorf("system-out: %q", out)
	}
}
