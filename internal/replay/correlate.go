package replay

import (
	"slices"
	"sort"
	"strings"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// correlator keys a server message by its type and the correlation
// values it quotes: the ids the client minted and the server echoes to
// say which request it answers (minicodex req_id, mitto request_id,
// coworker clientMessageId). A replay waits for, and pairs, answers by
// this key, so the ack of one request is never taken for the ack of
// another that came first. The values are those of the recording: the
// replay sends the client's own ids unchanged, so a new server that
// answers the same request quotes the same value.
//
// A correlator is read-only once built; the readers of the live
// connections share it.
type correlator struct {
	d      *dialect.Dialect
	isID   func(name string) bool
	minted map[string]bool // id values a client sent before any server did
}

// keySep separates a key's type from its correlation pairs, and the
// pairs from each other: a NUL, which no real message type or id holds.
const keySep = "\x00"

// newCorrelator collects the id values the recorded clients minted: the
// string values of id members in client frames that no server frame had
// carried before.
func newCorrelator(p *Plan, d *dialect.Dialect, ids *IDs) *correlator {
	c := &correlator{d: d, isID: ids.IsID, minted: map[string]bool{}}
	fromServer := map[string]bool{}
	for _, ev := range p.Events {
		if ev.Kind != EvFrame {
			continue
		}
		f := ev.FrameOf()
		if f.Op != wire.OpText {
			continue
		}
		doc, _, err := jsonx.Decode(f.Payload, jsonx.DefaultMaxDepth)
		if err != nil {
			continue
		}
		c.idValues(doc, func(_, v string) {
			switch {
			case f.Dir == wire.ServerToClient:
				fromServer[v] = true
			case !fromServer[v]:
				c.minted[v] = true
			}
		})
	}
	return c
}

// classify returns a data frame's type ("" when it names none) and its
// key: the type, then the sorted name=value pairs of the client-minted
// ids it quotes.
func (c *correlator) classify(f wire.Frame) (typ, key string) {
	if f.Op != wire.OpText || c.d == nil {
		return "", ""
	}
	doc, _, err := jsonx.Decode(f.Payload, jsonx.DefaultMaxDepth)
	if err != nil {
		return "", ""
	}
	v, _ := jsonx.Field(doc, c.d.TypeField)
	typ, _ = v.(string)
	if len(c.minted) == 0 {
		return typ, typ
	}
	var pairs []string
	c.idValues(doc, func(name, v string) {
		if c.minted[v] {
			pairs = append(pairs, name+"="+v)
		}
	})
	if len(pairs) == 0 {
		return typ, typ
	}
	sort.Strings(pairs)
	pairs = slices.Compact(pairs)
	return typ, typ + keySep + strings.Join(pairs, keySep)
}

// idValues calls fn with every non-empty string member of doc, at any
// depth, whose name is an id's.
func (c *correlator) idValues(doc any, fn func(name, value string)) {
	switch x := doc.(type) {
	case map[string]any:
		for k, v := range x {
			if s, ok := v.(string); ok {
				if s != "" && c.isID(k) {
					fn(k, s)
				}
				continue
			}
			c.idValues(v, fn)
		}
	case []any:
		for _, e := range x {
			c.idValues(e, fn)
		}
	}
}

// describeKey renders a key for a note: `ack (req_id r5)`.
func describeKey(key string) string {
	typ, rest, ok := strings.Cut(key, keySep)
	if typ == "" {
		typ = "(untyped)"
	}
	if !ok {
		return typ
	}
	pairs := strings.Split(rest, keySep)
	for i, p := range pairs {
		pairs[i] = strings.Replace(p, "=", " ", 1)
	}
	return typ + " (" + strings.Join(pairs, ", ") + ")"
}
