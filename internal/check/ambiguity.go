package check

import (
	"fmt"
	"strings"

	"github.com/xeipuuv/gojsonschema"

	"github.com/wsconform/wsconform/internal/dialect"
)

// checkAmbiguities judges a schema-valid message against each reading of
// every contradiction its manifest lists for its type. A message that meets
// every reading is fine; one that meets only some is non-strict: it works
// for peers that read the spec one way and breaks those that read it the
// other way.
func checkAmbiguities(d *dialect.Dialect, m *message) []Finding {
	var out []Finding
	for _, a := range d.Ambiguities() {
		if (a.Direction != "" && a.Direction != m.Frame.Dir) || !contains(a.Types, m.Type) {
			continue
		}
		var met, missed []string
		for i, r := range a.Readings {
			if a.MeetsReading(i, m.Doc, func(s *gojsonschema.Schema) bool {
				res, err := validateDoc(s, m.Doc)
				return err == nil && res.Valid()
			}) {
				met = append(met, r.Name)
			} else {
				missed = append(missed, r.Name)
			}
		}
		if len(missed) == 0 {
			continue
		}
		fd := Finding{Rule: a.ID, Severity: Warning, Evidence: Interpretation, Spec: a.Spec, Quote: a.Quote,
			Requires: []string{a.ID}, Type: m.Type, Conn: m.Frame.Conn, Frame: m.Frame.Index}
		fd.Message = fmt.Sprintf("%s: %s", m.Type, a.Summary)
		fd.Expected = "every reading: " + strings.Join(namesOf(a), "; ")
		fd.Actual = "meets " + orNone(met) + "; misses " + strings.Join(missed, "; ")
		out = append(out, fd)
	}
	return out
}

func namesOf(a dialect.Ambiguity) []string {
	var out []string
	for _, r := range a.Readings {
		out = append(out, r.Name)
	}
	return out
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, "; ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
