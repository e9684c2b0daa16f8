package check

import (
	"strings"
	"testing"
)

// TestDiffPointerOneLine: a member name with a line break cannot add a
// line to a diff (a forged "+ /ok: true" on the console) nor move the
// first difference: one differing member is two lines, whatever its name.
func TestDiffPointerOneLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, key, wantPtr string
	}{
		{"plain", "a", "/a"},
		{"newline", "a\n+ /ok", `/a\n+ ~1ok`},
		{"carriage return", "a\r\nb", `/a\r\nb`},
	}
	for _, tt := range tests {
		a := map[string]any{tt.key: "x"}
		b := map[string]any{tt.key: "y\nz"}
		diff := jsonDiff(a, b)
		lines := strings.Split(diff, "\n")
		if len(lines) != 2 {
			t.Errorf("%s: diff has %d lines, want 2:\n%s", tt.name, len(lines), diff)
			continue
		}
		ptr, was, now := firstDifference(diff)
		if ptr != tt.wantPtr || was != `"x"` || now != `"y\nz"` {
			t.Errorf("%s: first difference %q %s → %s, want %q \"x\" → \"y\\nz\"", tt.name, ptr, was, now, tt.wantPtr)
		}
	}
}
