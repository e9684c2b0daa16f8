package check

import (
	"bytes"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// eventLog remembers the events of a session by id (an event_id, a seq, a
// run_id+seq) so that a later delivery of the same id, a fan-out copy or a
// replay, can be compared with the original. It keeps the newest window
// events; memory is bounded by the window, not by the session's length.
type eventLog struct {
	window int
	byKey  map[string]logged
	ring   []string // insertion order, for eviction
	next   int
}

type logged struct {
	doc   any
	canon []byte
	frame int64
	conn  string
}

func newEventLog(window int) *eventLog {
	return &eventLog{window: window, byKey: map[string]logged{}}
}

// compare records doc under key on first sight and returns (nil, false). On
// a later sight it returns the original and whether it differs, ignoring
// the members named by ignore (top-level or nested pointers).
func (l *eventLog) compare(key string, m *message, doc any, ignore ...string) (orig *logged, differs bool) {
	canon := jsonx.Canonical(without(doc, ignore))
	if o, ok := l.byKey[key]; ok {
		return &o, !bytes.Equal(o.canon, canon)
	}
	l.add(key, logged{doc: doc, canon: canon, frame: m.Frame.Index, conn: m.Frame.Conn})
	return nil, false
}

// has reports whether an id is remembered.
func (l *eventLog) has(key string) bool {
	_, ok := l.byKey[key]
	return ok
}

func (l *eventLog) add(key string, e logged) {
	if len(l.ring) < l.window {
		l.ring = append(l.ring, key)
	} else {
		delete(l.byKey, l.ring[l.next])
		l.ring[l.next] = key
		l.next = (l.next + 1) % l.window
	}
	l.byKey[key] = e
}

// without returns doc minus the members at the given pointers, copying
// only the objects on the way so the original stays intact.
func without(doc any, ptrs []string) any {
	for _, p := range ptrs {
		doc = removeAt(doc, p)
	}
	return doc
}

func removeAt(doc any, ptr string) any {
	obj, ok := doc.(map[string]any)
	if !ok || len(ptr) < 2 || ptr[0] != '/' {
		return doc
	}
	head, rest := ptr[1:], ""
	for i := 0; i < len(head); i++ {
		if head[i] == '/' {
			head, rest = head[:i], head[i:]
			break
		}
	}
	child, present := obj[head]
	if !present {
		return doc
	}
	cp := make(map[string]any, len(obj))
	for k, v := range obj {
		cp[k] = v
	}
	if rest == "" {
		delete(cp, head)
	} else {
		cp[head] = removeAt(child, rest)
	}
	return cp
}
