package jsonx

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Masks for the word-at-a-time scan of plainRun.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainRun returns how many bytes at the start of b need no attention
// inside a JSON string: printable ASCII other than '"' and '\'. It tests
// eight bytes per step (the "has a zero byte" trick of Hacker's Delight
// §6-1): a string member of a few KiB, the bulk of every frame, is mostly
// such bytes, and a byte loop was the decoder's largest cost.
//
// A borrow can only mark bytes above the first real match, so the lowest
// marked byte is exact.
func plainRun(b []byte) int {
	n := 0
	for len(b)-n >= 8 {
		w := binary.LittleEndian.Uint64(b[n:])
		q := w ^ (ones * '"')
		s := w ^ (ones * '\\')
		m := ((q - ones) &^ q) | ((s - ones) &^ s) | ((w - ones*0x20) &^ w) | w
		if m &= highs; m != 0 {
			return n + bits.TrailingZeros64(m)/8
		}
		n += 8
	}
	for n < len(b) {
		if c := b[n]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			return n
		}
		n++
	}
	return n
}

// rawStringLen returns the length of the raw string body at the start of b
// (up to its closing quote, or all of b), which bounds its decoded length
// but for bytes that are not UTF-8 (each becomes three). slowStr sizes its
// builder with it: the text of a recorded frame is one long string full of
// escapes, and growing a builder by doubling copied it twice over.
func rawStringLen(b []byte) int {
	n := 0
	for n < len(b) {
		n += plainRun(b[n:])
		if n >= len(b) || b[n] == '"' {
			return n
		}
		if b[n] == '\\' {
			n++
		}
		n++
	}
	return len(b)
}

// skipStr moves past the string value at d.pos without building it when
// lazy names key and the string is one str would decode without an issue
// or an error: plain bytes, valid UTF-8 and escapes other than a
// surrogate. Otherwise it leaves d.pos where it was and reports false, and
// the caller decodes the value as usual (and gets its issues or error).
func (d *decoder) skipStr(lazy func(string) bool, key string) bool {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' || !lazy(key) {
		return false
	}
	b := d.data
	i := d.pos + 1
	for i < len(b) {
		i += plainRun(b[i:])
		if i >= len(b) {
			return false
		}
		switch c := b[i]; {
		case c == '"':
			d.pos = i + 1
			return true
		case c == '\\':
			if i+1 >= len(b) {
				return false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(b)-i < 6 {
					return false
				}
				r, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 32)
				if err != nil || utf16.IsSurrogate(rune(r)) {
					return false
				}
				i += 6
			default:
				return false
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return false
			}
			i += size
		default: // a control character: str reports it
			return false
		}
	}
	return false
}
