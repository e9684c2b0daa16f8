// Package consoletest checks, for tests, that console output is safe for a
// terminal whatever the peer sent, and makes the hostile texts to send.
// Its checker is written apart from console.Escape on purpose: it is the
// oracle the escaping is tested against, not a copy of it.
package consoletest

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"unicode/utf8"
)

// sgr is a Select Graphic Rendition sequence, the only escape sequence the
// tool writes itself (its colours).
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// Unsafe returns a description of the first thing in out a terminal would
// act on rather than show, or "" when there is none: a byte below 0x20
// other than '\n', DEL, a C1 control, a bidirectional control, a line or
// paragraph separator, a tag character, invalid UTF-8. With colour, the
// tool's own SGR sequences (ESC [ digits m) are allowed and nothing else
// that starts with ESC.
func Unsafe(out []byte, colour bool) string {
	s := string(out)
	if colour {
		s = sgr.ReplaceAllString(s, "")
	}
	line := 1
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		bad := ""
		switch {
		case r == utf8.RuneError && size == 1:
			bad = fmt.Sprintf("invalid UTF-8 byte %#x", s[i])
		case r == '\n':
			line++
		case r < 0x20 || r == 0x7f:
			bad = fmt.Sprintf("control byte %#x", r)
		case r >= 0x80 && r <= 0x9f:
			bad = fmt.Sprintf("C1 control %U", r)
		case r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			bad = fmt.Sprintf("bidi control %U", r)
		case r == 0x2028 || r == 0x2029:
			bad = fmt.Sprintf("separator %U", r)
		case r >= 0xe0000 && r <= 0xe007f:
			bad = fmt.Sprintf("tag character %U", r)
		}
		if bad != "" {
			lo, hi := max(0, i-40), min(len(s), i+40)
			return fmt.Sprintf("%s on output line %d, near %q", bad, line, s[lo:hi])
		}
		i += size
	}
	return ""
}

// Pieces are the parts hostile texts are made of: terminal control
// sequences (retitle, clear, colour, cursor moves, a forged PASS line),
// C1 controls, bidi overrides, separators, tags, invalid UTF-8, and plain
// words.
var Pieces = []string{
	"\x1b]0;pwned\x07", "\x1b[2J", "\x1b[31m", "\x1b[0m", "\x1b[1A", "\r", "\n", "\t", "\x00", "\x7f", "\b",
	"\nPASS  0 errors, 0 warnings, 0 info\n", "\x1bP+q\x1b\\", "\u009b2J", "\u0085", "\u202e", "\u2066", "\u200f",
	"\u2028", "\U000E0041", "\xff", "\xc3", "\xed\xa0\x80", "ok", "type", "é", "✓", " ", `"`, `\`, "{", "}", ":",
}

// Hostile returns a random text of up to n pieces.
func Hostile(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range 1 + rng.IntN(n) {
		b.WriteString(Pieces[rng.IntN(len(Pieces))])
	}
	return b.String()
}

// Attack is the text of issue 22: it retitles the terminal, clears the
// screen and forges a red line.
const Attack = "\x1b]0;x\x07\x1b[2J\x1b[31mFAKE PASS\u202e"
