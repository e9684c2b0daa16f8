package recording

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// unmarshalLine is how lines were read before decodeLine: the reference
// the fast reader is held to.
func unmarshalLine(raw []byte) (Line, error) {
	var l Line
	err := json.Unmarshal(raw, &l)
	return l, err
}

// repoLines returns every line of every JSONL file under the repository's
// testdata folders: recordings of every dialect, written by our recorders
// and by hand.
func repoLines(t testing.TB) [][]byte {
	var out [][]byte
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			out = append(out, bytes.Clone(sc.Bytes()))
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameAsUnmarshal fails when decodeLine reads raw differently from
// encoding/json: another Line, or an error where it had none (or none
// where it had one).
func sameAsUnmarshal(t *testing.T, raw []byte) {
	t.Helper()
	got, gotErr := decodeLine(raw)
	want, wantErr := unmarshalLine(raw)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%q: decodeLine error %v, encoding/json %v", raw, gotErr, wantErr)
	}
	if gotErr != nil {
		if gotErr.Error() != wantErr.Error() {
			t.Fatalf("%q: error %q, encoding/json %q", raw, gotErr, wantErr)
		}
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %+v\nwant %+v", raw, got, want)
	}
}

// TestDecodeLineIsUnmarshal reads every line of the repository's
// recordings both ways, and checks that the recorders' own lines take the
// fast path (else it would measure nothing).
func TestDecodeLineIsUnmarshal(t *testing.T) {
	t.Parallel()
	lines := repoLines(t)
	if len(lines) < 100 {
		t.Fatalf("found only %d recording lines", len(lines))
	}
	fast := 0
	for _, raw := range lines {
		sameAsUnmarshal(t, raw)
		if _, ok := fastLine(raw); ok {
			fast++
		}
	}
	if fast < len(lines)*9/10 {
		t.Errorf("only %d of %d lines took the fast path", fast, len(lines))
	}
	t.Logf("%d lines, %d fast", len(lines), fast)
}

// TestDecodeLineEdges: the members and values the fast reader must leave
// to encoding/json, each read both ways.
func TestDecodeLineEdges(t *testing.T) {
	t.Parallel()
	cases := []string{
		`{"kind":"frame","conn":"c1","time":"2026-11-24T19:51:10.001Z","dir":"s2c","index":1,"opcode":1,"text":"{\"a\":1}"}`,
		`{"Kind":"frame","CONN":"c1"}`,                            // keys in another case: encoding/json matches them
		`{"kind":"frame","kind":"open"}`,                          // duplicate: the last wins
		`{"kind":null,"text":null,"time":null}`,                   // nulls leave fields as they are
		`{"kind":"frame","index":1.0}`,                            // not an integer: an error
		`{"kind":"frame","index":1e2}`,                            // exponent: an error
		`{"kind":"frame","index":99999999999999999999}`,           // overflow: an error
		`{"kind":"frame","opcode":-0}`,                            // -0 is 0
		`{"kind":"frame","time":"2026-11-24T19:51:10\u002e001Z"}`, // an escape time.Time does not unescape
		`{"kind":"frame","time":"not a time"}`,
		`{"kind":"frame","time":"2026-11-24T19:51:10+01:00"}`,
		`{"kind":"frame","text":"\ud800"}`,          // lone surrogate
		"{\"kind\":\"frame\",\"text\":\"\xff\"}",    // not UTF-8
		`{"kind":"frame","extra":{"deep":[1,2,3]}}`, // unknown member: ignored
		`{"kind":"frame","pending":"yes"}`,          // wrong type: an error
		`{"kind":"http","ms":1.5e3,"status":200,"request_cut":true}`,
		`{"kind":"http","ms":1e400}`,
		`{"kind":"frame"} {}`, // a second value
		`{"kind":"frame",}`,
		`[]`, `"x"`, `null`, ``, `{`,
	}
	for _, c := range cases {
		sameAsUnmarshal(t, []byte(c))
	}
}

