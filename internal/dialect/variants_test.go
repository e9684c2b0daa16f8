package dialect

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/schemas"
)

// TestVariantsAgreeWithTheFullSchema proves the dispatch is only an
// optimisation: on every example message of every type that has variants,
// the variant and the full schema give the same verdict and errors.
func TestVariantsAgreeWithTheFullSchema(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, name := range Names() {
		d := MustGet(name)
		for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
			for _, typ := range d.Types(dir) {
				s, _ := d.Schema(dir, typ)
				if s.variants == nil {
					continue
				}
				for _, msg := range exampleMessages(t, path.Join(name, "examples", string(dir), typ+".json")) {
					var doc map[string]any
					dec := json.NewDecoder(bytes.NewReader(msg))
					dec.UseNumber()
					if dec.Decode(&doc) != nil {
						continue
					}
					full, err1 := s.Compiled.Validate(gojsonschema.NewGoLoader(doc))
					part, err2 := s.For(doc).Validate(gojsonschema.NewGoLoader(doc))
					if err1 != nil || err2 != nil {
						t.Fatal(err1, err2)
					}
					if full.Valid() != part.Valid() || errorSet(full) != errorSet(part) {
						t.Errorf("%s/%s %s: full %v %s, variant %v %s", name, typ, msg, full.Valid(), errorSet(full), part.Valid(), errorSet(part))
					}
					checked++
				}
			}
		}
	}
	if checked < 30 {
		t.Fatalf("only %d messages checked; the variant schemas lost their examples?", checked)
	}
}

// TestDiscriminatedShape keeps the recogniser strict: anything but pure
// if-const/then entries on one property leaves the schema alone.
func TestDiscriminatedShape(t *testing.T) {
	t.Parallel()
	branch := func(p, v string) any {
		return map[string]any{"if": map[string]any{"properties": map[string]any{p: map[string]any{"const": v}}}, "then": map[string]any{}}
	}
	cases := []struct {
		all  []any
		want string
	}{
		{[]any{branch("k", "a"), branch("k", "b")}, "k"},
		{[]any{branch("k", "a"), branch("j", "b")}, ""},
		{[]any{branch("k", "a"), branch("k", "a")}, ""},
		{[]any{branch("k", "a"), map[string]any{"required": []any{"x"}}}, ""},
		{[]any{branch("k", "a")}, ""},
	}
	for i, c := range cases {
		if got, _ := discriminated(map[string]any{"allOf": c.all}); got != c.want {
			t.Errorf("case %d: got %q, want %q", i, got, c.want)
		}
	}
}

func exampleMessages(t *testing.T, file string) []json.RawMessage {
	raw, err := fs.ReadFile(schemas.FS, file)
	if err != nil {
		t.Fatal(err)
	}
	var ex struct {
		Valid   []json.RawMessage
		Invalid []struct{ Message json.RawMessage }
	}
	if err := json.Unmarshal(raw, &ex); err != nil {
		t.Fatal(err)
	}
	out := ex.Valid
	for _, i := range ex.Invalid {
		out = append(out, i.Message)
	}
	return out
}

func errorSet(r *gojsonschema.Result) string {
	var out []string
	for _, e := range r.Errors() {
		out = append(out, e.Type()+"@"+e.Field())
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
