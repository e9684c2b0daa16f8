package check

import (
	"maps"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// eventLog remembers the events of a session by id (an event_id, a seq, a
// run_id+seq) so that a later delivery of the same id, a fan-out copy or a
// replay, can be compared with the original. It keeps the newest window
// events; memory is bounded by the window, not by the session's length.
type eventLog[K comparable] struct {
	byKey *recent[K, logged]
}

// logged is the first sighting of an id: the compared view of the event
// and where it was seen. The view is compared with jsonx.Equal, which
// agrees with comparing canonical forms without rendering them; a diff is
// made from the view only when a finding needs one.
type logged struct {
	doc   any
	frame int64
	conn  string
}

func newEventLog[K comparable](window int) *eventLog[K] {
	return &eventLog[K]{byKey: newRecent[K, logged](window)}
}

// compare records view (what a dialect compares of the event: the whole
// message, or the message less the members that legitimately change) under
// key on first sight and returns (nil, false). On a later sight it returns
// the original and whether the view differs from it.
func (l *eventLog[K]) compare(key K, m *message, view any) (orig *logged, differs bool) {
	if o, ok := l.byKey.get(key); ok {
		return &o, !jsonx.Equal(o.doc, view)
	}
	l.byKey.put(key, logged{doc: view, frame: m.Frame.Index, conn: m.Frame.Conn})
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
