package asyncapi

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxDocBytes bounds an AsyncAPI document or a file it references.
const maxDocBytes = 32 << 20

// decode reads a YAML or JSON document (JSON is YAML) into the values
// encoding/json would give: objects with string keys, arrays, strings,
// float64 or int numbers, bools and nil.
func decode(file string, data []byte) (any, error) {
	if len(data) > maxDocBytes {
		return nil, errAt(file, "", "document of %d bytes is larger than %d", len(data), maxDocBytes)
	}
	var n yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&n); err != nil {
		return nil, errAt(file, "", "not YAML or JSON: %s", oneLine(err.Error()))
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, errAt(file, "", "not YAML or JSON: %s", oneLine(err.Error()))
	}
	return plain(file, "", v, 0)
}

// plain turns YAML's values into JSON's, refusing keys that are not
// strings (JSON Schema and AsyncAPI have none).
func plain(file, at string, v any, depth int) (any, error) {
	if depth > 256 {
		return nil, errAt(file, at, "nested deeper than 256 levels")
	}
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			p, err := plain(file, at+"/"+escape(k), val, depth+1)
			if err != nil {
				return nil, err
			}
			x[k] = p
		}
		return x, nil
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			ks, ok := k.(string)
			if !ok {
				return nil, errAt(file, at, "a mapping key is %T %v, not a string", k, k)
			}
			p, err := plain(file, at+"/"+escape(ks), val, depth+1)
			if err != nil {
				return nil, err
			}
			out[ks] = p
		}
		return out, nil
	case []any:
		for i, val := range x {
			p, err := plain(file, fmt.Sprintf("%s/%d", at, i), val, depth+1)
			if err != nil {
				return nil, err
			}
			x[i] = p
		}
		return x, nil
	case int, int64, uint64, float64, string, bool, nil:
		return x, nil
	}
	return nil, errAt(file, at, "value of YAML type %T has no JSON equivalent", v)
}

func escape(tok string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}

func unescape(tok string) string {
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// lookup follows a JSON pointer ("/a/b", "" for the root) into a value.
func lookup(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescape(tok)
		switch x := v.(type) {
		case map[string]any:
			c, ok := x[tok]
			if !ok {
				return nil, false
			}
			v = c
		case []any:
			i := 0
			if tok == "" || len(tok) > 9 {
				return nil, false
			}
			for _, r := range tok {
				if r < '0' || r > '9' {
					return nil, false
				}
				i = i*10 + int(r-'0')
			}
			if i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}
