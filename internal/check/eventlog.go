package check

import (
	"maps"
	"math"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// eventLog remembers the events of a session by id (an event_id, a seq, a
// run_id+seq) so that a later delivery of the same id, a fan-out copy or a
// replay, can be compared with the original. It keeps the newest window
// events; memory is bounded by the window, not by the session's length.
type eventLog[K comparable] struct {
	byKey *recent[K, logged]
}

// logged is the first sighting of an id: the hash of its compared view,
// how to make that view again, and where it was seen. It holds no decoded
// document: a window of 10,000 decoded events was most of a relaying
// proxy's live heap (17 of 27 MB with minicodex), and the collector marked
// every node of it on every cycle (issue 26). The view is made again from
// the frame's payload only when a finding shows a diff.
type logged struct {
	hash  uint64
	src   source
	frame int64
	conn  string
}

// recipe makes a compared view from part, the value at the view's place in
// the frame's document (nil for a view made of typ alone), and typ, the
// message's type. It must depend on its arguments alone: the log calls it
// again, on the payload decoded anew, to show a diff.
type recipe func(part any, typ string) any

// source is how a view was made: the recipe applied to the value at at
// (then at item idx of that array when idx >= 0) in the document payload
// holds. payload is the frame's own, not a copy: Session.Observe's callers
// hand over frames they no longer change, and a payload has no pointers
// for the collector to follow.
type source struct {
	payload []byte
	at      string
	idx     int
	typ     string
	by      recipe
}

// view is what a rule compares of an event (the whole message, the message
// less the members that legitimately change, a member of it), with its
// jsonx.Hash and its source.
type view struct {
	doc  any
	hash uint64
	src  source
}

// viewAt makes the view of part, found at pointer at (then item idx, when
// idx >= 0) in m's document, with r.
func viewAt(m *message, at string, idx int, part any, typ string, r recipe) view {
	doc := r(part, typ)
	v := view{doc: doc, hash: jsonx.Hash(doc), src: source{payload: m.Frame.Payload, at: at, idx: idx, typ: typ, by: r}}
	if rebuildCheck != nil {
		rebuildCheck(v)
	}
	return v
}

// typeView is the view {type: typ}, made again from typ alone.
func typeView(typ string) view {
	doc := typeOnly(nil, typ)
	return view{doc: doc, hash: jsonx.Hash(doc), src: source{idx: -1, typ: typ, by: typeOnly}}
}

func typeOnly(_ any, typ string) any { return map[string]any{"type": typ} }

// whole is the recipe of a view that is the part itself.
func whole(part any, _ string) any { return part }

// rebuildCheck, when set (by the package's tests), sees every view made,
// to hold the source to making the same view again.
var rebuildCheck func(view)

// rebuild makes the view again. It returns nil if the payload no longer
// decodes, which cannot happen to a payload that decoded once (the depth
// limit is lifted: the session's own limit let it through).
func (s source) rebuild() any {
	var part any
	if s.payload != nil {
		doc, _, err := jsonx.Decode(s.payload, math.MaxInt32)
		if err != nil {
			return nil
		}
		part, _ = jsonx.Get(doc, s.at)
		if s.idx >= 0 {
			list, _ := part.([]any)
			if s.idx >= len(list) {
				return nil
			}
			part = list[s.idx]
		}
	}
	return s.by(part, s.typ)
}

// view is the original's compared view, made again.
func (o *logged) view() any { return o.src.rebuild() }

func newEventLog[K comparable](window int) *eventLog[K] {
	return &eventLog[K]{byKey: newRecent[K, logged](window)}
}

// compare records v (what a dialect compares of the event) under key on
// first sight and returns (nil, false). On a later sight it returns the
// original and whether v differs from it. Views are told apart by their
// 64-bit jsonx.Hash, which Equal views share: equal hashes are taken for
// equal views, so a collision (about 2^-64 per comparison) would hide a
// mismatch, never invent one.
func (l *eventLog[K]) compare(key K, m *message, v view) (orig *logged, differs bool) {
	if o, ok := l.byKey.get(key); ok {
		return &o, o.hash != v.hash
	}
	l.byKey.put(key, logged{hash: v.hash, src: v.src, frame: m.Frame.Index, conn: m.Frame.Conn})
	return nil, false
}

// has reports whether an id is remembered.
func (l *eventLog[K]) has(key K) bool {
	_, ok := l.byKey.get(key)
	return ok
}

// without returns doc minus the members at the given pointers, copying
// only the objects on the way so the original stays intact. The top-level
// object is copied once for all the pointers, not once per member removed
// (two to five copies per myagent event before issue 26).
func without(doc any, ptrs []string) any {
	obj, ok := doc.(map[string]any)
	if !ok {
		return doc
	}
	var cp map[string]any
	for _, p := range ptrs {
		head, rest, ok := pointerHead(p)
		if !ok {
			continue
		}
		src := obj
		if cp != nil {
			src = cp
		}
		child, present := src[head]
		if !present {
			continue
		}
		if cp == nil {
			cp = maps.Clone(obj)
		}
		if rest == "" {
			delete(cp, head)
		} else {
			cp[head] = removeAt(child, rest)
		}
	}
	if cp == nil {
		return doc
	}
	return cp
}

// pointerHead splits "/a/b/c" into "a" and "/b/c"; ok is false for a
// pointer removeAt does not follow.
func pointerHead(ptr string) (head, rest string, ok bool) {
	if len(ptr) < 2 || ptr[0] != '/' {
		return "", "", false
	}
	head = ptr[1:]
	for i := 0; i < len(head); i++ {
		if head[i] == '/' {
			return head[:i], head[i:], true
		}
	}
	return head, "", true
}

func removeAt(doc any, ptr string) any {
	obj, ok := doc.(map[string]any)
	head, rest, follow := pointerHead(ptr)
	if !ok || !follow {
		return doc
	}
	child, present := obj[head]
	if !present {
		return doc
	}
	cp := maps.Clone(obj)
	if rest == "" {
		delete(cp, head)
	} else {
		cp[head] = removeAt(child, rest)
	}
	return cp
}
