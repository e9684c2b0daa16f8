package replay

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update regenerates the golden recordings of testdata/ (go test
// ./internal/replay -run TestGolden -update): each is recorded through the
// proxy in front of a fresh reference server, driven by the runner.
var update = flag.Bool("update", false, "regenerate testdata/*.jsonl")

// goldenPath is the committed recording of a dialect's scenarios.
func goldenPath(dialect string) string { return filepath.Join("testdata", dialect+".jsonl") }

// TestGolden: the committed recordings (used by the command's tests and
// as fuzz seeds) still replay against a fresh reference server with no
// diff, so a change of the reference server that breaks them is seen
// here.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, sc := range scenarios {
		t.Run(sc.dialect, func(t *testing.T) {
			t.Parallel()
			if *update {
				if err := os.WriteFile(goldenPath(sc.dialect), record(t, sc.dialect, sc.tags), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rec, err := os.ReadFile(goldenPath(sc.dialect))
			if err != nil {
				t.Fatalf("%v (regenerate with -update)", err)
			}
			srv := startReference(t, sc.dialect)
			res := replayAgainst(t, rec, srv.URL, Options{})
			if res.Differs() > 0 || len(errorFindings(res)) > 0 {
				t.Fatalf("the golden recording no longer replays cleanly:\n%s", describe(res))
			}
		})
	}
}
