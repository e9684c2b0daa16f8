package reports

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

// secrets are planted in every place of secretReport.
var secrets = []string{"SECRET1-query", "SECRET2-host", "SECRET3-bearer", "SECRET4-apikey", "SECRET5-var"}

func secretReport() *Report {
	t0 := time.Unix(1700000000, 0).UTC()
	r := New(KindRun, "wsconform test", t0)
	r.Finished = t0.Add(time.Second)
	r.Dialects = []string{"hostd"}
	r.Command = "wsconform run --target ws://h/ws?token=SECRET1-query --var host_token=SECRET2-host " +
		"--header 'Authorization: Bearer SECRET3-bearer' --var password=SECRET5-var"
	r.Targets = []Target{{Name: "ws://h/ws?token=SECRET1-query", URL: "ws://h/ws?token=SECRET1-query"}}
	frame := func(i int64, payload string) Frame {
		return NewFrame(wire.Frame{Index: i, Time: t0, Conn: "c1", Dir: wire.ClientToServer, Op: wire.OpText,
			Payload: []byte(payload)}, "hello", "", 0)
	}
	finding := Finding{Finding: check.Finding{Rule: "schema.violation", Severity: check.Error, Message: "bad apiKey",
		Type: "hello", Pointer: "/apiKey", Expected: "at most 8 characters", Actual: `"SECRET4-apikey"`,
		Dir: wire.ClientToServer, Frame: 1}}
	r.Scenarios = []Scenario{{ID: "hostd/login", Name: "login", Feature: "login", Dialect: "hostd", Target: "ref",
		Verdict: Failed, Reason: "the host with SECRET2-host was refused",
		Rerun: "wsconform run --var host_token=SECRET2-host --tags @login",
		Steps: []Step{{Keyword: "Given ", Text: `a host connects with token "SECRET2-host"`, Status: "failed",
			Error: "dial ws://h/ws/host?host_token=SECRET2-host: refused", Expected: "101", Actual: "401"}},
		Findings: []Finding{finding},
		Frames: []Frame{frame(1, `{"type":"hello","apiKey":"SECRET4-apikey"}`),
			frame(2, `{"type":"error","message":"unknown key SECRET4-apikey"}`)}}}
	r.Sessions = []Session{{ID: "s1", Dialect: "hostd", Verdict: Failed,
		Conns:    []Connection{{ID: "c1", URL: "ws://h/ws?host_token=SECRET2-host&v=1", Opened: t0}},
		Findings: []Finding{finding},
		Frames:   []Frame{frame(1, `{"type":"hello","apiKey":"SECRET4-apikey"}`)}, FramesTotal: 1}}
	r.Errors = []string{"GET http://h/x?access_token=SECRET1-query: 500"}
	r.Notes = []string{"WSCONFORM_HOST_TOKEN=SECRET2-host was set"}
	r.Tally()
	return r
}

