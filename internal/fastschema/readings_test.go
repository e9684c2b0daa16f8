package fastschema_test

import (
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/fastschema"
)

// TestReadingsCompile: the schema of every reading of every ambiguity the
// manifests list compiles with no "don't know", so checkAmbiguities runs
// gojsonschema only where a reading is missed.
func TestReadingsCompile(t *testing.T) {
	t.Parallel()
	n := 0
	for _, name := range dialect.Names() {
		for _, a := range dialect.MustGet(name).Ambiguities() {
			n += len(a.Readings)
			if u := a.ReadingUnknowns(); len(u) > 0 {
				t.Errorf("%s: not compiled entirely: %s", a.ID, strings.Join(u, "; "))
			}
		}
	}
	if n < 4 {
		t.Fatalf("only %d readings", n)
	}
}

// TestReadingsAgree: every example of a type an ambiguity covers, and
// every mutation of it, is judged against each reading both ways: the
// compiled validator may only vouch for what gojsonschema accepts, and
// should vouch for all of it.
func TestReadingsAgree(t *testing.T) {
	t.Parallel()
	checked, vouched, missed := 0, 0, 0
	judge := func(a dialect.Ambiguity, doc map[string]any, what string) {
		for i, r := range a.Readings {
			fast := a.MeetsReading(i, doc, func(*gojsonschema.Schema) bool { return false })
			g := fastschema.GojsonschemaVerdict(a.Compiled[i], doc)
			checked++
			if fast {
				vouched++
				if g != "valid" {
					t.Errorf("%s %s reading %q: fast validator says met, gojsonschema %s: %v", what, a.ID, r.Name, g, doc)
				}
			} else if g == "valid" {
				missed++
				if missed < 5 {
					t.Logf("%s %s reading %q: gojsonschema valid, fast does not vouch: %v", what, a.ID, r.Name, doc)
				}
			}
		}
	}
	for _, ex := range examples(t) {
		doc, ok := decodeObject(ex.raw)
		if !ok {
			continue
		}
		typ, _ := doc[ex.d.TypeField].(string)
		for _, a := range ex.d.Ambiguities() {
			if (a.Direction != "" && a.Direction != ex.dir) || !covers(a, typ) {
				continue
			}
			judge(a, doc, "example")
			mutate(doc, func(m any) {
				if mm, ok := m.(map[string]any); ok {
					judge(a, mm, "mutation")
				}
			})
		}
	}
	t.Logf("%d reading judgements, %d vouched for by the fast validator, %d left to gojsonschema while it accepts", checked, vouched, missed)
	if missed > 0 {
		t.Errorf("%d documents a reading accepts were not vouched for", missed)
	}
	if checked < 200 || vouched == 0 {
		t.Errorf("only %d judgements (%d vouched)", checked, vouched)
	}
}

func covers(a dialect.Ambiguity, typ string) bool {
	for _, t := range a.Types {
		if t == typ {
			return true
		}
	}
	return false
}
