package console

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/console/consoletest"
)

// TestEscape: what a terminal acts on is shown instead, in Go's notation;
// the rest, accents, symbols and emoji included, is left as it is.
func TestEscape(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"hello_world {\"a\":1}", "hello_world {\"a\":1}"},
		{"café ✓ 👨\u200d👩", "café ✓ 👨\u200d👩"},
		{consoletest.Attack, `\x1b]0;x\x07\x1b[2J\x1b[31mFAKE PASS\u202e`},
		{"a\nb\r\tc", `a\nb\r\tc`},
		{"\x00\x7f", `\x00\x7f`},
		{"\u009b2J\u0085", `\u009b2J\u0085`},
		{"\u202aL\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c", `\u202aL\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c`},
		{"a\u2028b\u2029", `a\u2028b\u2029`},
		{"\U000E0041\U000E007F", `\U000e0041\U000e007f`},
		{"\xff\xc3(", `\xff\xc3(`},
		{"\xed\xa0\x80", `\xed\xa0\x80`}, // a surrogate is not UTF-8
		{"\ufffd", "\ufffd"},             // a real replacement character stays
		{`C:\path`, `C:\path`},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestEscapeCaps: a very long text is cut at MaxRunes characters as shown,
// and says how many characters of the original were left out.
func TestEscapeCaps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"at the cap", strings.Repeat("é", MaxRunes), strings.Repeat("é", MaxRunes)},
		{"one over", strings.Repeat("é", MaxRunes+1), strings.Repeat("é", MaxRunes) + "…(1 more)"},
		{"long ascii", strings.Repeat("a", 10*MaxRunes), strings.Repeat("a", MaxRunes) + "…(18000 more)"},
		{"escapes count as shown", strings.Repeat("\x1b", MaxRunes), strings.Repeat(`\x1b`, MaxRunes/4) + "…(1500 more)"},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("%s: Escape = %.40q… (%d runes), want %.40q… (%d runes)", tt.name, got, utf8.RuneCountInString(got), tt.want, utf8.RuneCountInString(tt.want))
		}
	}
}

// FuzzEscape: whatever the text, the escaped one is safe for a terminal
// without a single newline, bounded, unchanged when it was plain, and
// escaping it again changes nothing unless it had to be cut.
func FuzzEscape(f *testing.F) {
	for _, s := range append(consoletest.Pieces, consoletest.Attack, "", "plain text", strings.Repeat("x", MaxRunes+5)) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		if bad := consoletest.Unsafe([]byte(got), false); bad != "" {
			t.Fatalf("Escape(%q): %s", s, bad)
		}
		if strings.Contains(got, "\n") {
			t.Fatalf("Escape(%q) = %q starts a line", s, got)
		}
		if n := utf8.RuneCountInString(got); n > MaxRunes+len("…(9999999999 more)")+len(`\U000e0000`) {
			t.Fatalf("Escape of %d bytes is %d runes long", len(s), n)
		}
		if plain(s) && got != s {
			t.Fatalf("Escape(%q) = %q changed a plain text", s, got)
		}
		if !strings.Contains(got, "…(") && Escape(got) != got {
			t.Fatalf("Escape(Escape(%q)) = %q, want %q", s, Escape(got), got)
		}
	})
}
