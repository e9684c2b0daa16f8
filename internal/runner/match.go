package runner

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// canonical renders v with sorted keys and normalised numbers.
func canonical(v any) []byte { return jsonx.Canonical(v) }

// show renders v for a failure message, bounded.
func show(v any) string {
	b := canonical(v)
	const max = 300
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// lookup finds a member by dotted path ("data.seq", "items.0.id") or by
// JSON pointer ("/data/seq").
func lookup(doc any, path string) (any, bool) {
	if strings.HasPrefix(path, "/") || path == "" {
		return jsonx.Get(doc, path)
	}
	return jsonx.Get(doc, memberPointer(path))
}

// literal reads a value written in a step: JSON ("abc", 3, true, null,
// {"a":1}), or a bare word taken as a string.
func literal(s string) any {
	s = strings.TrimSpace(s)
	v, _, err := jsonx.Decode([]byte(s), jsonx.DefaultMaxDepth)
	if err != nil {
		return s
	}
	return v
}

// decodeJSON reads a docstring that must be JSON.
func decodeJSON(s string) (any, error) {
	v, _, err := jsonx.Decode([]byte(s), jsonx.DefaultMaxDepth)
	if err != nil {
		return nil, harnessf("docstring is not JSON: %v", err)
	}
	return v, nil
}

// equal compares two decoded values, ignoring key order and number form.
func equal(a, b any) bool { return bytes.Equal(canonical(a), canonical(b)) }

// subset reports whether actual contains expected: every member of an
// expected object is present and matches, arrays match element-wise and
// have the same length, scalars are equal. It returns the path of the
// first difference.
func subset(expected, actual any, path string) (string, bool) {
	switch e := expected.(type) {
	case map[string]any:
		a, ok := actual.(map[string]any)
		if !ok {
			return orRoot(path), false
		}
		keys := make([]string, 0, len(e))
		for k := range e {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			av, ok := a[k]
			if !ok {
				return path + "/" + jsonx.EscapePointer(k), false
			}
			if p, ok := subset(e[k], av, path+"/"+jsonx.EscapePointer(k)); !ok {
				return p, false
			}
		}
		return "", true
	case []any:
		a, ok := actual.([]any)
		if !ok || len(a) != len(e) {
			return orRoot(path), false
		}
		for i := range e {
			if p, ok := subset(e[i], a[i], fmt.Sprintf("%s/%d", path, i)); !ok {
				return p, false
			}
		}
		return "", true
	}
	if !equal(expected, actual) {
		return orRoot(path), false
	}
	return "", true
}

func orRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// memberPointer turns a step's dotted path into a JSON pointer.
func memberPointer(path string) string {
	if strings.HasPrefix(path, "/") || path == "" {
		return path
	}
	toks := strings.Split(path, ".")
	for i, t := range toks {
		toks[i] = jsonx.EscapePointer(t)
	}
	return "/" + strings.Join(toks, "/")
}

// leafPointers lists the members a JSON subset asserts, as pointers.
func leafPointers(v any, prefix string) []string {
	switch t := v.(type) {
	case map[string]any:
		var out []string
		for k, x := range t {
			out = append(out, leafPointers(x, prefix+"/"+jsonx.EscapePointer(k))...)
		}
		return out
	case []any:
		var out []string
		for i, x := range t {
			out = append(out, leafPointers(x, prefix+"/"+strconv.Itoa(i))...)
		}
		return out
	}
	if prefix == "" {
		return nil
	}
	return []string{prefix}
}
