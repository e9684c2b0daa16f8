package jsonx

import (
	"strconv"
	"strings"
)

// WithoutMembers returns doc with the null object members at the given
// pointers removed, and the set of pointers it removed. doc is not changed:
// the containers on each path are copied, the rest is shared. A pointer
// that does not name a null member of an object is left alone.
func WithoutMembers(doc map[string]any, pointers []string) (map[string]any, map[string]bool) {
	removed := map[string]bool{}
	out := doc
	for _, p := range pointers {
		if p == "" || p[0] != '/' {
			continue
		}
		toks := strings.Split(p[1:], "/")
		for i, t := range toks {
			toks[i] = unescapeToken(t)
		}
		if next, ok := without(out, toks); ok {
			out, removed[p] = next.(map[string]any), true
		}
	}
	return out, removed
}

// without removes the member at toks below v, copying each container on
// the way; ok is false when there is no such null member.
func without(v any, toks []string) (any, bool) {
	switch node := v.(type) {
	case map[string]any:
		child, present := node[toks[0]]
		if !present {
			return nil, false
		}
		cp := make(map[string]any, len(node))
		for k, x := range node {
			cp[k] = x
		}
		if len(toks) == 1 {
			if child != nil {
				return nil, false
			}
			delete(cp, toks[0])
			return cp, true
		}
		next, ok := without(child, toks[1:])
		if !ok {
			return nil, false
		}
		cp[toks[0]] = next
		return cp, true
	case []any:
		i, err := strconv.Atoi(toks[0])
		if err != nil || i < 0 || i >= len(node) || len(toks) == 1 {
			return nil, false
		}
		next, ok := without(node[i], toks[1:])
		if !ok {
			return nil, false
		}
		cp := append([]any(nil), node...)
		cp[i] = next
		return cp, true
	}
	return nil, false
}
