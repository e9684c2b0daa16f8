package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// DefaultMaxDepth bounds nesting. Real protocol messages nest a handful of
// levels; a "JSON bomb" of a million brackets must not exhaust the stack.
const DefaultMaxDepth = 128

// IssueKind names something legal enough to decode but worth a finding.
type IssueKind string

// The issues Decode reports alongside a value.
const (
	// DuplicateKey: RFC 8259 §4 says names SHOULD be unique; receivers
	// disagree on which value wins, so a frame with duplicates means
	// different things to different peers.
	DuplicateKey IssueKind = "duplicate-key"
	// InvalidUTF8: bytes in a string that are not UTF-8 (RFC 8259 §8.1).
	InvalidUTF8 IssueKind = "invalid-utf8"
	// LoneSurrogate: a \uD800-\uDFFF escape without its pair.
	LoneSurrogate IssueKind = "lone-surrogate"
	// NumberRange: a number beyond IEEE 754 binary64 (JavaScript reads it
	// as Infinity) or an integer beyond ±(2^53-1), which JavaScript rounds
	// (RFC 8259 §6 on interoperable numbers).
	NumberRange IssueKind = "number-range"
)

// Issue is one irregularity found while decoding, located by JSON pointer.
type Issue struct {
	Kind    IssueKind
	Pointer string
	Detail  string
}

// SyntaxError says why bytes are not JSON and where.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.Msg, e.Offset) }

// DepthError says the document nests deeper than allowed.
type DepthError struct {
	Offset, Max int
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("nesting deeper than %d levels at offset %d", e.Max, e.Offset)
}

// Decode parses one JSON value that must fill data (surrounding whitespace
// allowed). It returns the value, the issues seen, and an error (*SyntaxError
// or *DepthError) when data is not acceptable JSON.
func Decode(data []byte, maxDepth int) (any, []Issue, error) {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	d := decoder{data: data, maxDepth: maxDepth, cache: internPool.Get().(*internCache)}
	defer internPool.Put(d.cache)
	d.skipSpace()
	v, err := d.value()
	if err != nil {
		return nil, d.issues, err
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return nil, d.issues, d.syntax("unexpected data after the top-level value")
	}
	return v, d.issues, nil
}

type pathElem struct {
	key   string
	index int
	isArr bool
}

type decoder struct {
	data     []byte
	pos      int
	maxDepth int
	path     []pathElem
	issues   []Issue
	cache    *internCache // nil: no interning
}

func (d *decoder) syntax(msg string) error { return &SyntaxError{Offset: d.pos, Msg: msg} }

// pointer renders the current path as an RFC 6901 JSON pointer. It runs
// only when an issue is recorded, so the hot path never formats paths.
func (d *decoder) pointer() string {
	var b strings.Builder
	for _, e := range d.path {
		b.WriteByte('/')
		if e.isArr {
			b.WriteString(strconv.Itoa(e.index))
			continue
		}
		b.WriteString(EscapePointer(e.key))
	}
	return b.String()
}

var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// EscapePointer escapes one reference token per RFC 6901 §3.
func EscapePointer(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return tokenEscaper.Replace(tok)
}

func (d *decoder) issue(kind IssueKind, detail string) {
	d.issues = append(d.issues, Issue{Kind: kind, Pointer: d.pointer(), Detail: detail})
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value() (any, error) {
	if d.pos >= len(d.data) {
		return nil, d.syntax("unexpected end of input")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		return d.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == 'N' || c == 'I':
		return nil, d.syntax("NaN and Infinity are not JSON numbers (RFC 8259 §6)")
	default:
		return nil, d.syntax(fmt.Sprintf("invalid character %q looking for a value", c))
	}
}

func (d *decoder) literal(word string) error {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return d.syntax("invalid literal, expected " + word)
	}
	d.pos += len(word)
	return nil
}

func (d *decoder) enter() error {
	if len(d.path) >= d.maxDepth {
		return &DepthError{Offset: d.pos, Max: d.maxDepth}
	}
	return nil
}

func (d *decoder) object() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	d.pos++ // '{'
	m := make(map[string]any)
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return m, nil
	}
	d.path = append(d.path, pathElem{})
	defer func() { d.path = d.path[:len(d.path)-1] }()
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.syntax("expected a string object key")
		}
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		d.path[len(d.path)-1] = pathElem{key: key}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.syntax("expected ':' after object key")
		}
		d.pos++
		d.skipSpace()
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		if _, dup := m[key]; dup {
			d.issue(DuplicateKey, fmt.Sprintf("key %q appears more than once; the last value was kept", key))
		}
		m[key] = v
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.syntax("unexpected end of input in object")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return m, nil
		default:
			return nil, d.syntax("expected ',' or '}' in object")
		}
	}
}

func (d *decoder) array() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	d.pos++ // '['
	a := []any{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return a, nil
	}
	d.path = append(d.path, pathElem{isArr: true})
	defer func() { d.path = d.path[:len(d.path)-1] }()
	for i := 0; ; i++ {
		d.path[len(d.path)-1].index = i
		d.skipSpace()
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.syntax("unexpected end of input in array")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return a, nil
		default:
			return nil, d.syntax("expected ',' or ']' in array")
		}
	}
}

