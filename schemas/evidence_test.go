package schemas_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
)

// TestSchemaEvidence holds every schema to the evidence policy: an
// x-evidence kind, a quote for stated shapes, and member overrides that are
// valid kinds on pointers.
func TestSchemaEvidence(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		d := dialect.MustGet(name)
		for _, s := range allSchemas(d) {
			for _, err := range evidenceProblems(s) {
				t.Errorf("%s: %v", s.File, err)
			}
		}
	}
}

func allSchemas(d *dialect.Dialect) []*dialect.Schema {
	var out []*dialect.Schema
	for dir, types := range d.Messages {
		for _, typ := range types {
			s, _ := d.Schema(dir, typ)
			out = append(out, s)
		}
	}
	for _, h := range d.HTTP {
		s, _ := d.HTTPSchema(h)
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

func evidenceProblems(s *dialect.Schema) []error {
	var errs []error
	ev := s.Evidence
	if _, err := check.ParseEvidence(ev.Kind); err != nil {
		errs = append(errs, fmt.Errorf("x-evidence: %w", err))
	}
	if ev.Kind == string(check.Stated) && strings.TrimSpace(ev.Quote) == "" {
		errs = append(errs, fmt.Errorf("x-evidence: a stated shape quotes the spec"))
	}
	for p, m := range ev.Members {
		if !strings.HasPrefix(p, "/") {
			errs = append(errs, fmt.Errorf("x-evidence member %q is not a JSON pointer", p))
		}
		if _, err := check.ParseEvidence(m.Kind); err != nil {
			errs = append(errs, fmt.Errorf("x-evidence member %s: %w", p, err))
		}
		if m.Kind == string(check.Stated) && strings.TrimSpace(m.Quote) == "" {
			errs = append(errs, fmt.Errorf("x-evidence member %s: a stated member quotes the spec", p))
		}
	}
	return errs
}

// TestEvidenceCounts prints, per dialect, how many schemas and error rules
// rest on each kind of evidence (go test -v -run EvidenceCounts); the
// README's table comes from it.
func TestEvidenceCounts(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		d := dialect.MustGet(name)
		kinds := map[string]int{}
		for _, s := range allSchemas(d) {
			kinds[s.Evidence.Kind]++
		}
		rules := map[check.Evidence]int{}
		errorsStated := 0
		for _, r := range check.Rules(name) {
			if r.Dialect != name {
				continue
			}
			rules[r.Evidence]++
			if r.Severity == check.Error && r.Evidence == check.Stated {
				errorsStated++
			}
		}
		t.Logf("%s: schemas %v; dialect rules %v; error rules (all stated) %d", name, kinds, rules, errorsStated)
	}
}
