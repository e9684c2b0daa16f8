package asyncapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// TestImportedSchemasSameShape: an exported dialect read back compiles to
// the same per-frame work as the built-in one: the same types in each
// direction, each schema with the same discriminated fast path (coworker's
// model_stream_chunk without it was four times slower), the same evidence
// and the same stateful rule set. wsproxy --protocol then costs what the
// built-in dialect costs per frame.
func TestImportedSchemasSameShape(t *testing.T) {
	t.Parallel()
	fast := 0
	for _, name := range dialect.Names() {
		b := dialect.MustGet(name)
		p := imported(t, name).Dialect
		if p.Base() != name || p.TypeField != b.TypeField {
			t.Errorf("%s: base %q type field %q, want %q %q", name, p.Base(), p.TypeField, name, b.TypeField)
		}
		for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
			bt, pt := b.Types(dir), p.Types(dir)
			if len(bt) != len(pt) {
				t.Errorf("%s %s: %d types, built-in %d", name, dir, len(pt), len(bt))
				continue
			}
			for i, typ := range bt {
				if pt[i] != typ {
					t.Errorf("%s %s: type %q, built-in %q", name, dir, pt[i], typ)
					continue
				}
				bs, _ := b.Schema(dir, typ)
				ps, _ := p.Schema(dir, typ)
				if bs.Discriminator() != ps.Discriminator() {
					t.Errorf("%s %s %s: discriminator %q, built-in %q", name, dir, typ, ps.Discriminator(), bs.Discriminator())
				}
				if bs.Discriminator() != "" {
					fast++
				}
				if bs.Evidence.Kind != ps.Evidence.Kind || bs.Evidence.Quote != ps.Evidence.Quote || len(bs.Evidence.Members) != len(ps.Evidence.Members) {
					t.Errorf("%s %s %s: evidence differs", name, dir, typ)
				}
			}
		}
	}
	if fast == 0 {
		t.Error("no schema with a discriminated fast path: the comparison proves nothing")
	}
}

// BenchmarkObserve measures the check engine per frame on each dialect's
// test recording, as the built-in dialect and as its exported document
// read back (wsproxy's validator does this work for every frame):
//
//	go test ./internal/asyncapi -run XXX -bench Observe
func BenchmarkObserve(b *testing.B) {
	for _, name := range dialect.Names() {
		frames := framesOf(b, filepath.Join("..", "replay", "testdata", name+".jsonl"))
		p := imported(b, name)
		for _, as := range []string{name, p.Name} {
			d := dialect.MustGet(as)
			b.Run(strings.ReplaceAll(as, ":", "-"), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					s := check.NewSession(d, check.Options{})
					for _, f := range frames {
						s.Observe(f)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(frames)), "ns/frame")
			})
		}
	}
}

// framesOf reads the text frames of a recording.
func framesOf(tb testing.TB, file string) []wire.Frame {
	tb.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	var out []wire.Frame
	for _, line := range strings.Split(string(raw), "\n") {
		var rec struct {
			Kind, Conn, Dir, Text string
			Opcode                int
			Index                 int64
		}
		if json.Unmarshal([]byte(line), &rec) != nil || rec.Kind != "frame" || rec.Opcode != 1 {
			continue
		}
		out = append(out, wire.Frame{Conn: rec.Conn, Dir: wire.Direction(rec.Dir), Op: wire.OpText, Index: rec.Index, Payload: []byte(rec.Text)})
	}
	if len(out) == 0 {
		tb.Fatalf("%s: no text frame", file)
	}
	return out
}
