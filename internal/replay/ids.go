package replay

import (
	"bytes"
	"encoding/json"
	"maps"

	"github.com/wsconform/wsconform/internal/jsonx"
	"strconv"
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
	// back maps each new value to the recorded one it stands for: two
	// recorded ids that became one are a difference, not a renaming.
	back  map[string]string
	order map[string]json.Number
	// tokens maps the canonical JSON of a recorded token value
	// (Knowledge.Tokens) to the new server's value.
	tokens map[string]any
}

// LearnToken records that the recorded value of a token member is now
// new.
func (m *IDs) LearnToken(old, new any) {
	if m.tokens == nil {
		m.tokens = map[string]any{}
	}
	m.tokens[string(jsonx.Canonical(old))] = new
}

// Token returns the new value of a recorded token value.
func (m *IDs) Token(old any) (any, bool) {
	v, ok := m.tokens[string(jsonx.Canonical(old))]
	return v, ok
}

// NewIDs starts an empty map for a dialect.
func NewIDs(dialect string) *IDs {
	names := map[string]bool{}
	for _, n := range KnowledgeOf(dialect).IDs {
		names[n] = true
	}
	return &IDs{names: names, ids: map[string]string{}, back: map[string]string{}, order: map[string]json.Number{}}
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
// when old was already mapped to another value, or new already stands for
// another recorded id (an inconsistency either way).
func (m *IDs) Learn(old, new string) bool {
	if old == "" {
		return true
	}
	if have, ok := m.ids[old]; ok {
		return have == new
	}
	if was, ok := m.back[new]; ok && was != old {
		return false
	}
	if old == new {
		// Kept as is: remembered, so that a later sighting that maps old
		// elsewhere, or another id onto it, is caught.
		m.back[new] = old
		return true
	}
	m.ids[old] = new
	m.back[new] = old
	return true
}

// Lookup returns the new value of a recorded id that changed.
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

// OrderNear returns the new ordering value of a recorded one, or, when
// that value was never seen in an aligned answer (a cursor past the last
// event, or between two), the new value of the nearest recorded value
// below it shifted by the same distance. It reports false when nothing
// below it was learned.
func (m *IDs) OrderNear(old json.Number) (json.Number, bool) {
	if v, ok := m.Order(old); ok {
		return v, true
	}
	want, err := old.Int64()
	if err != nil {
		return "", false
	}
	var bestOld, bestNew int64
	found := false
	for k, v := range m.order {
		o, err1 := json.Number(k).Int64()
		n, err2 := v.Int64()
		if err1 != nil || err2 != nil || o > want || (found && o <= bestOld) {
			continue
		}
		bestOld, bestNew, found = o, n, true
	}
	if !found {
		return "", false
	}
	return json.Number(strconv.FormatInt(bestNew+(want-bestOld), 10)), true
}

// minEmbedded is the shortest learned id Rewrite looks for inside a
// text: shorter ones ("1", "a") would match by chance.
const minEmbedded = 6

// Rewrite replaces, in a recorded text, every learned id it contains
// (one at least minEmbedded long) with its new value: a path or message
// that quotes a session id reads as the new server would write it.
func (m *IDs) Rewrite(s string) string {
	if v, ok := m.ids[s]; ok {
		return v
	}
	if len(m.ids) == 0 || len(s) < minEmbedded {
		return s
	}
	var pairs []string
	for old, new := range m.ids {
		if len(old) >= minEmbedded && strings.Contains(s, old) {
			pairs = append(pairs, old, new)
		}
	}
	if len(pairs) == 0 {
		return s
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// Len is how many ids were learned.
func (m *IDs) Len() int { return len(m.ids) }

// Clone is a copy to try a comparison on without learning from it.
func (m *IDs) Clone() *IDs {
	c := &IDs{names: m.names, ids: maps.Clone(m.ids), back: maps.Clone(m.back), order: maps.Clone(m.order), tokens: maps.Clone(m.tokens)}
	return c
}

// Quoted replaces every learned id that stands as a whole JSON string
// in payload with its new value, and keeps the other bytes as they are:
// serve --replay puts the ids the client minted into the recorded server
// frames that echo them.
func (m *IDs) Quoted(payload []byte) []byte {
	for old, new := range m.ids {
		o, _ := json.Marshal(old)
		if !bytes.Contains(payload, o) {
			continue
		}
		n, _ := json.Marshal(new)
		payload = bytes.ReplaceAll(payload, o, n)
	}
	return payload
}
