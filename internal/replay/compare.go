package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/wsconform/wsconform/internal/redact"
)

// MemberDiff is one member that differs between a recorded message and its
// replayed counterpart, each side as JSON text. Recorded or Replayed is ""
// when the member is absent on that side; a member present with the value
// null is "null", so the two stay apart.
type MemberDiff struct {
	Pointer  string `json:"pointer"`
	Recorded string `json:"recorded,omitempty"`
	Replayed string `json:"replayed,omitempty"`
}

// Decode parses a JSON message payload, keeping numbers as written.
func Decode(payload []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decode message: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("decode message: data after the JSON value")
	}
	return v, nil
}

// Compare compares a recorded message with the one that took its place,
// both decoded, and returns the members that differ, outside masks. Id
// members (ids.IsID) may differ when the difference is consistent: the
// first sighting of a recorded id learns its new value, later sightings
// must agree with it. typ is the message type (for typed masks).
func Compare(typ string, recorded, replayed any, masks Masks, ids *IDs) []MemberDiff {
	c := comparer{typ: typ, masks: masks, ids: ids, learnOnly: true}
	if ids != nil {
		// First learn every id of the pair, then compare: a text that
		// quotes an id may come before the id's own member.
		c.walk(nil, recorded, replayed)
	}
	c.learnOnly = false
	c.walk(nil, recorded, replayed)
	return c.diffs
}

type comparer struct {
	typ   string
	masks Masks
	ids   *IDs
	diffs []MemberDiff
	// learnOnly makes a walk learn ids and report nothing.
	learnOnly bool
}

func (c *comparer) walk(path []string, a, b any) {
	if len(path) > 0 && c.masks.Match(c.typ, path) {
		return
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			c.add(path, a, b)
			return
		}
		for _, k := range unionKeys(av, bv) {
			x, inA := av[k]
			y, inB := bv[k]
			p := append(path[:len(path):len(path)], k)
			switch {
			case inA && inB:
				c.walk(p, x, y)
			case c.masks.Match(c.typ, p):
			case inA:
				c.add(p, x, absent{})
			default:
				c.add(p, absent{}, y)
			}
		}
	case []any:
		bv, ok := b.([]any)
		if !ok {
			c.add(path, a, b)
			return
		}
		for i := 0; i < max(len(av), len(bv)); i++ {
			p := append(path[:len(path):len(path)], strconv.Itoa(i))
			switch {
			case i < len(av) && i < len(bv):
				c.walk(p, av[i], bv[i])
			case i < len(av):
				c.add(p, av[i], absent{})
			default:
				c.add(p, absent{}, bv[i])
			}
		}
	case string:
		bs, ok := b.(string)
		switch {
		case ok && (redact.IsMarker(av) || redact.HasMarker(av) && redact.MatchRedacted(av, bs)):
			// The recorder redacted a credential: its value is unknown,
			// any string stands in for it (for each Marker in a text).
		case ok && c.ids != nil && len(path) > 0 && c.ids.IsID(path[len(path)-1]):
			if !c.ids.Learn(av, bs) {
				c.add(path, a, b)
			}
		case !ok:
			c.add(path, a, b)
		case av != bs && (c.ids == nil || c.ids.Rewrite(av) != bs):
			// A learned id inside a text (a path that names the session)
			// is not a difference either.
			c.add(path, a, b)
		}
	default:
		if !equalScalar(a, b) {
			c.add(path, a, b)
		}
	}
}

func (c *comparer) add(path []string, a, b any) {
	if c.learnOnly {
		return
	}
	c.diffs = append(c.diffs, MemberDiff{Pointer: Pointer(path), Recorded: show(a), Replayed: show(b)})
}

func equalScalar(a, b any) bool {
	an, aok := a.(json.Number)
	bn, bok := b.(json.Number)
	if aok && bok {
		af, err1 := an.Float64()
		bf, err2 := bn.Float64()
		return an == bn || (err1 == nil && err2 == nil && af == bf)
	}
	return a == b
}

func unionKeys(a, b map[string]any) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// absent stands for a member one side lacks, apart from a JSON null
// (nil), which is a value.
type absent struct{}

// show renders a value for a diff: "" for an absent member, "null" for a
// JSON null.
func show(v any) string {
	if _, ok := v.(absent); ok {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Pointer renders path segments as a JSON pointer.
func Pointer(path []string) string {
	if len(path) == 0 {
		return ""
	}
	r := strings.NewReplacer("~", "~0", "/", "~1")
	var sb strings.Builder
	for _, s := range path {
		sb.WriteByte('/')
		sb.WriteString(r.Replace(s))
	}
	return sb.String()
}
