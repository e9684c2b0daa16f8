package runner

import (
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// TestFromFindings: a server-frame finding that rests only on our reading
// of the spec's silence makes a scenario an observation, never non-strict;
// one on what the spec shows makes it non-strict, an error fails it.
func TestFromFindings(t *testing.T) {
	t.Parallel()
	f := func(sev check.Severity, ev check.Evidence) reports.Finding {
		return reports.Finding{Finding: check.Finding{Rule: "x.rule", Severity: sev, Evidence: ev, Dir: wire.ServerToClient, Message: "m"}}
	}
	cases := []struct {
		name string
		in   []reports.Finding
		want reports.Verdict
	}{
		{"none", nil, reports.Passed},
		{"interpretation warning", []reports.Finding{f(check.Warning, check.Interpretation)}, reports.Observation},
		{"shown warning", []reports.Finding{f(check.Warning, check.Shown)}, reports.NonStrict},
		{"interpretation then shown", []reports.Finding{f(check.Warning, check.Interpretation), f(check.Warning, check.Shown)}, reports.NonStrict},
		{"shown then interpretation", []reports.Finding{f(check.Warning, check.Shown), f(check.Warning, check.Interpretation)}, reports.NonStrict},
		{"stated error", []reports.Finding{f(check.Warning, check.Interpretation), f(check.Error, check.Stated)}, reports.Failed},
		{"info", []reports.Finding{f(check.Info, check.Interpretation)}, reports.Passed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got, reason := fromFindings(tc.in); got != tc.want {
				t.Errorf("verdict %s (%s), want %s", got, reason, tc.want)
			}
		})
	}
}
