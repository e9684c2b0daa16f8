package replay

import (
	"encoding/json"
	"strings"
)

// IDs maps the values a recorded server minted to the values the new
// server minted in their place, learned by comparing aligned messages; a
// replay substitutes them in later client frames, and a diff accepts a
// different id that is used consistently. Ordering values (event_id, seq)
// are mapped separately, for the client's cursors.
type IDs struct {
	names map[string]bool
	ids   map[string]string
	order map[string]json.Number
}

// NewIDs starts an empty map for a dialect.
func NewIDs(dialect string) *IDs {
	names := map[string]bool{}
	for _, n := range KnowledgeOf(dialect).IDs {
		names[n] = true
	}
	return &IDs{names: names, ids: map[string]string{}, order: map[string]json.Number{}}
}

// IsID reports whether a member name holds an id: a dialect's id member,
// or a name ending in "id", "Id" or "ID".
func (m *IDs) IsID(name string) bool {
	if m.names[name] {
		return true
	}
	return strings.HasSuffix(name, "_id") || strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID") || name == "id"
}

// Learn records that the recorded id old is now new. It reports false
// when old was already mapped to another value (an inconsistency).
func (m *IDs) Learn(old, new string) bool {
	if old == new || old == "" {
		return true
	}
	if have, ok := m.ids[old]; ok {
		return have == new
	}
	m.ids[old] = new
	return true
}

// Lookup returns the new value of a recorded id.
func (m *IDs) Lookup(old string) (string, bool) {
	v, ok := m.ids[old]
	return v, ok
}

// LearnOrder records that the recorded ordering value old (an event_id, a
// seq) is now new.
func (m *IDs) LearnOrder(old, new json.Number) {
	if old != "" {
		m.order[old.String()] = new
	}
}

// Order returns the new ordering value of a recorded one.
func (m *IDs) Order(old json.Number) (json.Number, bool) {
	v, ok := m.order[old.String()]
	return v, ok
}

// Len is how many ids were learned.
func (m *IDs) Len() int { return len(m.ids) }
