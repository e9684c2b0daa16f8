package reports

import (
	"bytes"
	"encoding/xml"
	"flag"
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

// sample is a run report with one scenario of each interesting verdict.
func sample() *Report {
	r := New(KindRun, "wsconform test", t0)
	r.Finished = t0.Add(1500 * time.Millisecond)
	r.Dialects = []string{"minicodex"}
	r.Targets = []Target{{Name: "reference", URL: "ws://127.0.0.1:7337", Reference: true}}
	hello := NewFrame(wire.Frame{Conn: "A#1", Index: 1, Dir: wire.ClientToServer, Time: t0, Op: wire.OpText,
		Payload: []byte(`{"type":"hello","v":"1.0.0"}`)}, "hello", "", 0)
	bad := NewFrame(wire.Frame{Conn: "A#1", Index: 2, Dir: wire.ServerToClient, Time: t0.Add(time.Millisecond), Op: wire.OpText,
		Payload: []byte(`{"type":"run_status","event_id":3}`)}, "run_status", "3", 0)
	r.Scenarios = []Scenario{
		{ID: "m.pass", Name: "passes", Feature: "F", File: "minicodex/f.feature", Line: 3, Dialect: "minicodex",
			Target: "reference", Level: "must", Verdict: Passed, Duration: time.Millisecond,
			Steps: []Step{{Keyword: "Given", Text: "a client connects", Status: "passed"}}, Frames: []Frame{hello}},
		{ID: "m.fail", Name: "fails <on purpose>", Feature: "F", File: "minicodex/f.feature", Line: 9, Dialect: "minicodex",
			Target: "reference", Level: "must", Requirement: "minicodex-v1.md §Resume: replay is gapless.",
			Verdict: Failed, Reason: "minicodex.replay-gap: skipped event_id 2", Duration: 2 * time.Millisecond,
			Steps: []Step{{Keyword: "Then", Text: `its "v" is "9"`, Status: "failed", Error: "wrong", Expected: `"9"`, Actual: `"1.0.0"`}},
			Findings: []Finding{{Finding: check.Finding{Rule: "minicodex.replay-gap", Severity: check.Error, Spec: "minicodex-v1.md §Resume",
				Message: "replay skipped event_id 2", Expected: "2", Actual: "3", Dir: wire.ServerToClient, Frame: 2}}},
			Frames: []Frame{hello, bad}, Rerun: "wsconform run --tags @id:m.fail"},
		{ID: "m.skip", Name: "skipped", Dialect: "minicodex", Target: "reference", Level: "must", Verdict: Skipped, Reason: "needs the scripted agent"},
		{ID: "m.known", Name: "known", Dialect: "minicodex", Target: "reference", Level: "must", Verdict: Failed, Reason: "x", Baselined: "tracked"},
	}
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

func TestTally(t *testing.T) {
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

func TestJUnitGolden(t *testing.T) {
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
	if parsed.Tests != 4 || parsed.Failures != 1 || parsed.Skipped != 2 {
		t.Errorf("tests %d failures %d skipped %d", parsed.Tests, parsed.Failures, parsed.Skipped)
	}
	golden(t, "run.junit.xml", b.Bytes())
}

func TestJSONGolden(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteJSON(&b, sample()); err != nil {
		t.Fatal(err)
	}
	golden(t, "run.json", b.Bytes())
}

func TestHTMLGolden(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteHTML(&b, sample()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"fails &lt;on purpose&gt;", `href="#s-reference-m.fail-f2"`, `id="s-reference-m.fail-f2"`} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
	if strings.Contains(html, "http://") || strings.Contains(html, "https://") {
		t.Error("html refers to the network")
	}
	golden(t, "run.html", b.Bytes())
}

func TestNewFrame(t *testing.T) {
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

func TestJUnitControlCharacters(t *testing.T) {
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
