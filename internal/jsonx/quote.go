package jsonx

import (
	"unicode/utf8"
	"unsafe"
)

// AppendQuoted appends src as a JSON string exactly as an encoding/json
// Encoder with SetEscapeHTML(false) writes it: '"', '\\' and control
// characters escaped, U+2028 and U+2029 escaped, bytes that are not UTF-8
// as \ufffd (TestAppendQuotedIsEncoder, FuzzAppendQuoted). The recorder
// writes every frame's text with it: encoding/json's byte loop and its
// reflection were a quarter of wsproxy's CPU in a burst, and plainRun
// skips the plain bytes eight at a time.
func AppendQuoted(dst, src []byte) []byte { return appendQuoted(dst, src, plainRun) }

// AppendQuotedString is AppendQuoted for a string (read in place, never
// written).
func AppendQuotedString(dst []byte, src string) []byte {
	return AppendQuoted(dst, unsafe.Slice(unsafe.StringData(src), len(src)))
}

// appendQuoted quotes src, copying the runs of bytes that run says need
// no escape as they are (plainRun, or htmlRun for json.Marshal's HTML
// escaping) and escaping the rest as encoding/json does.
func appendQuoted(dst, src []byte, run func([]byte) int) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(src); {
		i += run(src[i:])
		if i >= len(src) {
			break
		}
		if c := src[i]; c < utf8.RuneSelf {
			dst = append(dst, src[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, src[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, src[start:]...)
	return append(dst, '"')
}
