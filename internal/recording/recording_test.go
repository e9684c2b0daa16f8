package recording

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func sampleFrames() []wire.Frame {
	return []wire.Frame{
		{Conn: "c1", Index: 1, Dir: wire.ClientToServer, Time: t0, Op: wire.OpText, Payload: []byte(`{"type":"hello","v":"1.0.0","html":"<b>&</b>"}`)},
		{Conn: "c1", Index: 2, Dir: wire.ServerToClient, Time: t0.Add(time.Millisecond), Op: wire.OpBinary, Payload: []byte{0, 1, 2, 0xff}},
		{Conn: "c1", Index: 3, Dir: wire.ServerToClient, Time: t0.Add(2 * time.Millisecond), Op: wire.OpText, Payload: []byte("bad \xff utf8")},
		{Conn: "c1", Index: 4, Dir: wire.ClientToServer, Time: t0.Add(3 * time.Millisecond), Op: wire.OpClose, CloseCode: 1000, Payload: []byte("bye")},
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Dialect: "minicodex", Tool: "test", Started: t0})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Open("c1", "s1", "", "ws://127.0.0.1/ws", t0); err != nil {
		t.Fatal(err)
	}
	for _, f := range sampleFrames() {
		if err := w.Frame("s1", f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close("c1", "s1", 1000, "bye", ByClient, t0); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"html\":\"<b>&</b>\"`) {
		t.Errorf("payload was HTML-escaped:\n%s", buf.String())
	}
	var got []Line
	src, problems, err := Scan(&buf, func(l Line) error { got = append(got, l); return nil })
	if err != nil || len(problems) > 0 || src != SourceJSONL {
		t.Fatalf("scan: %v %v %v", src, problems, err)
	}
	if len(got) != 7 || got[0].Kind != KindHeader || got[0].Dialect != "minicodex" || got[1].Kind != KindOpen || got[6].Kind != KindClose {
		t.Fatalf("lines = %+v", got)
	}
	for i, want := range sampleFrames() {
		f, err := got[i+2].Frame()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.Payload, want.Payload) || f.Op != want.Op || f.Dir != want.Dir || f.Index != want.Index ||
			!f.Time.Equal(want.Time) || f.CloseCode != want.CloseCode {
			t.Errorf("frame %d: got %+v, want %+v", i, f, want)
		}
	}
	if got[6].By != ByClient || got[6].Code != 1000 {
		t.Errorf("close line = %+v", got[6])
	}
}

