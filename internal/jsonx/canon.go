package jsonx

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// Canonical renders a decoded value with sorted object keys and normalised
// numbers, so two events that differ only in key order or in "1.0" vs "1"
// compare equal. Strings are written exactly as encoding/json writes them
// (HTML characters, U+2028 and U+2029 escaped, bad UTF-8 as U+FFFD), by
// hand: Marshal per string was a third of the check engine's time (issue
// 26). The rules compare with Equal and key with Hash, which agree with
// Canonical without building it; Canonical remains for callers that need
// the bytes (a replay's id tokens, the runner's matching).
func Canonical(v any) []byte {
	return AppendCanonical(nil, v)
}

// AppendCanonical appends the canonical form of v to dst.
func AppendCanonical(dst []byte, v any) []byte {
	switch x := v.(type) {
	case map[string]any:
		keys := sortedKeys(x)
		dst = append(dst, '{')
		for i, k := range *keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k)
			dst = append(dst, ':')
			dst = AppendCanonical(dst, x[k])
		}
		keyPool.Put(keys)
		return append(dst, '}')
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendCanonical(dst, e)
		}
		return append(dst, ']')
	case string:
		return appendString(dst, x)
	case json.Number:
		return appendNumber(dst, x)
	case bool:
		return strconv.AppendBool(dst, x)
	case nil:
		return append(dst, "null"...)
	}
	// Values built outside Decode (tests, Go literals) fall back to
	// encoding/json, which is canonical for scalars.
	out, _ := json.Marshal(v)
	return append(dst, out...)
}

// keyPool recycles the key slices of sorted objects: one per object per
// canonical rendering was most of its allocations.
var keyPool = sync.Pool{New: func() any { return new([]string) }}

func sortedKeys(m map[string]any) *[]string {
	keys := keyPool.Get().(*[]string)
	*keys = (*keys)[:0]
	for k := range m {
		*keys = append(*keys, k)
	}
	slices.Sort(*keys)
	return keys
}

// appendNumber appends the canonical form of a number literal.
func appendNumber(dst []byte, n json.Number) []byte {
	if plainInteger(string(n)) {
		return append(dst, n...)
	}
	return append(dst, canonicalNumber(n)...)
}

// plainInteger reports whether s is an integer literal that canonicalNumber
// returns unchanged: optional '-', no leading zero, at most 18 digits (so
// it parses as int64), and not "-0".
func plainInteger(s string) bool {
	d := s
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 18 || (d[0] == '0' && (len(d) > 1 || len(s) > 1)) {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

func canonicalNumber(n json.Number) string {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return strconv.FormatInt(i, 10)
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return string(n) // beyond float64: keep the literal
	}
	if f == float64(int64(f)) && f < 9e18 && f > -9e18 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

const hexDigits = "0123456789abcdef"

// htmlSafe marks the ASCII bytes encoding/json writes as they are (with
// its default HTML escaping): printable, not '"', '\\', '<', '>' or '&'.
var htmlSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return t
}()

// appendString appends s quoted byte for byte as json.Marshal quotes it
// (TestAppendStringMatchesMarshal holds the two together).
func appendString(dst []byte, s string) []byte {
	return appendQuoted(dst, unsafe.Slice(unsafe.StringData(s), len(s)), htmlRun)
}

// htmlRun is plainRun that also stops at '<', '>' and '&', which
// json.Marshal escapes.
func htmlRun(b []byte) int {
	for n, c := range b {
		if !htmlSafe[c&0x7f] || c >= utf8.RuneSelf {
			return n
		}
	}
	return len(b)
}
