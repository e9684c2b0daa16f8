package validate

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/fuzzcorpus"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/schemas"
)

var update = flag.Bool("update", false, "rewrite testdata/findings.golden.gz from the engine's findings")

// goldenPath holds every finding the engine makes on the repository's test
// data. It was first written from main before the check engine was made
// fast (issue 26), so a faster engine that finds anything else, more or
// less or worded otherwise, fails TestFindingsGolden.
const goldenPath = "testdata/findings.golden.gz"

// TestFindingsGolden runs every recording of the repository through
// validate (as recorded, and as one session, so that event ids are
// compared across connections), the example corpus and the fuzz corpora
// through a session of every dialect, and each dialect's run recording a
// second time re-encoded (keys reversed, escapes, numbers as 1.0, spaces),
// so that replay comparisons see equal events written differently. Every
// finding must equal the golden file's.
func TestFindingsGolden(t *testing.T) {
	t.Parallel()
	got := goldenFindings(t)
	if *update {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(got)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readGz(t, goldenPath)
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("findings differ from %s at line %d (%d lines, want %d):\n got: %s\nwant: %s", goldenPath, i+1, len(gl), len(wl), g, w)
		}
	}
}

func goldenFindings(t *testing.T) []byte {
	t.Helper()
	var out bytes.Buffer
	dir := t.TempDir()
	paths := goldenRecordings(t, dir)
	for _, p := range paths {
		for _, one := range []bool{false, true} {
			res, err := File(context.Background(), p, Options{OneSession: one})
			fmt.Fprintf(&out, "== %s one-session=%v: %s %d sessions %d conns %d frames err=%v\n",
				goldenName(p), one, res.Dialect, res.Sessions, res.Conns, res.Frames, err)
			for _, f := range res.Findings {
				writeFinding(t, &out, f)
			}
		}
	}
	goldenExamples(t, &out)
	goldenFuzzCorpora(t, &out)
	goldenReencoded(t, &out, dir)
	return out.Bytes()
}

func goldenName(p string) string {
	if i := strings.Index(p, "testdata"); i >= 0 {
		return p[i:]
	}
	return filepath.Base(p)
}

func writeFinding(t *testing.T, out *bytes.Buffer, f any) {
	t.Helper()
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	out.Write(b)
	out.WriteByte('\n')
}

func readGz(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// goldenRecordings lists the repository's recordings and HAR files, the
// gzipped ones unpacked into dir.
func goldenRecordings(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	for _, glob := range []string{"../../cmd/wsconform/testdata/*.jsonl", "../../cmd/wsconform/testdata/*.har",
		"testdata/*.jsonl", "../replay/testdata/*.jsonl", "../fixture/testdata/*.jsonl",
		"../recording/testdata/*.har", "../recording/testdata/*.jsonl.gz"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			if strings.HasSuffix(p, ".gz") {
				dst := filepath.Join(dir, strings.TrimSuffix(filepath.Base(p), ".gz"))
				if err := os.WriteFile(dst, readGz(t, p), 0o644); err != nil {
					t.Fatal(err)
				}
				p = dst
			}
			paths = append(paths, p)
		}
	}
	if len(paths) < 20 {
		t.Fatalf("want the repository's 20-odd recordings, found %d", len(paths))
	}
	return paths
}

// goldenExamples feeds every example of every dialect, valid and invalid,
// in file order to one session per dialect, twice on two connections.
func goldenExamples(t *testing.T, out *bytes.Buffer) {
	t.Helper()
	for _, name := range dialect.Names() {
		exs, err := schemas.Examples(name)
		if err != nil {
			t.Fatal(err)
		}
		var frames []wire.Frame
		for _, ex := range exs {
			if ex.Dir == "http" {
				continue // bodies of HTTP exchanges, not frames
			}
			frames = append(frames, wire.Frame{Dir: wire.Direction(ex.Dir), Op: wire.OpText, Payload: ex.Message})
		}
		fmt.Fprintf(out, "== examples %s: %d frames\n", name, len(frames))
		s := check.NewSession(dialect.MustGet(name), check.Options{})
		for round, conn := range []string{"a", "b"} {
			for i, f := range frames {
				f.Conn, f.Index = conn, int64(round*len(frames)+i)
				for _, x := range s.Observe(f) {
					writeFinding(t, out, x)
				}
			}
		}
	}
}

