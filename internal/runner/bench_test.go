package runner

import (
	"context"
	"testing"

	"github.com/wsconform/wsconform/reports"
)

// BenchmarkSuite runs every scenario of every dialect against the embedded
// reference server, as `wsconform run` with no flags does, and reports the
// wall time of one whole run.
func BenchmarkSuite(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		srv, target, err := StartReference(ctx, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Run(ctx, Options{Targets: []Target{target}, Vars: ReferenceVars()})
		if err != nil {
			b.Fatal(err)
		}
		srv.Shutdown(ctx)
		for _, s := range res {
			if s.Verdict != reports.Passed {
				b.Errorf("%s: %s", s.ID, s.Verdict)
			}
		}
		b.ReportMetric(float64(len(res)), "scenarios")
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/suite")
}
