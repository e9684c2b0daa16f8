package jsonx

import (
	"encoding/binary"
	"math/bits"
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
