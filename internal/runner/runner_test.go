package runner

import (
	"context"
	"testing"

	"github.com/wsconform/wsconform/reports"
)

func TestReferencePassesEverything(t *testing.T) {
	ctx := context.Background()
	srv, target, err := StartReference(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown(ctx)
	res, err := Run(ctx, Options{Targets: []Target{target}, Vars: ReferenceVars()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 {
		t.Fatal("no scenario ran")
	}
	for _, s := range res {
		if s.Verdict != reports.Passed {
			t.Errorf("%s: %s: %s", s.ID, s.Verdict, s.Reason)
			for _, st := range s.Steps {
				t.Logf("  %s %s %s %s", st.Status, st.Keyword, st.Text, st.Error)
			}
		}
	}
}
