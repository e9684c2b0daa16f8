package redact

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// JSON returns a text payload with its credentials redacted, and whether
// anything was: the values of its credential members, the credentials
// in a JSON document held in a string ("{\"apiKey\":\"…\"}", see
// nested), and the token shapes anywhere in it (shapes.go), so that a
// payload that is not JSON at all is redacted as text. A payload with
// none is returned as it is (the same slice, no copy): the common case
// costs two scans and no allocation. payload need not be valid JSON (a
// truncated frame is redacted as far as it goes); when it is, so is the
// result, which is at most MaxLen(len(payload)) bytes long.
func JSON(payload []byte) ([]byte, bool) { return (*Scrubber)(nil).JSON(payload) }

// JSON is the package's JSON that also remembers the secret values it
// redacted, so that Text finds them wherever else they are quoted.
func (s *Scrubber) JSON(p []byte) ([]byte, bool) { return s.json(p, 0) }

// json redacts a document found depth strings deep.
func (s *Scrubber) json(p []byte, depth int) ([]byte, bool) {
	q, named := s.members(p, depth)
	r, shaped := s.tokens(q, formText)
	return r, named || shaped
}

// members redacts the values of credential members, and the JSON held in
// the other string values.
func (s *Scrubber) members(p []byte, depth int) ([]byte, bool) {
	var out []byte
	done := 0 // p[:done] is in out
	for i := 0; i < len(p); {
		q := bytes.IndexByte(p[i:], '"')
		if q < 0 {
			break
		}
		start := i + q
		end, closed := stringEnd(p, start)
		if !closed {
			break
		}
		colon := skipSpace(p, end)
		if colon >= len(p) || p[colon] != ':' { // a value
			if rep := s.nested(p[start:end], depth); rep != nil {
				if out == nil {
					out = make([]byte, 0, len(p)+32)
				}
				out = append(out, p[done:start]...)
				out = append(out, rep...)
				done = end
			}
			i = end
			continue
		}
		if !memberIsSecret(p[start+1 : end-1]) {
			i = colon + 1
			continue
		}
		vs := skipSpace(p, colon+1)
		ve, rep := s.redactValue(p, vs)
		if rep != nil {
			if out == nil {
				out = make([]byte, 0, len(p)+32)
			}
			out = append(out, p[done:vs]...)
			out = append(out, rep...)
			done = ve
		}
		i = ve
	}
	if out == nil {
		return p, false
	}
	return append(out, p[done:]...), true
}

// memberIsSecret decodes a raw member name (escapes are rare) and asks
// MemberName.
func memberIsSecret(raw []byte) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return isSecret(raw, inMember)
	}
	name, ok := decodeString(raw)
	return ok && isSecret(name, inMember)
}

// redactValue redacts the value starting at p[i]: it returns where the
// value ends and its replacement, nil when it stays (a literal, an empty
// string, a marker, something that is not a value).
func (s *Scrubber) redactValue(p []byte, i int) (end int, rep []byte) {
	if i >= len(p) {
		return i, nil
	}
	switch c := p[i]; {
	case c == '"':
		return s.redactStringToken(p, i)
	case c == '-' || c >= '0' && c <= '9':
		return s.redactNumberToken(p, i)
	case c == '{' || c == '[':
		return s.redactContainer(p, i)
	}
	return i, nil
}

// redactStringToken replaces the string token at p[i] by a Marker.
func (s *Scrubber) redactStringToken(p []byte, i int) (int, []byte) {
	end, closed := stringEnd(p, i)
	if !closed { // a cut frame: redact what there is, keep it unterminated
		raw := p[i+1 : end]
		if len(raw) == 0 || IsMarker(string(raw)) {
			return end, nil
		}
		s.Add(string(raw))
		return end, append([]byte{'"'}, Marker(utf8.RuneCount(raw))...)
	}
	raw := p[i+1 : end-1]
	var val string
	if bytes.IndexByte(raw, '\\') < 0 {
		val = string(raw)
	} else if v, ok := decodeString(raw); ok {
		val = v
	} else {
		val = string(raw)
	}
	if val == "" || IsMarker(val) {
		return end, nil
	}
	s.Add(val)
	return end, append(append([]byte{'"'}, Marker(utf8.RuneCountInString(val))...), '"')
}

