package fastschema_test

import (
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/asyncapi"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// TestImportedAgree covers the schemas `--protocol FILE` produces: each
// built-in dialect exported to AsyncAPI and imported back (its schemas are
// rewritten by the importer: $refs into components become defs.json
// definitions, others are inlined) compiles entirely, and its fast
// validator agrees with gojsonschema on every example of the dialect and
// every mutation of them.
func TestImportedAgree(t *testing.T) {
	t.Parallel()
	imported := map[string]*dialect.Dialect{}
	for _, name := range dialect.Names() {
		js, err := asyncapi.Export(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := asyncapi.Parse(name+".asyncapi.json", js, nil)
		if err != nil {
			t.Fatal(err)
		}
		d := p.Dialect
		imported[name] = d
		n := 0
		for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
			for _, typ := range d.Types(dir) {
				s, _ := d.Schema(dir, typ)
				n++
				if u := s.FastUnknowns(); len(u) > 0 {
					t.Errorf("%s %s: not compiled entirely: %s", p.Name, s.File, strings.Join(u, "; "))
				}
			}
		}
		if n < 10 {
			t.Errorf("%s: only %d schemas imported", p.Name, n)
		}
	}
	var c tally
	for _, ex := range examples(t) {
		doc, ok := decodeObject(ex.raw)
		if !ok || ex.dir == "http" {
			continue
		}
		d := imported[ex.d.Dialect]
		c.judge(t, d, ex.dir, doc, "imported example")
		mutate(doc, func(m any) {
			if mm, ok := m.(map[string]any); ok {
				c.judge(t, d, ex.dir, mm, "imported mutation")
			}
		})
	}
	c.report(t, 20000)
}
