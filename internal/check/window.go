package check

import "sort"

// Bounded memory shared by the dialect rules: what a session remembers is
// capped by Options.ReplayWindow, and each structure says when it has
// forgotten something, so that "never seen" is only claimed when it is
// known.

// recent is a map that keeps the newest window keys. evicted tells that a
// key may have been forgotten.
type recent[K comparable, V any] struct {
	window  int
	m       map[K]V
	ring    []K
	next    int
	evicted bool
}

func newRecent[K comparable, V any](window int) *recent[K, V] {
	if window <= 0 {
		window = DefaultReplayWindow
	}
	return &recent[K, V]{window: window, m: map[K]V{}}
}

func (r *recent[K, V]) get(k K) (V, bool) {
	v, ok := r.m[k]
	return v, ok
}

func (r *recent[K, V]) len() int { return len(r.m) }

func (r *recent[K, V]) put(k K, v V) {
	if _, ok := r.m[k]; ok {
		r.m[k] = v
		return
	}
	if len(r.ring) < r.window {
		r.ring = append(r.ring, k)
	} else {
		delete(r.m, r.ring[r.next])
		r.ring[r.next] = k
		r.next = (r.next + 1) % r.window
		r.evicted = true
	}
	r.m[k] = v
}

// seqWindow is a sorted set of sequence numbers (event ids, seqs) keeping
// the window highest ones.
type seqWindow struct {
	window  int
	s       []int64
	dropped bool
}

func newSeqWindow(window int) *seqWindow {
	if window <= 0 {
		window = DefaultReplayWindow
	}
	return &seqWindow{window: window}
}

func (q *seqWindow) index(e int64) int {
	return sort.Search(len(q.s), func(i int) bool { return q.s[i] >= e })
}

func (q *seqWindow) has(e int64) bool {
	i := q.index(e)
	return i < len(q.s) && q.s[i] == e
}

func (q *seqWindow) add(e int64) {
	i := q.index(e)
	if i < len(q.s) && q.s[i] == e {
		return
	}
	q.s = append(q.s, 0)
	copy(q.s[i+1:], q.s[i:])
	q.s[i] = e
	if len(q.s) > q.window {
		q.s, q.dropped = q.s[1:], true
	}
}

// forgot reports whether e may have been in the set but was dropped.
func (q *seqWindow) forgot(e int64) bool { return q.dropped && (len(q.s) == 0 || e < q.s[0]) }

func (q *seqWindow) max() (int64, bool) {
	if len(q.s) == 0 {
		return 0, false
	}
	return q.s[len(q.s)-1], true
}

// between lists the members strictly between lo and hi.
func (q *seqWindow) between(lo, hi int64) []int64 {
	var out []int64
	for i := q.index(lo + 1); i < len(q.s) && q.s[i] < hi; i++ {
		out = append(out, q.s[i])
	}
	return out
}