func TestMalformedLinesAreReportedAndSkipped(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"kind":"header","format":"wsconform-recording","version":1,"dialect":"mitto","time":"2026-11-21T10:00:00Z"}`,
		`{"kind":"frame","conn":"c1","dir":"s2c","index":1,"time":"2026-11-21T10:00:00Z","opcode":1,"text":"{}"}`,
		`not json at all`,
		`{"kind":"frame","conn":"c1","dir":"sideways","index":2,"opcode":1,"text":"{}"}`,
		`{"kind":"frame","conn":"c1","dir":"c2s","index":3,"opcode":1,"base64":"***"}`,
		`{"kind":"frame","dir":"c2s","index":4,"opcode":1,"text":"{}"}`,
		`{"kind":"frame","conn":"c1","dir":"c2s","index":5,"opcode":7,"text":"{}"}`,
		`{"kind":"teleport","conn":"c1"}`,
		``,
		`{"kind":"frame","conn":"c1","dir":"c2s","index":6,"time":"2026-11-21T10:00:00Z","opcode":1,"text":"{\"type\":\"cancel\"}"}`,
		`{"kind":"frame","conn":"c1","dir":"c2s","index":7,"opcode":1,"te`, // torn last line: a crash mid-write
	}, "\n")
	var frames int
	_, problems, err := Scan(strings.NewReader(in), func(l Line) error {
		if l.Kind == KindFrame {
			frames++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if frames != 2 {
		t.Errorf("read %d good frames, want 2", frames)
	}
	wantLines := []int{3, 4, 5, 6, 7, 8, 11}
	if len(problems) != len(wantLines) {
		t.Fatalf("problems = %v, want lines %v", problems, wantLines)
	}
	for i, p := range problems {
		if p.Line != wantLines[i] {
			t.Errorf("problem %d on line %d, want %d (%s)", i, p.Line, wantLines[i], p.Err)
		}
	}
}

func TestOverlongLineIsSkipped(t *testing.T) {
	t.Parallel()
	// streamed, not built: the line is over 96 MiB
	r := io.MultiReader(
		strings.NewReader(`{"kind":"frame","conn":"c1","dir":"c2s","index":1,"opcode":1,"text":"`),
		io.LimitReader(repeatByte('a'), MaxLineBytes+10),
		strings.NewReader("\"}\n"),
		strings.NewReader(`{"kind":"frame","conn":"c1","dir":"c2s","index":2,"opcode":1,"text":"{}"}`+"\n"))
	var idx []int64
	_, problems, err := Scan(r, func(l Line) error { idx = append(idx, l.Index); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || problems[0].Line != 1 || len(idx) != 1 || idx[0] != 2 {
		t.Fatalf("problems %v, frames %v", problems, idx)
	}
}

func TestReadHAR(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/chrome.har")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []Line
	src, problems, err := Scan(f, func(l Line) error { lines = append(lines, l); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if src != SourceHAR {
		t.Fatalf("detected %s, want har", src)
	}
	if len(problems) != 2 || problems[0].Where() != "HAR entry 1, message 4" || problems[1].Where() != "HAR entry 1, message 5" {
		t.Errorf("problems = %v", problems)
	}
	if len(lines) != 5 || lines[0].Kind != KindOpen || lines[0].URL != "ws://127.0.0.1:7337/ws" || lines[4].Kind != KindClose {
		t.Fatalf("lines = %+v", lines)
	}
	hello, err := lines[1].Frame()
	if err != nil || hello.Dir != wire.ClientToServer || !strings.Contains(string(hello.Payload), "hello") || hello.Index != 1 {
		t.Errorf("first frame = %+v, %v", hello, err)
	}
	if want := time.Unix(1795255200, 101e6); hello.Time.Sub(want).Abs() > time.Millisecond {
		t.Errorf("time = %v, want %v", hello.Time, want)
	}
	bin, err := lines[3].Frame()
	if err != nil || bin.Op != wire.OpBinary || !bytes.Equal(bin.Payload, []byte{0, 1, 2}) {
		t.Errorf("binary frame = %+v, %v", bin, err)
	}
}

// TestUnreadableHAR: a HAR cut short is a problem that says where it
// breaks, not an error that loses what came before.
func TestUnreadableHAR(t *testing.T) {
	t.Parallel()
	n := 0
	_, problems, err := Scan(strings.NewReader(`{"log": {"entries": [`), func(Line) error { n++; return nil })
	if err != nil || n != 0 || len(problems) != 1 || !strings.Contains(problems[0].String(), "the HAR file: the HAR file breaks at byte 21") {
		t.Fatalf("lines %d, problems %v, err %v", n, problems, err)
	}
}

func TestScanStopsOnCallbackError(t *testing.T) {
	t.Parallel()
	stop := errors.New("stop")
	in := `{"kind":"open","conn":"c1"}` + "\n" + `{"kind":"open","conn":"c2"}` + "\n"
	n := 0
	_, _, err := Scan(strings.NewReader(in), func(Line) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Fatalf("err %v after %d lines", err, n)
	}
}

// TestSurvivesSIGKILL runs a writer in a child process, kills it with
// SIGKILL mid-stream, and reads back what it wrote: every line but possibly
// the last must be intact.
func TestSurvivesSIGKILL(t *testing.T) {
	if os.Getenv("WSCONFORM_REC_CHILD") != "" {
		writeForever(os.Getenv("WSCONFORM_REC_CHILD"))
		return
	}
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSurvivesSIGKILL$")
	cmd.Env = append(os.Environ(), "WSCONFORM_REC_CHILD="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if st, err := os.Stat(path); err == nil && st.Size() > 64<<10 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("child wrote nothing in 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL on unix
		t.Fatal(err)
	}
	_ = cmd.Wait()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var last int64
	_, problems, err := Scan(f, func(l Line) error {
		if l.Kind == KindFrame {
			if l.Index != last+1 {
				t.Errorf("frame %d follows %d: a flushed line was lost", l.Index, last)
			}
			last = l.Index
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 1 || (len(problems) == 1 && problems[0].Line != int(last)+2) {
		t.Errorf("only a torn last line may be a problem; got %v after frame %d", problems, last)
	}
	if last < 100 {
		t.Errorf("read back only %d frames", last)
	}
}

func writeForever(path string) {
	f, err := os.Create(path)
	if err != nil {
		os.Exit(2)
	}
	w, err := NewWriter(f, Header{Dialect: "mitto", Tool: "child", Started: time.Now()})
	if err != nil {
		os.Exit(2)
	}
	payload := []byte(`{"type":"agent_message","data":{"seq":1,"max_seq":1,"html":"` + strings.Repeat("x", 200) + `","is_prompting":true}}`)
	for i := int64(1); ; i++ {
		_ = w.Frame("s1", wire.Frame{Conn: "c1", Index: i, Dir: wire.ServerToClient, Time: time.Now(), Op: wire.OpText, Payload: payload})
	}
}

// TestPendingSessionAndDialectLines round-trips the lines a recorder writes
// when it learns the dialect and a connection's session from the traffic.
func TestPendingSessionAndDialectLines(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Tool: "test", Started: t0})
	if err != nil {
		t.Fatal(err)
	}
	steps := []func() error{
		func() error { return w.Dialect("minicodex", "detected: hello", t0) },
		func() error { return w.OpenPending("c2", "ws://127.0.0.1/ws", t0) },
		func() error { return w.Frame("", sampleFrames()[0]) },
		func() error { return w.Session("c2", "sess_1", "c1", t0) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	var got []Line
	_, problems, err := Scan(&buf, func(l Line) error { got = append(got, l); return nil })
	if err != nil || len(problems) > 0 {
		t.Fatalf("scan: %v %v", problems, err)
	}
	if len(got) != 5 {
		t.Fatalf("lines = %+v", got)
	}
	if d := got[1]; d.Kind != KindDialect || d.Dialect != "minicodex" || d.Reason != "detected: hello" {
		t.Errorf("dialect line = %+v", d)
	}
	if o := got[2]; o.Kind != KindOpen || !o.Pending || o.Session != "" {
		t.Errorf("open line = %+v", o)
	}
	if f := got[3]; f.Kind != KindFrame || f.Session != "" {
		t.Errorf("frame line = %+v", f)
	}
	if s := got[4]; s.Kind != KindSession || s.Conn != "c2" || s.Session != "sess_1" || s.Parent != "c1" {
		t.Errorf("session line = %+v", s)
	}
	bad := `{"kind":"session","conn":"c2"}` + "\n" + `{"kind":"dialect"}` + "\n"
	_, problems, _ = Scan(strings.NewReader(bad), func(Line) error { return nil })
	if len(problems) != 2 {
		t.Errorf("a session line without session and a dialect line without dialect are problems; got %v", problems)
	}
}

// repeatByte is an endless reader of one byte.
type repeatByte byte

func (b repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}
