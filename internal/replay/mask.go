package replay

import (
	"fmt"
	"strings"
)

// Mask selects members of a message. Its text form (--ignore) is one of
//
//	/data/ts           a JSON pointer from the message's root
//	/data/*/ts         "*" matches any one member name or array index
//	ts                 a member of that name at any depth
//	run_status:/ts     any of the above, only in messages of that type
type Mask struct {
	typ  string
	segs []string // pointer segments; nil with name set for "any depth"
	name string
	text string
}

// ParseMask reads a mask; see Mask.
func ParseMask(s string) (Mask, error) {
	m := Mask{text: s}
	if i := strings.Index(s, ":/"); i > 0 {
		m.typ, s = s[:i], s[i+1:]
	} else if i := strings.LastIndex(s, ":"); i > 0 && !strings.HasPrefix(s, "/") {
		m.typ, s = s[:i], s[i+1:]
	}
	switch {
	case s == "" || s == "/":
		return Mask{}, fmt.Errorf("mask %q selects nothing: give a JSON pointer (/data/ts) or a member name (ts)", m.text)
	case strings.HasPrefix(s, "/"):
		for _, seg := range strings.Split(s[1:], "/") {
			m.segs = append(m.segs, strings.NewReplacer("~1", "/", "~0", "~").Replace(seg))
		}
	case strings.Contains(s, "/"):
		return Mask{}, fmt.Errorf("mask %q: a pointer starts with /", m.text)
	default:
		m.name = s
	}
	return m, nil
}

// String is the mask as it was given.
func (m Mask) String() string { return m.text }

// matches reports whether the member at path (segments from the root) of
// a message of type typ is selected.
func (m Mask) matches(typ string, path []string) bool {
	if m.typ != "" && m.typ != typ {
		return false
	}
	if m.name != "" {
		return len(path) > 0 && path[len(path)-1] == m.name
	}
	if len(path) < len(m.segs) {
		return false
	}
	for i, s := range m.segs { // a mask selects the member and all below it
		if s != "*" && s != path[i] {
			return false
		}
	}
	return true
}

// selects reports whether the member at path is exactly the one the mask
// names (not a member below it): what --set replaces.
func (m Mask) selects(typ string, path []string) bool {
	if m.name == "" && len(path) != len(m.segs) {
		return false
	}
	return m.matches(typ, path)
}

// Set is a value the user gives for members of the client's frames
// (--set MASK=VALUE), in place of the recorded one: most often a
// credential the recording redacted.
type Set struct {
	Mask  Mask
	Value string
}

// ParseSet reads MASK=VALUE (see Mask; the mask ends at the first "=").
func ParseSet(s string) (Set, error) {
	mask, value, ok := strings.Cut(s, "=")
	if !ok {
		return Set{}, fmt.Errorf("set %q: want MASK=VALUE, e.g. apiKey=sk-… or auth:/data/token=…", s)
	}
	m, err := ParseMask(mask)
	if err != nil {
		return Set{}, fmt.Errorf("set %q: %w", s, err)
	}
	return Set{Mask: m, Value: value}, nil
}

// Masks is a set of masks.
type Masks []Mask

// ParseMasks reads several masks.
func ParseMasks(ss []string) (Masks, error) {
	var ms Masks
	for _, s := range ss {
		m, err := ParseMask(s)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// Match reports whether any mask selects the member.
func (ms Masks) Match(typ string, path []string) bool {
	for _, m := range ms {
		if m.matches(typ, path) {
			return true
		}
	}
	return false
}

// Strings lists the masks as given.
func (ms Masks) Strings() []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.text
	}
	return out
}

// VolatileMasks are the dialect's volatile members plus the user's
// (--ignore).
func VolatileMasks(dialect string, user []string) (Masks, error) {
	k := KnowledgeOf(dialect)
	ms, err := ParseMasks(k.Volatile)
	if err != nil {
		return nil, fmt.Errorf("dialect %s: %w", dialect, err)
	}
	us, err := ParseMasks(user)
	if err != nil {
		return nil, err
	}
	return append(ms, us...), nil
}
