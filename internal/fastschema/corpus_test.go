package fastschema_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/fastschema"
	"github.com/wsconform/wsconform/internal/fuzzcorpus"
	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/schemas"
)

// target is one schema of a dialect with the direction it judges.
type target struct {
	d      *dialect.Dialect
	dir    wire.Direction
	typ    string
	s      *dialect.Schema
	isHTTP bool
}

// tally counts a differential run.
type tally struct {
	checked, fastValid, goValid, missed, panics int
	missedExamples                              []string
}

// compare judges doc with s both ways: the fast validator may only vouch
// for what gojsonschema accepts, and on these schemas (compiled entirely)
// should vouch for all of it.
func (c *tally) compare(t *testing.T, s *dialect.Schema, doc map[string]any, what string) {
	t.Helper()
	fast := s.KnownValid(doc)
	g := fastschema.GojsonschemaVerdict(s.For(doc), doc)
	c.checked++
	if fast {
		c.fastValid++
	}
	switch g {
	case "valid":
		c.goValid++
		if !fast {
			c.missed++
			if len(c.missedExamples) < 5 {
				c.missedExamples = append(c.missedExamples, what+" "+s.File+": "+fmt.Sprint(doc))
			}
		}
	case "panic":
		c.panics++
		t.Logf("gojsonschema panics on %s against %s: %v", what, s.File, doc)
	}
	if fast && g != "valid" {
		t.Errorf("%s against %s: fast validator says valid, gojsonschema %s: %v", what, s.File, g, doc)
	}
}

func targets(t testing.TB) []target {
	t.Helper()
	var out []target
	for _, name := range dialect.Names() {
		d := dialect.MustGet(name)
		for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
			for _, typ := range d.Types(dir) {
				s, _ := d.Schema(dir, typ)
				out = append(out, target{d: d, dir: dir, typ: typ, s: s})
			}
		}
		for _, h := range d.HTTP {
			s, _ := d.HTTPSchema(h)
			out = append(out, target{d: d, typ: h, s: s, isHTTP: true})
		}
	}
	return out
}

// judge compares doc with every schema that would judge it: the dialect's
// schema for its type and direction, and every HTTP body schema.
func (c *tally) judge(t *testing.T, d *dialect.Dialect, dir wire.Direction, doc map[string]any, what string) {
	t.Helper()
	if typ, ok := doc[d.TypeField].(string); ok {
		if s, ok := d.Schema(dir, typ); ok {
			c.compare(t, s, doc, what)
		}
	}
	for _, h := range d.HTTP {
		s, _ := d.HTTPSchema(h)
		c.compare(t, s, doc, what+" (http "+h+")")
	}
}

// example is one example message of a dialect.
type example struct {
	d   *dialect.Dialect
	dir wire.Direction
	raw []byte
}