// TestWrittenLinesAreFast: every kind of line the writer produces is read
// by the fast path.
func TestWrittenLinesAreFast(t *testing.T) {
	t.Parallel()
	text := `{"type":"assistant_text","text":"caf\u00e9 \"quoted\" \\ back","event_id":3}`
	ls := []Line{
		FrameLine("s1", wire.Frame{Conn: "c1", Dir: wire.ServerToClient, Op: wire.OpText, Payload: []byte(text), Index: 7, Time: time.Now()}),
		FrameLine("s1", wire.Frame{Conn: "c1", Dir: wire.ClientToServer, Op: wire.OpBinary, Payload: []byte{0, 1, 2}, Index: 8, Time: time.Now()}),
		{Kind: KindHeader, Format: Format, Version: Version, Dialect: "minicodex", Tool: "test", Time: time.Now()},
		{Kind: KindClose, Conn: "c1", Code: 1000, Reason: "bye", By: ByClient, Time: time.Now()},
	}
	for _, l := range ls {
		raw, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := fastLine(raw); !ok {
			t.Errorf("%s line not read fast: %s", l.Kind, raw)
		}
		sameAsUnmarshal(t, raw)
	}
}

func FuzzDecodeLine(f *testing.F) {
	f.Add([]byte(`{"kind":"frame","conn":"c1","session":"s","time":"2026-11-24T19:51:10.001Z","dir":"s2c","index":1,"opcode":1,"text":"{\"a\":1}"}`))
	f.Add([]byte(`{"kind":"http","conn":"h1","ms":2.5,"status":200,"request":"{}","request_cut":false}`))
	f.Add([]byte(`{"kind":"header","format":"wsconform-recording","version":2,"pending":true}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		sameAsUnmarshal(t, raw)
	})
}

// lazySameAsParse fails when a lazily read line differs from parseLine's:
// another error, another line (its text aside), or another frame.
func lazySameAsParse(t *testing.T, raw []byte) {
	t.Helper()
	got, gotErr := lazyText(raw)
	want, wantErr := parseLine(raw)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: lazy error %v, parseLine %v", raw, gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	gf, gerr := got.Frame()
	wf, werr := want.Frame()
	if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(gf, wf) {
		t.Fatalf("%q: lazy frame %+v %v, parseLine %+v %v", raw, gf, gerr, wf, werr)
	}
	if got.rawText != nil {
		got.rawText, got.Text = nil, want.Text
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n lazy %+v\n want %+v", raw, got, want)
	}
}

// TestLazyTextIsParseLine reads every line of the repository's recordings
// both ways and checks that frame texts are left undecoded.
func TestLazyTextIsParseLine(t *testing.T) {
	t.Parallel()
	lazy := 0
	for _, raw := range repoLines(t) {
		lazySameAsParse(t, raw)
		if l, err := lazyText(raw); err == nil && l.rawText != nil {
			lazy++
		}
	}
	if lazy < 100 {
		t.Errorf("only %d frame texts left undecoded", lazy)
	}
	for _, c := range []string{
		`{"kind":"frame","conn":"c1","dir":"s2c","opcode":1,"text":"\ud800"}`,
		`{"kind":"frame","conn":"c1","dir":"s2c","opcode":1,"text":"ok","base64":"b2s="}`,
		`{"kind":"frame","conn":"c1","dir":"s2c","opcode":7,"text":"ok"}`,
		`{"kind":"frame","conn":"c1","dir":"up","opcode":1,"text":"ok"}`,
		`{"kind":"frame","dir":"s2c","opcode":1,"text":"ok"}`,
		`{"kind":"frame","conn":"c1","dir":"s2c","opcode":1,"text":null}`,
		`{"kind":"frame","conn":"c1","dir":"s2c","opcode":1,"text":5}`,
		`{"kind":"frame","conn":"c1","dir":"s2c","opcode":1,"Text":"other case"}`,
	} {
		lazySameAsParse(t, []byte(c))
	}
}

func FuzzLazyText(f *testing.F) {
	f.Add([]byte(`{"kind":"frame","conn":"c1","session":"s","time":"2026-11-24T19:51:10.001Z","dir":"s2c","index":1,"opcode":1,"text":"{\"a\":1}"}`))
	f.Add([]byte(`{"kind":"frame","conn":"c1","dir":"c2s","opcode":2,"base64":"AAE="}`))
	f.Fuzz(func(t *testing.T, raw []byte) { lazySameAsParse(t, raw) })
}
