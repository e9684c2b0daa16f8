package fastschema_test

import (
	"testing"

	"github.com/wsconform/wsconform/internal/fastschema"
	"github.com/wsconform/wsconform/internal/jsonx"
)

// FuzzAgrees decodes random bytes as the checker does (jsonx.Decode) and
// judges the object with one schema of the five dialects (picked by the
// index): the fast validator must never say valid where gojsonschema does
// not. The seeds are every example with its own schema, so the fuzzer
// mutates messages that reach deep into the schemas.
func FuzzAgrees(f *testing.F) {
	all := targets(f)
	pos := map[string]int{}
	for i, tg := range all {
		pos[tg.s.File] = i
	}
	for _, ex := range examples(f) {
		doc, ok := decodeObject(ex.raw)
		if !ok {
			continue
		}
		typ, _ := doc[ex.d.TypeField].(string)
		if s, ok := ex.d.Schema(ex.dir, typ); ok {
			f.Add(uint16(pos[s.File]), ex.raw)
		}
	}
	f.Fuzz(func(t *testing.T, i uint16, data []byte) {
		v, _, err := jsonx.Decode(data, 0)
		if err != nil {
			return
		}
		doc, ok := v.(map[string]any)
		if !ok {
			return
		}
		s := all[int(i)%len(all)].s
		if !s.KnownValid(doc) {
			return
		}
		if g := fastschema.GojsonschemaVerdict(s.For(doc), doc); g != "valid" {
			t.Fatalf("fast validator vouches for %s against %s; gojsonschema: %s", data, s.File, g)
		}
	})
}