// goldenFuzzCorpora feeds the fuzz corpora of the repository (JSON
// decoding, the proxy's peek, the replay rewrite) to a session of every
// dialect in both directions, as FuzzObserve does.
func goldenFuzzCorpora(t *testing.T, out *bytes.Buffer) {
	t.Helper()
	corpus, err := fuzzcorpus.Read("../jsonx/testdata/fuzz/*/*", "../proxy/testdata/fuzz/*/*", "../replay/testdata/fuzz/*/*", "../check/testdata/fuzz/*/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range corpus {
		for _, name := range dialect.Names() {
			for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
				fmt.Fprintf(out, "== fuzz %s %s %s\n", goldenName(e.File), name, dir)
				s := check.NewSession(dialect.MustGet(name), check.Options{ReplayWindow: 8})
				for i, conn := range []string{"a", "b"} {
					for _, x := range s.Observe(wire.Frame{Conn: conn, Dir: dir, Op: wire.OpText, Payload: e.Data, Index: int64(i)}) {
						writeFinding(t, out, x)
					}
				}
			}
		}
	}
}

// goldenReencoded judges each dialect's run recording as one session, then
// every data frame again on a second connection, re-encoded: equal JSON
// written differently must compare equal in every replay rule, and a
// different one differently, as before.
func goldenReencoded(t *testing.T, out *bytes.Buffer, dir string) {
	t.Helper()
	for _, name := range dialect.Names() {
		path := filepath.Join(dir, "harwrite-"+name+".jsonl")
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var frames []wire.Frame
		_, err = recording.ScanEach(f, func(l recording.Line) error {
			if fr, err := l.Frame(); err == nil {
				frames = append(frames, fr)
			}
			return nil
		}, func(recording.Problem) {})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(out, "== re-encoded %s: %d frames\n", name, len(frames))
		s := check.NewSession(dialect.MustGet(name), check.Options{})
		for _, fr := range frames {
			for _, x := range s.Observe(fr) {
				writeFinding(t, out, x)
			}
		}
		for i, fr := range frames {
			fr.Conn += "~again"
			fr.Index = int64(len(frames) + i)
			if fr.Op == wire.OpText {
				fr.Payload = reencode(fr.Payload)
			}
			for _, x := range s.Observe(fr) {
				writeFinding(t, out, x)
			}
		}
	}
}

// reencode writes the same JSON value differently: members in reverse
// order, every non-ASCII rune and '/' escaped, integers as 1.0, spaces
// around punctuation. Frames that are not JSON are kept as they are.
func reencode(payload []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return payload
	}
	var b bytes.Buffer
	writeReencoded(&b, v)
	return b.Bytes()
}

func writeReencoded(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Sort(sort.Reverse(sort.StringSlice(keys)))
		b.WriteString("{ ")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(" , ")
			}
			writeEscaped(b, k)
			b.WriteString(" : ")
			writeReencoded(b, x[k])
		}
		b.WriteString(" }")
	case []any:
		b.WriteString("[ ")
		for i, e := range x {
			if i > 0 {
				b.WriteString(" , ")
			}
			writeReencoded(b, e)
		}
		b.WriteString(" ]")
	case string:
		writeEscaped(b, x)
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") && len(s) < 16 {
			s += ".0"
		}
		b.WriteString(s)
	default:
		out, _ := json.Marshal(x)
		b.Write(out)
	}
}

func writeEscaped(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '/' || r < 0x20 || r >= utf8.RuneSelf:
			if r > 0xFFFF {
				r1, r2 := utf16Pair(r)
				fmt.Fprintf(b, `\u%04x\u%04x`, r1, r2)
			} else {
				fmt.Fprintf(b, `\u%04X`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}