func examples(t testing.TB) []example {
	t.Helper()
	var out []example
	for _, name := range dialect.Names() {
		d := dialect.MustGet(name)
		exs, err := schemas.Examples(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range exs {
			out = append(out, example{d, wire.Direction(ex.Dir), ex.Message})
		}
	}
	if len(out) < 500 {
		t.Fatalf("only %d examples found", len(out))
	}
	return out
}

func decodeObject(raw []byte) (map[string]any, bool) {
	v, _, err := jsonx.Decode(raw, 0)
	if err != nil {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// TestEverySchemaCompiles: every schema of the five dialects, and every
// variant, compiles with no "don't know", so the fast path is really the
// path valid frames take.
func TestEverySchemaCompiles(t *testing.T) {
	t.Parallel()
	n := 0
	for _, tg := range targets(t) {
		n++
		if u := tg.s.FastUnknowns(); len(u) > 0 {
			t.Errorf("%s: not compiled entirely: %s", tg.s.File, strings.Join(u, "; "))
		}
	}
	if n < 150 {
		t.Fatalf("only %d schemas", n)
	}
}

// TestExamplesAgree: every example, valid and invalid, of every dialect.
func TestExamplesAgree(t *testing.T) {
	t.Parallel()
	var c tally
	for _, ex := range examples(t) {
		doc, ok := decodeObject(ex.raw)
		if !ok {
			continue
		}
		dirs := []wire.Direction{ex.dir}
		if ex.dir == "http" {
			dirs = []wire.Direction{wire.ClientToServer}
		}
		for _, dir := range dirs {
			c.judge(t, ex.d, dir, doc, "example")
		}
	}
	c.report(t, 500)
}

func (c *tally) report(t *testing.T, min int) {
	t.Helper()
	t.Logf("%d judged: gojsonschema valid %d, fast valid %d, gojsonschema panics %d", c.checked, c.goValid, c.fastValid, c.panics)
	if c.missed > 0 {
		t.Errorf("%d documents gojsonschema accepts were not vouched for by the fast validator, e.g.\n%s", c.missed, strings.Join(c.missedExamples, "\n"))
	}
	if c.checked < min {
		t.Errorf("only %d documents judged, want %d or more", c.checked, min)
	}
}

// TestMutationsAgree: systematic mutations of every example, one at a
// time at every member and element: dropped, null, another type, numbers
// out of range or written as 1.0, long strings.
func TestMutationsAgree(t *testing.T) {
	t.Parallel()
	var c tally
	for _, ex := range examples(t) {
		doc, ok := decodeObject(ex.raw)
		if !ok {
			continue
		}
		dir := ex.dir
		if dir == "http" {
			dir = wire.ClientToServer
		}
		mutate(doc, func(m any) {
			if mm, ok := m.(map[string]any); ok {
				c.judge(t, ex.d, dir, mm, "mutation")
			}
		})
	}
	c.report(t, 20000)
}

// mutate calls fn with every single mutation of v (v itself untouched).
func mutate(v any, fn func(any)) {
	for _, r := range replacements(v) {
		fn(r)
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			without := clone(x)
			delete(without, k)
			fn(without)
			mutate(x[k], func(r any) {
				y := clone(x)
				y[k] = r
				fn(y)
			})
		}
		y := clone(x)
		y["zz_extra"] = "x"
		fn(y)
	case []any:
		for i := range x {
			y := append([]any(nil), x[:i]...)
			fn(append(y, x[i+1:]...))
			mutate(x[i], func(r any) {
				z := append([]any(nil), x...)
				z[i] = r
				fn(z)
			})
		}
		fn(append(append([]any(nil), x...), x...))
	}
}

// replacements are the values put in v's place.
func replacements(v any) []any {
	out := []any{nil, true, "x", json.Number("1"), []any{}, map[string]any{}}
	switch x := v.(type) {
	case string:
		out = append(out, "", strings.Repeat(x+"é", 200), strings.ToUpper(x), x+" ", "2024-01-02T03:04:05Z")
	case json.Number:
		s := string(x)
		out = append(out, json.Number("-"+strings.TrimPrefix(s, "-")), json.Number("0"), json.Number("-1"),
			json.Number("1.5"), json.Number("1e400"), json.Number("123456789012345678901234567890"),
			json.Number("9007199254740993"), json.Number(s+"e0"), json.Number("1e-7"))
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			out = append(out, json.Number(s+".0"), json.Number(strconv.FormatInt(i+1, 10)), json.Number(strconv.FormatInt(i-1, 10)))
		}
	case bool:
		out = append(out, !x)
	}
	return out
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TestRecordingsAgree: every frame of every recording, HAR file and fuzz
// corpus in the repository (the files TestFindingsGolden reads), against
// every dialect, in its direction (fuzz inputs in both).
func TestRecordingsAgree(t *testing.T) {
	t.Parallel()
	var c tally
	frames := 0
	for _, glob := range []string{"../../cmd/wsconform/testdata/*.jsonl", "../../cmd/wsconform/testdata/*.har",
		"../validate/testdata/*.jsonl", "../replay/testdata/*.jsonl", "../fixture/testdata/*.jsonl",
		"../recording/testdata/*.har", "../recording/testdata/*.jsonl.gz"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range files {
			var r io.Reader
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			r = bytes.NewReader(raw)
			if strings.HasSuffix(p, ".gz") {
				zr, err := gzip.NewReader(r)
				if err != nil {
					t.Fatal(err)
				}
				b, err := io.ReadAll(zr)
				if err != nil {
					t.Fatal(err)
				}
				r = bytes.NewReader(b)
			}
			_, err = recording.ScanEach(r, func(l recording.Line) error {
				f, err := l.Frame()
				if err != nil || f.Op != wire.OpText {
					return nil
				}
				doc, ok := decodeObject(f.Payload)
				if !ok {
					return nil
				}
				frames++
				for _, name := range dialect.Names() {
					c.judge(t, dialect.MustGet(name), f.Dir, doc, filepath.Base(p))
				}
				return nil
			}, func(recording.Problem) {})
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
		}
	}
	corpus, err := fuzzcorpus.Read("../jsonx/testdata/fuzz/*/*", "../proxy/testdata/fuzz/*/*", "../replay/testdata/fuzz/*/*", "../check/testdata/fuzz/*/*", "testdata/fuzz/*/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range corpus {
		doc, ok := decodeObject(e.Data)
		if !ok {
			continue
		}
		frames++
		for _, name := range dialect.Names() {
			for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
				c.judge(t, dialect.MustGet(name), dir, doc, filepath.Base(e.File))
			}
		}
	}
	t.Logf("%d frames", frames)
	c.report(t, 5000)
}
