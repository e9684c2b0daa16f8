package check

import (
	"slices"
	"testing"
)

// TestFindingsCarryRequires: a finding names the requirements its rule
// cites, so that a report can show them: a dialect rule's, and a spec
// contradiction's (its own id). A generic rule's finding names none.
func TestFindingsCarryRequires(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps []step
		rule  string
		want  []string
	}{
		{"dialect rule", then(mcThree[:6], s2c("c1", mcText("x", 0))), "minicodex.event-id-order",
			mcEventIDOrder.Requires},
		{"contradiction", []step{s2c("c1", `{"type":"function_call_output","call_id":"c1","output":"done","event_id":1}`)},
			"minicodex.ambiguous.function-call-output", []string{"minicodex.ambiguous.function-call-output"}},
		{"generic rule", []step{s2c("c1", `not json`)}, "frame.json", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := findOne(t, feed(t, "minicodex", tt.steps), tt.rule)
			if !slices.Equal(f.Requires, tt.want) {
				t.Errorf("%s finding requires %q, want %q", tt.rule, f.Requires, tt.want)
			}
		})
	}
	if len(mcEventIDOrder.Requires) == 0 {
		t.Fatal("minicodex.event-id-order cites nothing")
	}
}

// TestGeneric: only the rules of every dialect have a generic prefix.
func TestGeneric(t *testing.T) {
	t.Parallel()
	for _, r := range Rules("") {
		if Generic(r.ID) != (r.Dialect == "") {
			t.Errorf("rule %s (dialect %q): Generic = %v", r.ID, r.Dialect, Generic(r.ID))
		}
	}
}
