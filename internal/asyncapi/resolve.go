package asyncapi

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// resolver follows $refs within the document and to local files, as the
// AsyncAPI parser does. Remote references are refused: nothing is fetched.
type resolver struct {
	main string
	docs map[string]any
	// read reads a local file named relative to the main document's
	// folder; nil refuses every file reference (the fuzz target).
	read func(name string) ([]byte, error)
}

// maxRefHops bounds a chain of references (a $ref to a $ref …).
const maxRefHops = 64

// target splits a $ref into the file it names and the pointer into it.
func (r *resolver) target(file, at, ref string) (string, string, error) {
	if strings.Contains(ref, "://") {
		return "", "", errAt(file, at, "$ref %q is remote; only references within the document and to local files are followed", ref)
	}
	loc, ptr, _ := strings.Cut(ref, "#")
	if ptr != "" && !strings.HasPrefix(ptr, "/") {
		return "", "", errAt(file, at, "$ref %q: the part after # is not a JSON pointer", ref)
	}
	if loc == "" {
		return file, ptr, nil
	}
	if path.IsAbs(loc) {
		return "", "", errAt(file, at, "$ref %q: an absolute file path; name files relative to the document", ref)
	}
	return path.Join(path.Dir(file), loc), ptr, nil
}

// doc returns a decoded file, reading it on first use.
func (r *resolver) doc(from, at, file string) (any, error) {
	if d, ok := r.docs[file]; ok {
		return d, nil
	}
	if r.read == nil {
		return nil, errAt(from, at, "$ref to file %s: file references are not followed here", file)
	}
	if strings.HasPrefix(file, "../") && strings.Count(file, "../") > 8 {
		return nil, errAt(from, at, "$ref to file %s: too far outside the document's folder", file)
	}
	data, err := r.read(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errAt(from, at, "broken $ref: file %s does not exist", file)
		}
		return nil, errAt(from, at, "$ref to file %s: %v", file, err)
	}
	d, err := decode(file, data)
	if err != nil {
		return nil, err
	}
	r.docs[file] = d
	return d, nil
}

// follow returns v, or what its $ref chain ends at, with where that is.
func (r *resolver) follow(file, at string, v any) (any, string, string, error) {
	for hop := 0; ; hop++ {
		m, ok := v.(map[string]any)
		if !ok {
			return v, file, at, nil
		}
		ref, isRef := m["$ref"]
		if !isRef {
			return v, file, at, nil
		}
		s, ok := ref.(string)
		if !ok {
			return nil, "", "", errAt(file, at+"/$ref", "$ref is not a string")
		}
		if hop == maxRefHops {
			return nil, "", "", errAt(file, at, "$ref chain longer than %d (a loop?)", maxRefHops)
		}
		tf, tp, err := r.target(file, at, s)
		if err != nil {
			return nil, "", "", err
		}
		d, err := r.doc(file, at, tf)
		if err != nil {
			return nil, "", "", err
		}
		t, ok := lookup(d, tp)
		if !ok {
			return nil, "", "", errAt(file, at, "broken $ref %q: %s has nothing at %s", s, tf, orRoot(tp))
		}
		v, file, at = t, tf, tp
	}
}

func orRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// Schema keywords whose values are data, not schemas: a "$ref" inside them
// is a value.
var dataKeywords = map[string]bool{"const": true, "enum": true, "examples": true, "default": true, "example": true}

// schema copies a schema found at (file, at) for the laid-out dialect:
// references into the main document's components.schemas stay references
// (into defs.json, through prefix: "../defs.json" from a message file, ""
// inside defs.json); every other reference is inlined, and one that leads
// back into itself outside components.schemas is refused.
func (r *resolver) schema(file, at string, v any, prefix string, stack []string) (any, error) {
	if len(stack) > maxRefHops {
		return nil, errAt(file, at, "$refs nested deeper than %d", maxRefHops)
	}
	switch x := v.(type) {
	case map[string]any:
		if ref, isRef := x["$ref"]; isRef {
			s, ok := ref.(string)
			if !ok {
				return nil, errAt(file, at+"/$ref", "$ref is not a string")
			}
			tf, tp, err := r.target(file, at, s)
			if err != nil {
				return nil, err
			}
			if tf == r.main && strings.HasPrefix(tp, "/components/schemas/") {
				d := r.docs[r.main]
				if _, ok := lookup(d, tp); !ok {
					return nil, errAt(file, at, "broken $ref %q: %s has nothing at %s", s, tf, tp)
				}
				return map[string]any{"$ref": prefix + "#/definitions/" + strings.TrimPrefix(tp, "/components/schemas/")}, nil
			}
			key := tf + "#" + tp
			for _, k := range stack {
				if k == key {
					return nil, errAt(file, at, "$ref %q refers back into itself outside components.schemas; move the schema there", s)
				}
			}
			t, ff, fa, err := r.follow(file, at, x)
			if err != nil {
				return nil, err
			}
			return r.schema(ff, fa, t, prefix, append(stack, key))
		}
		out := make(map[string]any, len(x))
		for k, val := range x {
			if dataKeywords[k] {
				out[k] = val
				continue
			}
			c, err := r.schema(file, at+"/"+escape(k), val, prefix, stack)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			c, err := r.schema(file, at+"/"+itoa(i), val, prefix, stack)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return v, nil
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
