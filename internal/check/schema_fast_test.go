package check

import (
	"testing"

	"github.com/wsconform/wsconform/internal/check/checkstream"
	"github.com/wsconform/wsconform/internal/dialect"
)

// TestValidPathSkipsGojsonschema: a conforming frame of each dialect's
// benchmark stream is accepted by the compiled validator alone, which
// allocates nothing, where gojsonschema allocates 59 to 93 times per
// message.
//
// Not parallel: testing.AllocsPerRun refuses parallel tests.
func TestValidPathSkipsGojsonschema(t *testing.T) {
	for _, name := range dialect.Names() {
		d := dialect.MustGet(name)
		for _, f := range checkstream.Frames(name, 8)[1:] {
			m, fs := decode(d, f, DefaultLimits)
			if m == nil || !m.Known || len(fs) > 0 {
				t.Fatalf("%s frame %d is not a clean known message: %v", name, f.Index, fs)
			}
			s, _ := d.Schema(f.Dir, m.Type)
			allocs := testing.AllocsPerRun(20, func() {
				m.SchemaOK = false
				if out := checkSchema(s, m); len(out) > 0 || !m.SchemaOK {
					t.Fatalf("%s frame %d: %v", name, f.Index, out)
				}
			})
			if allocs > 0 {
				t.Errorf("%s %s: %.0f allocations to check the schema of a valid frame; gojsonschema ran", name, m.Type, allocs)
			}
		}
	}
}
