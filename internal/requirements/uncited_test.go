package requirements

import (
	"strings"
	"testing"
)

func TestUncited(t *testing.T) {
	t.Parallel()
	reg, err := Parse("mini/requirements.json", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	ids := func(qs []Requirement) string {
		var s []string
		for _, q := range qs {
			s = append(s, q.ID)
		}
		return strings.Join(s, " ")
	}
	tests := []struct {
		name  string
		cited map[string]bool
		want  string
	}{
		// mini.resume.last-seen says why it is untested, so it is never a gap.
		{"nothing cited", nil, "mini.resume.replay-delta mini.envelope.type"},
		{"one cited", map[string]bool{"mini.envelope.type": true}, "mini.resume.replay-delta"},
		{"all cited", map[string]bool{"mini.envelope.type": true, "mini.resume.replay-delta": true}, ""},
		{"a cited id the registry lacks changes nothing", map[string]bool{"mini.gone.gone": true}, "mini.resume.replay-delta mini.envelope.type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := ids(Uncited(reg, tt.cited)); got != tt.want {
				t.Errorf("Uncited = %q, want %q", got, tt.want)
			}
		})
	}

	// An id dropped from the registry that a rule or scenario still cites
	// is reported by Unknown.
	dropped := *reg
	dropped.Requirements = reg.Requirements[1:]
	dropped.index()
	cited := []string{"mini.resume.replay-delta", "mini.envelope.type"}
	if got := Unknown(&dropped, cited); strings.Join(got, " ") != "mini.resume.replay-delta" {
		t.Errorf("Unknown after dropping mini.resume.replay-delta = %v", got)
	}
	if got := Unknown(reg, cited); len(got) != 0 {
		t.Errorf("Unknown on the full registry = %v, want none", got)
	}
}
