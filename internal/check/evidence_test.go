package check

import (
	"testing"
)

// TestEvidencePolicy holds every rule of the catalogue to DESIGN.md's
// evidence policy: an evidence kind, a severity it allows, and a quote for
// every error rule.
func TestEvidencePolicy(t *testing.T) {
	t.Parallel()
	for _, r := range Rules("") {
		if err := checkPolicy(r); err != nil {
			t.Error(err)
		}
	}
}

func TestCheckPolicy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		r    Rule
		ok   bool
	}{
		{"stated error with quote", Rule{ID: "a", Severity: Error, Evidence: Stated, Quote: "MUST"}, true},
		{"stated error without quote", Rule{ID: "a", Severity: Error, Evidence: Stated}, false},
		{"shown error", Rule{ID: "a", Severity: Error, Evidence: Shown, Quote: "example"}, false},
		{"interpretation error", Rule{ID: "a", Severity: Error, Evidence: Interpretation, Quote: "x"}, false},
		{"shown warning", Rule{ID: "a", Severity: Warning, Evidence: Shown}, true},
		{"interpretation warning", Rule{ID: "a", Severity: Warning, Evidence: Interpretation}, true},
		{"no evidence", Rule{ID: "a", Severity: Warning}, false},
	}
	for _, tt := range tests {
		if err := checkPolicy(tt.r); (err == nil) != tt.ok {
			t.Errorf("%s: checkPolicy = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}