// redactNumberToken replaces the number at p[i] by the smallest number of
// the same layout: the integer part becomes 0 (one digit) or 1 and zeros,
// every other digit 0. 4711 → 1000, -0.25 → -0.00, 12e3 → 10e0.
func (s *Scrubber) redactNumberToken(p []byte, i int) (int, []byte) {
	end := i
	for end < len(p) && isNumberByte(p[end]) {
		end++
	}
	tok := p[i:end]
	rep := make([]byte, len(tok))
	intPart := true
	first := true
	for k, c := range tok {
		switch {
		case c >= '0' && c <= '9':
			rep[k] = '0'
			if intPart && first && k+1 < len(tok) && tok[k+1] >= '0' && tok[k+1] <= '9' {
				rep[k] = '1'
			}
			first = false
		default:
			rep[k] = c
			if c == '.' || c == 'e' || c == 'E' {
				intPart = false
			}
		}
	}
	if bytes.Equal(rep, tok) {
		return end, nil
	}
	s.Add(string(tok))
	return end, rep
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// redactContainer redacts every string and number of the object or array
// at p[i], keeping its member names, literals and layout. It scans without
// recursion, so depth costs nothing.
func (s *Scrubber) redactContainer(p []byte, i int) (int, []byte) {
	var out []byte
	done, depth, k := i, 0, i
	for k < len(p) {
		c := p[k]
		var end int
		var rep []byte
		switch {
		case c == '{' || c == '[':
			depth++
			k++
			continue
		case c == '}' || c == ']':
			depth--
			k++
			if depth == 0 {
				return s.flush(out, p, done, k)
			}
			continue
		case c == '"':
			e, closed := stringEnd(p, k)
			if closed {
				if n := skipSpace(p, e); n < len(p) && p[n] == ':' { // a member name
					k = e
					continue
				}
			}
			end, rep = s.redactStringToken(p, k)
		case c == '-' || c >= '0' && c <= '9':
			end, rep = s.redactNumberToken(p, k)
		default:
			k++
			continue
		}
		if rep != nil {
			if out == nil {
				out = make([]byte, 0, len(p)-i+32)
			}
			out = append(out, p[done:k]...)
			out = append(out, rep...)
			done = end
		}
		k = end
	}
	return s.flush(out, p, done, k)
}

// flush ends a container's replacement at end: nil when nothing in it
// changed.
func (s *Scrubber) flush(out, p []byte, done, end int) (int, []byte) {
	if out == nil {
		return end, nil
	}
	return end, append(out, p[done:end]...)
}

// stringEnd returns the index after the string token starting at p[i]
// (a quote), and false when the string is not closed before the end.
func stringEnd(p []byte, i int) (int, bool) {
	k := i + 1
	for {
		q := bytes.IndexByte(p[k:], '"')
		if q < 0 {
			return len(p), false
		}
		q += k
		bs := 0
		for j := q - 1; j > i && p[j] == '\\'; j-- {
			bs++
		}
		if bs%2 == 0 {
			return q + 1, true
		}
		k = q + 1
	}
}

func skipSpace(p []byte, i int) int {
	for i < len(p) && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
		i++
	}
	return i
}

// decodeString decodes the raw content of a JSON string with escapes.
func decodeString(raw []byte) (string, bool) {
	var s string
	b := make([]byte, 0, len(raw)+2)
	b = append(append(append(b, '"'), raw...), '"')
	if err := json.Unmarshal(b, &s); err != nil {
		return "", false
	}
	return s, true
}
