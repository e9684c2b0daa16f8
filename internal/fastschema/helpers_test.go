package fastschema

import (
	"fmt"
	"testing"

	"github.com/xeipuuv/gojsonreference"
	"github.com/xeipuuv/gojsonschema"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// verdict is gojsonschema's answer: valid, invalid, or a panic (which
// gojsonschema v1.2.0 does on some numbers).
type verdict string

const (
	gValid   verdict = "valid"
	gInvalid verdict = "invalid"
	gPanic   verdict = "panic"
)

// decoded feeds a jsonx value to gojsonschema as internal/check does.
type decoded struct{ v any }

func (l decoded) JsonSource() any        { return l.v }
func (l decoded) LoadJSON() (any, error) { return l.v, nil }
func (l decoded) LoaderFactory() gojsonschema.JSONLoaderFactory {
	return gojsonschema.DefaultJSONLoaderFactory{}
}
func (l decoded) JsonReference() (gojsonreference.JsonReference, error) {
	return gojsonreference.NewJsonReference("#")
}

// GojsonschemaVerdict validates v with s, recovering a panic.
func GojsonschemaVerdict(s *gojsonschema.Schema, v any) (g verdict) {
	defer func() {
		if recover() != nil {
			g = gPanic
		}
	}()
	res, err := s.Validate(decoded{v})
	if err != nil {
		return gPanic
	}
	if res.Valid() {
		return gValid
	}
	return gInvalid
}

const testURL = "file:///test/schema.json"

// both compiles a schema text with gojsonschema (draft-07, as the dialect
// loader does) and with this package.
func both(t testing.TB, schema string) (*gojsonschema.Schema, *Validator) {
	t.Helper()
	sl := gojsonschema.NewSchemaLoader()
	sl.Draft = gojsonschema.Draft7
	sl.AutoDetect = false
	g, err := sl.Compile(gojsonschema.NewBytesLoader([]byte(schema)))
	if err != nil {
		t.Fatalf("gojsonschema refuses %s: %v", schema, err)
	}
	doc, _, err := jsonx.Decode([]byte(schema), 0)
	if err != nil {
		t.Fatal(err)
	}
	return g, Compile(doc, testURL, nil)
}

func decode(t testing.TB, s string) any {
	t.Helper()
	v, _, err := jsonx.Decode([]byte(s), 0)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// sound fails when the fast validator vouches for what gojsonschema does
// not accept.
func sound(t testing.TB, g *gojsonschema.Schema, f *Validator, v any, what string) (bool, verdict) {
	t.Helper()
	fast, gv := f.Valid(v), GojsonschemaVerdict(g, v)
	if fast && gv != gValid {
		t.Errorf("%s: fast says valid, gojsonschema %s", what, gv)
	}
	return fast, gv
}

func show(v any) string { return fmt.Sprintf("%v", v) }
