package jsonx

import "fmt"

// Members decodes the JSON object that fills data (surrounding whitespace
// allowed) and calls fn for each member in order with its key, its
// decoded value and the raw bytes of the value. It returns the issues
// seen (duplicate keys included) and an error when data is not one
// acceptable JSON object or fn returns one.
//
// It lets a reader of a known record (a recording line) fill its fields
// from decoded values without building a map of the whole object, and
// hand a member that needs its raw text (a time, an exact integer) to its
// own parser.
func Members(data []byte, fn func(key string, value any, raw []byte) error) ([]Issue, error) {
	return members(data, nil, fn)
}

// MembersLazy is Members that does not build the string values of the
// members lazy names: their value is nil and raw holds the string literal,
// checked to be one that decodes without an issue (a string that would not
// is decoded as by Members). A reader that needs a long member only now
// and then (a recording's frame text, in validate's first pass) skips
// copying it.
func MembersLazy(data []byte, lazy func(key string) bool, fn func(key string, value any, raw []byte) error) ([]Issue, error) {
	return members(data, lazy, fn)
}

func members(data []byte, lazy func(key string) bool, fn func(key string, value any, raw []byte) error) ([]Issue, error) {
	d := decoder{data: data, maxDepth: DefaultMaxDepth, cache: internPool.Get().(*internCache)}
	defer internPool.Put(d.cache)
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return nil, d.syntax("expected a JSON object")
	}
	d.pos++
	d.path = append(d.path, pathElem{})
	var keys [16]string
	seen := keySet{few: keys[:0]}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return d.end()
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return d.issues, d.syntax("expected a string object key")
		}
		key, err := d.str()
		if err != nil {
			return d.issues, err
		}
		d.path[0] = pathElem{key: key}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return d.issues, d.syntax("expected ':' after object key")
		}
		d.pos++
		d.skipSpace()
		start := d.pos
		var v any
		if lazy == nil || !d.skipStr(lazy, key) {
			if v, err = d.value(); err != nil {
				return d.issues, err
			}
		}
		if seen.add(key) {
			d.issue(DuplicateKey, fmt.Sprintf("key %q appears more than once; the last value was kept", key))
		}
		if err := fn(key, v, d.data[start:d.pos]); err != nil {
			return d.issues, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return d.issues, d.syntax("unexpected end of input in object")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return d.end()
		default:
			return d.issues, d.syntax("expected ',' or '}' in object")
		}
	}
}

// end checks that nothing but whitespace follows the top-level value.
func (d *decoder) end() ([]Issue, error) {
	d.skipSpace()
	if d.pos < len(d.data) {
		return d.issues, d.syntax("unexpected data after the top-level value")
	}
	return d.issues, nil
}

// keySet remembers the keys of one object: a slice while they are few (a
// recording line has about ten, and a map per line was a fifth of the
// reader's time), a map past that, so a line of many keys stays linear.
type keySet struct {
	few  []string
	many map[string]bool
}

// add records key and reports whether it was there already.
func (s *keySet) add(key string) bool {
	if s.many != nil {
		dup := s.many[key]
		s.many[key] = true
		return dup
	}
	for _, k := range s.few {
		if k == key {
			return true
		}
	}
	if len(s.few) < 32 {
		s.few = append(s.few, key)
		return false
	}
	s.many = make(map[string]bool, 64)
	for _, k := range s.few {
		s.many[k] = true
	}
	s.many[key] = true
	return false
}
