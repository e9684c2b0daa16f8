package sessionize

import (
	"encoding/json"
)

// Peek reads the value at path (object member names from the top) in a
// JSON document without decoding the rest of it. The console, the wire log,
// type-matching faults and the sessionizer need one or two members of a
// frame at relay speed; the check engine's strict decoder judges the frame
// elsewhere, off the relay path.
//
// Strings come back unescaped, numbers and literals as written; objects,
// arrays, absent members and malformed input give ok false. When a member
// repeats, the first one counts. Peek never panics and never recurses: it
// walks only the objects on the path and skips everything else with a
// bracket counter.
func Peek(doc []byte, path ...string) (string, bool) {
	i := skipSpace(doc, 0)
	for _, name := range path {
		var ok bool
		if i, ok = member(doc, i, name); !ok {
			return "", false
		}
	}
	return scalar(doc, i)
}

// member expects an object at doc[i] and returns the offset of the value
// of its first member called name.
func member(doc []byte, i int, name string) (int, bool) {
	if i >= len(doc) || doc[i] != '{' {
		return 0, false
	}
	i = skipSpace(doc, i+1)
	if i < len(doc) && doc[i] == '}' {
		return 0, false
	}
	for i < len(doc) {
		if doc[i] != '"' {
			return 0, false
		}
		end, escaped := stringEnd(doc, i)
		if end < 0 {
			return 0, false
		}
		key := doc[i+1 : end-1]
		match := string(key) == name
		if escaped {
			s, ok := unquote(doc[i:end])
			match = ok && s == name
		}
		i = skipSpace(doc, end)
		if i >= len(doc) || doc[i] != ':' {
			return 0, false
		}
		i = skipSpace(doc, i+1)
		if match {
			return i, i < len(doc)
		}
		if i = skipValue(doc, i); i < 0 {
			return 0, false
		}
		i = skipSpace(doc, i)
		if i >= len(doc) || doc[i] != ',' {
			return 0, false // '}' (not found) or malformed
		}
		i = skipSpace(doc, i+1)
	}
	return 0, false
}

// scalar reads the string, number or literal at doc[i].
func scalar(doc []byte, i int) (string, bool) {
	if i >= len(doc) {
		return "", false
	}
	switch c := doc[i]; {
	case c == '"':
		end, escaped := stringEnd(doc, i)
		if end < 0 {
			return "", false
		}
		if !escaped {
			return string(doc[i+1 : end-1]), true
		}
		return unquote(doc[i:end])
	case c == '{' || c == '[':
		return "", false
	default:
		end := skipValue(doc, i)
		if end <= i {
			return "", false
		}
		return string(doc[i:end]), true
	}
}

// skipValue returns the offset just past the value at doc[i], or -1.
func skipValue(doc []byte, i int) int {
	if i >= len(doc) {
		return -1
	}
	switch doc[i] {
	case '"':
		end, _ := stringEnd(doc, i)
		return end
	case '{', '[':
		depth := 0
		for i < len(doc) {
			switch doc[i] {
			case '"':
				end, _ := stringEnd(doc, i)
				if end < 0 {
					return -1
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	default:
		start := i
		for i < len(doc) {
			switch doc[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				if i == start {
					return -1
				}
				return i
			}
			i++
		}
		return i
	}
}

// stringEnd returns the offset just past the string starting at doc[i]
// (a quote) and whether it holds escapes; -1 when it is not terminated.
func stringEnd(doc []byte, i int) (int, bool) {
	escaped := false
	for j := i + 1; j < len(doc); j++ {
		switch doc[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped
		}
	}
	return -1, escaped
}

func unquote(raw []byte) (string, bool) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

func skipSpace(doc []byte, i int) int {
	for i < len(doc) {
		switch doc[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}