// str decodes a string starting at the opening quote. Strings without
// escapes (almost all of them) are copied once from the input: plain ASCII
// is skipped eight bytes at a time and valid UTF-8 a rune at a time; only an
// escape or a byte that is not UTF-8 takes the builder of slowStr.
func (d *decoder) str() (string, error) {
	d.pos++ // opening quote
	start := d.pos
	for d.pos < len(d.data) {
		d.pos += plainRun(d.data[d.pos:])
		if d.pos >= len(d.data) {
			break
		}
		switch c := d.data[d.pos]; {
		case c == '"':
			s := d.intern(d.data[start:d.pos])
			d.pos++
			return s, nil
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size == 1 {
				return d.slowStr(start)
			}
			d.pos += size
		case c == '\\' || c < 0x20:
			return d.slowStr(start)
		default:
			d.pos++ // unreachable: plainRun stops only at the bytes above
		}
	}
	return "", d.syntax("unterminated string")
}

func (d *decoder) slowStr(start int) (string, error) {
	var b strings.Builder
	b.Grow(rawStringLen(d.data[start:]))
	b.Write(d.data[start:d.pos])
	badUTF8 := false
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			if badUTF8 {
				d.issue(InvalidUTF8, "string holds bytes that are not UTF-8; they were replaced by U+FFFD")
			}
			return b.String(), nil
		case c < 0x20:
			return "", d.syntax("control character in string")
		case c == '\\':
			if err := d.escape(&b); err != nil {
				return "", err
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size == 1 {
				badUTF8 = true
			}
			b.WriteRune(r)
			d.pos += size
		default:
			n := plainRun(d.data[d.pos:])
			b.Write(d.data[d.pos : d.pos+n])
			d.pos += n
		}
	}
	return "", d.syntax("unterminated string")
}

func (d *decoder) escape(b *strings.Builder) error {
	d.pos++ // backslash
	if d.pos >= len(d.data) {
		return d.syntax("unterminated escape")
	}
	c := d.data[d.pos]
	d.pos++
	switch c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		return d.unicodeEscape(b)
	default:
		d.pos--
		return d.syntax(fmt.Sprintf("invalid escape '\\%c'", c))
	}
	return nil
}

func (d *decoder) hex4() (rune, bool) {
	if len(d.data)-d.pos < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(d.data[d.pos:d.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	d.pos += 4
	return rune(v), true
}

func (d *decoder) unicodeEscape(b *strings.Builder) error {
	r, ok := d.hex4()
	if !ok {
		return d.syntax("invalid \\u escape")
	}
	if !utf16.IsSurrogate(r) {
		b.WriteRune(r)
		return nil
	}
	if r < 0xDC00 && len(d.data)-d.pos >= 6 && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
		save := d.pos
		d.pos += 2
		if r2, ok := d.hex4(); ok {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				b.WriteRune(dec)
				return nil
			}
		}
		d.pos = save
	}
	d.issue(LoneSurrogate, fmt.Sprintf("\\u%04X has no surrogate pair; it was replaced by U+FFFD", r))
	b.WriteRune(utf8.RuneError)
	return nil
}

// number validates the RFC 8259 §6 grammar and keeps the literal text as a
// json.Number, so integers beyond 2^53 keep every digit.
func (d *decoder) number() (any, error) {
	start := d.pos
	if d.data[d.pos] == '-' {
		d.pos++
	}
	if d.pos >= len(d.data) {
		return nil, d.syntax("incomplete number")
	}
	switch c := d.data[d.pos]; {
	case c == '0':
		d.pos++
	case c >= '1' && c <= '9':
		d.digits()
	case c == 'I':
		return nil, d.syntax("NaN and Infinity are not JSON numbers (RFC 8259 §6)")
	default:
		return nil, d.syntax("invalid number")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if d.digits() == 0 {
			return nil, d.syntax("invalid number: digits expected after '.'")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if d.digits() == 0 {
			return nil, d.syntax("invalid number: digits expected in exponent")
		}
	}
	lit := d.data[start:d.pos]
	if len(lit) > 15 || bytes.ContainsAny(lit, "eE") {
		d.checkRange(lit)
	}
	return json.Number(lit), nil
}

// maxSafeInteger is 2^53-1, the largest integer every JSON peer (including
// JavaScript) represents exactly.
const maxSafeInteger = 1<<53 - 1

func (d *decoder) checkRange(lit []byte) {
	f, err := strconv.ParseFloat(string(lit), 64)
	switch {
	case err != nil || math.IsInf(f, 0):
		d.issue(NumberRange, fmt.Sprintf("%s is beyond IEEE 754 binary64; JavaScript reads it as Infinity", lit))
	case !bytes.ContainsAny(lit, ".eE") && math.Abs(f) > maxSafeInteger:
		d.issue(NumberRange, fmt.Sprintf("integer %s is beyond ±(2^53-1); JavaScript peers round it", lit))
	}
}

func (d *decoder) digits() int {
	n := 0
	for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
		d.pos++
		n++
	}
	return n
}
