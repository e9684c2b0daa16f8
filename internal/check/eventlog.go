package check

import (
	"bytes"
	"maps"
	"math"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// eventLog remembers the events of a session by id (an event_id, a seq, a
// run_id+seq) so that a later delivery of the same id, a fan-out copy or a
// replay, can be compared with the original. It keeps the newest window
// events; memory is bounded by the window, not by the session's length.
//
// It keeps no decoded document: a window of 10,000 decoded events was most
// of a relaying proxy's live heap (17 of 27 MB with minicodex), and the
// collector marked every node of it on every cycle (issue 26). An entry
// holds the frame's payload and where the compared part is in it; the
// log's recipe makes the compared view again, from the payload decoded
// anew, only when a later sighting's bytes differ.
type eventLog[K comparable] struct {
	byKey *recent[K, logged]
	by    recipe
	last  decoded
}

// decoded is the document of the payload the log decoded last: the items
// of one events_loaded or system.notice list share their payload, and are
// compared one after another.
type decoded struct {
	payload []byte
	doc     any
}

// logged is the first sighting of an id: how to make its compared view
// again, and where it was seen.
type logged struct {
	src   source
	frame int64
	conn  string
}

// recipe makes a compared view from part, the value at the view's place in
// the frame's document (nil for a view made of typ alone), and typ, the
// message's type. It must depend on its arguments alone: the log calls it
// again, on the payload decoded anew.
type recipe func(part any, typ string) any

// source is where a view's part is: at pointer at (then at item idx of
// that array when idx >= 0) in the document payload holds, with typ the
// message's type. payload is the frame's own, not a copy:
// Session.Observe's callers hand over frames they no longer change (the
// proxy's reader makes a new slice per message, recordings one per line),
// and a byte slice is one object the collector does not scan.
type source struct {
	payload []byte
	at      string
	idx     int
	typ     string
}

// view is what a rule compares of an event: part, the value at src in
// its frame, made into the view by the log's recipe when a comparison
// needs it.
type view struct {
	src  source
	part any
}

// viewAt is the view of part, found at pointer at (then item idx, when
// idx >= 0) in m's document; typ is what the recipe gets as the type.
func viewAt(m *message, at string, idx int, part any, typ string) view {
	return view{src: source{payload: m.Frame.Payload, at: at, idx: idx, typ: typ}, part: part}
}

// typeView is the view of a type alone (a log whose recipe is typeOnly).
func typeView(typ string) view { return view{src: source{idx: -1, typ: typ}} }

func typeOnly(_ any, typ string) any { return map[string]any{"type": typ} }

// whole is the recipe of a view that is the part itself.
func whole(part any, _ string) any { return part }

// sighting is the original of a later sighting, as compare returns it:
// where it was seen, and when the two differ, both views.
type sighting struct {
	frame    int64
	conn     string
	was, now any
}

// rebuildCheck, when set (by the package's tests), sees every view a log
// records with its recipe, to hold the source to making it again.
var rebuildCheck func(src source, part any, by recipe, again func(source) any)

func newEventLog[K comparable](window int, by recipe) *eventLog[K] {
	return &eventLog[K]{byKey: newRecent[K, logged](window), by: by}
}

// compare records v under key on first sight and returns (nil, false). On
// a later sight it returns the original and whether v differs from it.
func (l *eventLog[K]) compare(key K, m *message, v view) (orig *sighting, differs bool) {
	o, ok := l.byKey.get(key)
	if !ok {
		if rebuildCheck != nil {
			rebuildCheck(v.src, v.part, l.by, l.again)
		}
		l.byKey.put(key, logged{src: v.src, frame: m.Frame.Index, conn: m.Frame.Conn})
		return nil, false
	}
	s := &sighting{frame: o.frame, conn: o.conn}
	if same(o.src, v.src) {
		return s, false
	}
	s.was, s.now = l.again(o.src), l.by(v.part, v.src.typ)
	if jsonx.Equal(s.was, s.now) {
		s.was, s.now = nil, nil
		return s, false
	}
	return s, true
}

// same reports whether two sources hold the same part of the same bytes
// (or no bytes and one type): the same view whatever the recipe, without
// decoding either. Re-deliveries that change nothing compare so.
func same(a, b source) bool {
	return a.at == b.at && a.idx == b.idx && a.typ == b.typ && bytes.Equal(a.payload, b.payload)
}

// differs reports whether v differs from the original o (numbersOwn).
func (l *eventLog[K]) differs(o logged, v view) bool {
	return !same(o.src, v.src) && !jsonx.Equal(l.again(o.src), l.by(v.part, v.src.typ))
}

// again makes the view of src again. A payload that decoded once decodes
// again (the depth limit is lifted: the session's own let it through); if
// it did not, the view is nil.
func (l *eventLog[K]) again(src source) any {
	return l.by(l.part(src), src.typ)
}

// remake is again for a view outside a log: the payload decoded anew.
func remake(by recipe) func(source) any {
	return func(src source) any { return by(partOf(src), src.typ) }
}

// partOf finds src's part in its payload decoded anew.
func partOf(src source) any {
	if src.payload == nil {
		return nil
	}
	doc, _, err := jsonx.Decode(src.payload, math.MaxInt32)
	if err != nil {
		return nil
	}
	return partAt(doc, src)
}

func (l *eventLog[K]) part(src source) any {
	if src.payload == nil {
		return nil
	}
	if !l.last.is(src.payload) {
		doc, _, err := jsonx.Decode(src.payload, math.MaxInt32)
		if err != nil {
			doc = nil
		}
		l.last = decoded{payload: src.payload, doc: doc}
	}
	return partAt(l.last.doc, src)
}

// is reports whether p is the very slice d decoded (not equal bytes: the
// same array and length).
func (d decoded) is(p []byte) bool {
	return len(p) > 0 && len(d.payload) == len(p) && &d.payload[0] == &p[0]
}

// partAt finds src's part in doc, its payload's document.
func partAt(doc any, src source) any {
	part, _ := jsonx.Get(doc, src.at)
	if src.idx >= 0 {
		list, _ := part.([]any)
		if src.idx >= len(list) {
			return nil
		}
		part = list[src.idx]
	}
	return part
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
