package jsonx

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"unicode/utf8"
)

// Equal reports whether a and b have the same Canonical form, without
// building either: the replay rules compare every event with its first
// sighting, and rendering both to compare them was most of the engine's
// time (issue 26). It allocates nothing on values Decode built; a value of
// another Go type (a test's literal) is compared by its Canonical bytes.
func Equal(a, b any) bool {
	if !decoded(a) || !decoded(b) {
		return bytes.Equal(Canonical(a), Canonical(b))
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok {
				// Keys that are not UTF-8 may quote alike; the bytes decide.
				return bytes.Equal(Canonical(a), Canonical(b))
			}
			if !Equal(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case string:
		y, ok := b.(string)
		return ok && stringsEqual(x, y)
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		if plainInteger(string(x)) && plainInteger(string(y)) {
			return false
		}
		return canonicalNumber(x) == canonicalNumber(y)
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	}
	return b == nil // a is nil
}

// stringsEqual compares two strings as Canonical writes them: equal
// strings, or strings that are not UTF-8 and quote alike (their bad bytes
// become U+FFFD). A UTF-8 string never quotes like one that is not.
func stringsEqual(x, y string) bool {
	if x == y {
		return true
	}
	if utf8.ValidString(x) && utf8.ValidString(y) {
		return false
	}
	return bytes.Equal(appendString(nil, x), appendString(nil, y))
}

// decoded reports whether v is of a type Decode builds.
func decoded(v any) bool {
	switch v.(type) {
	case map[string]any, []any, string, json.Number, bool, nil:
		return true
	}
	return false
}

// hashSeed keys Hash for this process; hashes are never stored.
var hashSeed = maphash.MakeSeed()

// The tags of Hash keep a string from hashing like a number or a key.
const (
	tagObject uint64 = iota + 1
	tagArray
	tagString
	tagBadString
	tagNumber
	tagTrue
	tagFalse
	tagNull
)

// Hash is a 64-bit hash of v's Canonical form, consistent with Equal
// (Equal values hash alike), computed without building the form: members
// are hashed in any order and summed, so objects need no sorting. A rule
// that keys events by content confirms a match with Equal, so a collision
// costs a comparison, never a wrong finding.
func Hash(v any) uint64 {
	switch x := v.(type) {
	case map[string]any:
		var sum uint64
		for k, e := range x {
			sum += mix(hashString(k) ^ mix(Hash(e)+0x9e3779b97f4a7c15))
		}
		return mix(sum ^ tagObject<<56 ^ uint64(len(x)))
	case []any:
		h := tagArray << 56
		for _, e := range x {
			h = mix(h ^ Hash(e))
		}
		return mix(h ^ uint64(len(x)))
	case string:
		return hashString(x)
	case json.Number:
		if plainInteger(string(x)) {
			return mix(maphash.String(hashSeed, string(x)) ^ tagNumber<<56)
		}
		return mix(maphash.String(hashSeed, canonicalNumber(x)) ^ tagNumber<<56)
	case bool:
		if x {
			return mix(tagTrue << 56)
		}
		return mix(tagFalse << 56)
	case nil:
		return mix(tagNull << 56)
	}
	// Another Go type: hash the value Decode makes of its canonical form,
	// which Equal holds equal to it.
	c := Canonical(v)
	if d, _, err := Decode(c, 0); err == nil && decoded(d) {
		return Hash(d)
	}
	return mix(maphash.Bytes(hashSeed, c))
}

func hashString(s string) uint64 {
	if utf8.ValidString(s) {
		return mix(maphash.String(hashSeed, s) ^ tagString<<56)
	}
	return mix(maphash.Bytes(hashSeed, appendString(nil, s)) ^ tagBadString<<56)
}

// mix is the splitmix64 finaliser: it spreads every input bit over the
// output, so sums of member hashes do not cancel.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}
