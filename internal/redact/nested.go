package redact

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// maxNest bounds how many strings deep JSON held in a string is redacted
// ("{\"config\":\"{\\\"apiKey\\\":…}\"}" is two deep): deeper documents
// are left to the token shapes.
const maxNest = 4

// nested redacts a JSON document held in the string token tok (a tool's
// args_json, a config sent as text: "{\"apiKey\":\"sk-…\"}"), as JSON does
// a payload, and returns the string token re-encoded, nil when tok holds
// no such document or nothing in it was redacted. Only a string whose
// value parses as a JSON object or array counts, so that prose that
// starts with a brace is left to the token shapes. Escapes are re-encoded
// in their shortest form, so the token grows only by what was redacted
// in it.
func (s *Scrubber) nested(tok []byte, depth int) []byte {
	if depth >= maxNest || len(tok) < 4 {
		return nil
	}
	raw := tok[1 : len(tok)-1]
	k := 0
	for k < len(raw) && raw[k] == ' ' {
		k++
	}
	// An object with members, or an array of strings, has escaped quotes.
	if k == len(raw) || raw[k] != '{' && raw[k] != '[' || bytes.IndexByte(raw, '\\') < 0 || !utf8.Valid(raw) {
		return nil
	}
	val, ok := decodeString(raw)
	if !ok || !json.Valid([]byte(val)) {
		return nil
	}
	red, changed := s.json([]byte(val), depth+1)
	if !changed {
		return nil
	}
	return appendString(make([]byte, 0, len(tok)+len(red)-len(val)+8), red)
}

// appendString appends v as a JSON string token: quotes, backslashes and
// control characters escaped (the five with a letter as \n, the others as
// \u00XX), everything else as it is, "<" and non-ASCII included.
func appendString(out, v []byte) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	for _, c := range v {
		switch {
		case c == '"' || c == '\\':
			out = append(out, '\\', c)
		case c == '\n':
			out = append(out, '\\', 'n')
		case c == '\r':
			out = append(out, '\\', 'r')
		case c == '\t':
			out = append(out, '\\', 't')
		case c == '\b':
			out = append(out, '\\', 'b')
		case c == '\f':
			out = append(out, '\\', 'f')
		case c < 0x20:
			out = append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			out = append(out, c)
		}
	}
	return append(out, '"')
}
