package checkstream

import (
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
)

// TestFramesEveryDialect: every dialect has a stream of the length asked,
// numbered in order, so no measure silently times an empty loop.
func TestFramesEveryDialect(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		fs := Frames(name, 100)
		if len(fs) != 100 {
			t.Errorf("%s: %d frames, want 100", name, len(fs))
			continue
		}
		for i, f := range fs {
			if f.Index != int64(i) || len(f.Payload) == 0 {
				t.Errorf("%s frame %d: index %d, %d bytes", name, i, f.Index, len(f.Payload))
			}
		}
	}
	if fs := Frames("nosuch", 10); fs != nil {
		t.Errorf("unknown dialect: %d frames, want none", len(fs))
	}
}
