package console

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxRunes is how many characters of one text Escape shows: a peer's
// 10 MB close reason or message type must not flood a terminal or a CI
// log. The rest is counted, not shown.
const MaxRunes = 2000

// Escape renders text a peer controls (a message's type, a member, a close
// reason, an error text, a URL, a header value) so that a terminal shows it
// and does nothing else: without it a peer that sends
// "\x1b]0;…\a\x1b[2J\x1b[31mPASS" retitles the terminal, clears the screen
// and forges a line, in a terminal and in a CI log alike, colour or not.
//
// Escaped, visibly and in Go's notation:
//
//   - C0 control characters, DEL and invalid UTF-8 bytes: \n, \r, \t, else
//     \x1b (a newline of the text is shown, never started: only the tool
//     starts console lines);
//   - C1 control characters U+0080–U+009F (some terminals take U+009B as
//     CSI): \u009b;
//   - bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
//     U+2066–U+2069), which reorder what a reader sees, and the line and
//     paragraph separators U+2028 and U+2029;
//   - Unicode tag characters U+E0000–U+E007F, invisible text that a model
//     reads and a person does not.
//
// A text of more than MaxRunes characters (counted as shown) is cut, with
// "…(N more)" saying how many characters of the original were left out.
// Backslashes are not doubled: the output is for people, and most of it is
// text that has none.
func Escape(s string) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(min(len(s), 4*MaxRunes))
	shown := 0
	for i := 0; i < len(s); {
		if shown >= MaxRunes {
			b.WriteString("…(")
			b.WriteString(strconv.Itoa(utf8.RuneCountInString(s[i:])))
			b.WriteString(" more)")
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		esc := ""
		switch {
		case r == utf8.RuneError && size == 1:
			esc = `\x` + hex2(s[i])
		case r == '\n':
			esc = `\n`
		case r == '\r':
			esc = `\r`
		case r == '\t':
			esc = `\t`
		case r < 0x20 || r == 0x7f:
			esc = `\x` + hex2(byte(r))
		case unsafeRune(r):
			esc = `\u` + hex4(r)
			if r > 0xffff {
				esc = `\U` + hex8(r)
			}
		}
		if esc == "" {
			b.WriteString(s[i : i+size])
			shown++
		} else {
			b.WriteString(esc)
			shown += len(esc)
		}
		i += size
	}
	return b.String()
}

// plain says s needs no escaping: printable ASCII only, and short. Most
// of what a console prints is.
func plain(s string) bool {
	if len(s) > MaxRunes {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// unsafeRune is a valid, non-ASCII rune a terminal must not receive as it
// is.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // bidi marks
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	case r >= 0xe0000 && r <= 0xe007f: // tags
		return true
	}
	return false
}

const hexDigits = "0123456789abcdef"

func hex2(c byte) string { return string([]byte{hexDigits[c>>4], hexDigits[c&0xf]}) }

func hex4(r rune) string {
	return string([]byte{hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf]})
}

func hex8(r rune) string { return hex4(r>>16) + hex4(r&0xffff) }
