package perf

import (
	"context"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
)

// TestEngineQuick: the engine measure gives its four figures, each with
// every dialect once per round (the values are not checked: they are
// measurements).
func TestEngineQuick(t *testing.T) {
	t.Parallel()
	figs, err := Engine(context.Background(), Config{Rounds: 2, Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 4 {
		t.Fatalf("%d figures, want 4", len(figs))
	}
	for _, f := range figs {
		for _, name := range dialect.Names() {
			if n := len(f.Values[name]); n != 2 && !(f.Unit == "frames/cpu-s" && n == 0) {
				t.Errorf("%s: %d values for %s, want 2", f.Name, n, name)
			}
		}
	}
}