func writeAll(t *testing.T, r *Report) string {
	t.Helper()
	var all strings.Builder
	for name, w := range map[string]func(io.Writer, *Report) error{
		"html": WriteHTML, "json": WriteJSON, "junit": WriteJUnit, "markdown": WriteMarkdown} {
		var b bytes.Buffer
		if err := w(&b, r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		all.WriteString(b.String())
	}
	return all.String()
}

func TestRedactReport(t *testing.T) {
	r := secretReport()
	before, _ := json.Marshal(r)
	red := Redact(r)
	out := writeAll(t, red)
	for _, s := range secrets {
		if strings.Contains(out, s) {
			i := strings.Index(out, s)
			t.Errorf("a report holds %s: …%s…", s, out[max(0, i-120):min(len(out), i+40)])
		}
	}
	for _, want := range []string{"redacted(", "«redacted: 14 chars»", "Bearer «redacted: 14 chars»"} {
		if !strings.Contains(out, want) {
			t.Errorf("the reports lack %q", want)
		}
	}
	if after, _ := json.Marshal(r); !bytes.Equal(before, after) {
		t.Error("Redact changed the report it was given")
	}
	// the verdicts and the frames' shape stay
	if red.Verdict != r.Verdict || red.Scenarios[0].Frames[0].Size != r.Scenarios[0].Frames[0].Size {
		t.Error("verdict or frame size changed")
	}
	if !json.Valid([]byte(red.Scenarios[0].Frames[0].Payload)) || !json.Valid([]byte(red.Scenarios[0].Frames[1].Payload)) {
		t.Errorf("payloads are no longer JSON: %s", red.Scenarios[0].Frames[0].Payload)
	}
	once, _ := json.Marshal(red)
	twice, _ := json.Marshal(Redact(red))
	if !bytes.Equal(once, twice) {
		t.Errorf("redacting twice changed the report:\n%s\n%s", once, twice)
	}
	// without Redact, every writer shows them (what --no-redact writes)
	plain := writeAll(t, r)
	for _, s := range secrets {
		if !strings.Contains(plain, s) {
			t.Errorf("the unredacted reports lack %s", s)
		}
	}
}

func TestRedactActual(t *testing.T) {
	for _, tc := range []struct{ pointer, actual, want string }{
		{"/apiKey", `"SECRET4-apikey"`, `"«redacted: 14 chars»"`},
		{"/apiKey", `"SECRET4-apikey-0123456789"`, `"«redacted: 25 chars»"`},
		{"/apiKey", `"pw"`, `"«redacted: 2 chars»"`},
		{"/data/token", `12345`, `10000`},
		{"/token", `string abc`, `«redacted: 10 chars»`},
		{"/type", `"hello"`, `"hello"`},
		{"", `"hello"`, `"hello"`},
		{"/apiKey", `absent`, `absent`}, // a description, not a value
		{"/token", `an object`, `an object`},
	} {
		if got := redactActual(nil, tc.pointer, tc.actual); got != tc.want {
			t.Errorf("redactActual(%q, %q) = %q, want %q", tc.pointer, tc.actual, got, tc.want)
		}
	}
}

func BenchmarkRedactReport(b *testing.B) {
	r := secretReport()
	for i := 0; i < 2000; i++ {
		r.Sessions[0].Frames = append(r.Sessions[0].Frames, r.Sessions[0].Frames[0])
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Redact(r)
	}
}

// TestRedactBinaryFrames: binary frames are redacted too (as text when
// they are UTF-8, else their token shapes masked in place), tokens in text
// frames and JSON held in strings as well; a note says how many binary
// frames were searched only for token shapes, once however often the
// report is redacted.
func TestRedactBinaryFrames(t *testing.T) {
	t.Parallel()
	const ghp = "ghp_0123456789abcdefghijABCDEFGHIJklmnop"
	t0 := time.Unix(1700000000, 0).UTC()
	frame := func(i int64, op wire.Opcode, payload string) Frame {
		return NewFrame(wire.Frame{Index: i, Time: t0, Conn: "c1", Dir: wire.ClientToServer, Op: op,
			Payload: []byte(payload)}, "", "", 0)
	}
	r := New(KindProxy, "wsproxy", t0)
	r.Sessions = []Session{{ID: "s1", Dialect: "minicodex", Conns: []Connection{{ID: "c1", URL: "ws://h/ws", Opened: t0}},
		Frames: []Frame{
			frame(1, wire.OpBinary, `{"type":"x","apiKey":"SECRET4-apikey"}`),
			frame(2, wire.OpBinary, "\xff\x00"+ghp+"\x00SECRET4-apikey"),
			frame(3, wire.OpText, `{"type":"x","config":"{\"password\":\"SECRET5-var\"}","note":"`+ghp+`"}`),
		}, FramesTotal: 3}}
	red := Redact(r)
	out := writeAll(t, red)
	for _, s := range []string{"SECRET4-apikey", "SECRET5-var", ghp} {
		for _, enc := range []string{s, base64.StdEncoding.EncodeToString([]byte(s))} {
			if strings.Contains(out, enc) {
				t.Errorf("a report holds %s", enc)
			}
		}
		for _, f := range red.Sessions[0].Frames {
			p := f.Payload
			if f.Binary {
				b, _ := base64.StdEncoding.DecodeString(p)
				p = string(b)
			}
			if strings.Contains(p, s) {
				t.Errorf("frame %d holds %s: %q", f.Index, s, p)
			}
		}
	}
	b, _ := base64.StdEncoding.DecodeString(red.Sessions[0].Frames[1].Payload)
	if want := "\xff\x00redacted(40)----------------------------\x00redacted(14)--"; string(b) != want {
		t.Errorf("binary frame = %q, want %q", b, want)
	}
	if want := []string{BinaryNote(1)}; !slices.Equal(red.Notes, want) {
		t.Errorf("notes %q, want %q", red.Notes, want)
	}
	if !strings.Contains(out, "1 binary frame is not text") {
		t.Error("the reports do not say the binary frame was searched only for token shapes")
	}
	once, _ := json.Marshal(red)
	twice, _ := json.Marshal(Redact(red))
	if !bytes.Equal(once, twice) {
		t.Errorf("redacting twice changed the report:\n%s\n%s", once, twice)
	}
	if len(r.Notes) != 0 {
		t.Error("Redact changed the report it was given")
	}
}

// TestRedactKeepsDescriptions: a finding that says a credential member is
// absent does not make the word "absent" a secret of the whole report (a
// field trial's steps read "is null or «redacted: 6 chars»").
func TestRedactKeepsDescriptions(t *testing.T) {
	r := &Report{Kind: KindRun, Scenarios: []Scenario{{ID: "s", Verdict: Failed,
		Steps:    []Step{{Keyword: "And", Text: `its "result.error" is null or absent`, Status: "failed", Expected: "null or absent"}},
		Findings: []Finding{{Finding: check.Finding{Rule: "schema.violation", Pointer: "/apiKey", Actual: "absent"}}}}}}
	red := Redact(r)
	st := red.Scenarios[0].Steps[0]
	if st.Text != `its "result.error" is null or absent` || st.Expected != "null or absent" {
		t.Errorf("the step was scrubbed of a description word: %q, %q", st.Text, st.Expected)
	}
}
