package fastschema

import (
	"encoding/json"
	"math"
	"unicode/utf8"
)

// gojsonschema compares const, enum and uniqueItems by rendering both
// sides with json.Marshal, decoding that into an any (numbers become
// float64) and rendering again. Two values are equal when the renderings
// are. For values whose strings are valid UTF-8 and whose numbers fit a
// float64 that is structural equality with numbers compared as float64
// bits (json.Marshal writes each float64, -0 included, its own way), which
// is what equalValues computes. Anything else is left to gojsonschema.

// canonOf compiles a schema's const or enum value: numbers become the
// float64 encoding/json would read, strings must be valid UTF-8.
func canonOf(v any) (any, bool) {
	switch x := v.(type) {
	case nil, bool:
		return x, true
	case string:
		return x, utf8.ValidString(x)
	case json.Number:
		f, ok := floatOf(string(x))
		return f, ok
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, ok := canonOf(e)
			if !ok {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, ok := canonOf(e)
			if !ok || !utf8.ValidString(k) {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	}
	return nil, false
}

// marshalSafe checks that gojsonschema can render v: every number fits a
// float64 (otherwise it panics: poison) and every string and key is valid
// UTF-8 (otherwise json.Marshal rewrites it and equality is not
// structural: unknown).
func marshalSafe(v any, st *state) result {
	switch x := v.(type) {
	case nil, bool:
		return valid
	case string:
		if !utf8.ValidString(x) {
			return unknown
		}
		return valid
	case json.Number:
		if _, ok := floatOf(string(x)); !ok {
			st.poisoned = true
			return unknown
		}
		return valid
	case []any:
		r := valid
		for _, e := range x {
			if marshalSafe(e, st) != valid {
				r = unknown
			}
		}
		return r
	case map[string]any:
		r := valid
		for k, e := range x {
			if !utf8.ValidString(k) || marshalSafe(e, st) != valid {
				r = unknown
			}
		}
		return r
	}
	st.poisoned = true
	return unknown
}

// equalCanon compares an instance value, already found marshalSafe, with a
// compiled const value.
func equalCanon(v, c any) bool {
	switch x := v.(type) {
	case nil:
		return c == nil
	case bool:
		y, ok := c.(bool)
		return ok && x == y
	case string:
		y, ok := c.(string)
		return ok && x == y
	case json.Number:
		y, ok := c.(float64)
		if !ok {
			return false
		}
		f, _ := floatOf(string(x))
		return math.Float64bits(f) == math.Float64bits(y)
	case []any:
		y, ok := c.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalCanon(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := c.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			ce, ok := y[k]
			if !ok || !equalCanon(e, ce) {
				return false
			}
		}
		return true
	}
	return false
}

// equalValues compares two instance values, both already marshalSafe.
func equalValues(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, _ := floatOf(string(x))
		fy, _ := floatOf(string(y))
		return math.Float64bits(fx) == math.Float64bits(fy)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !equalValues(e, f) {
				return false
			}
		}
		return true
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	}
	return false
}
