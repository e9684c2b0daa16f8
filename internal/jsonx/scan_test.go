package jsonx

import (
	"strings"
	"testing"
)

// naivePlainRun is plainRun's definition, one byte at a time.
func naivePlainRun(b []byte) int {
	for i, c := range b {
		if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			return i
		}
	}
	return len(b)
}

// TestPlainRun puts every byte value at every position of a word, after
// bytes that make a borrow (0x00, 0x1f, 0x21, 0x5b, 0x80, 0xff) and before
// plain text, and compares the word-at-a-time scan with the byte loop.
func TestPlainRun(t *testing.T) {
	t.Parallel()
	fillers := []byte{'a', ' ', '~', 0x21, 0x23, 0x5b, 0x5d, 0x7f}
	for _, fill := range fillers {
		for c := 0; c < 256; c++ {
			for pos := 0; pos < 19; pos++ {
				b := []byte(strings.Repeat(string(fill), 24))
				b[pos] = byte(c)
				if got, want := plainRun(b), naivePlainRun(b); got != want {
					t.Fatalf("byte %#x at %d among %q: plainRun %d, want %d", c, pos, fill, got, want)
				}
				for _, prev := range []byte{0x00, 0x1f, 0x80, 0xff, '"', '\\'} {
					if pos == 0 {
						break
					}
					b[pos-1] = prev
					if got, want := plainRun(b[pos-1:]), naivePlainRun(b[pos-1:]); got != want {
						t.Fatalf("%#x then %#x: plainRun %d, want %d", prev, c, got, want)
					}
					b[pos-1] = fill
				}
			}
		}
	}
}

func FuzzPlainRun(f *testing.F) {
	f.Add([]byte(`plain text "quoted" and \ escaped`))
	f.Add([]byte("caf\xc3\xa9 \x01\x7f\x80"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := plainRun(b), naivePlainRun(b); got != want {
			t.Fatalf("%q: plainRun %d, want %d", b, got, want)
		}
	})
}
