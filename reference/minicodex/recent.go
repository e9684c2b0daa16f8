package minicodex

// recent is a map that keeps only its newest max keys, so per-session
// memory of calls and client_msg_ids is bounded however long a session
// lives. Not safe for concurrent use: the hub's mutex guards it.
type recent[V any] struct {
	max  int
	m    map[string]V
	ring []string
	next int
}

func newRecent[V any](max int) *recent[V] {
	return &recent[V]{max: max, m: map[string]V{}}
}

func (r *recent[V]) get(k string) (V, bool) {
	v, ok := r.m[k]
	return v, ok
}

// put stores k, forgetting the oldest key when full.
func (r *recent[V]) put(k string, v V) {
	if _, ok := r.m[k]; ok {
		r.m[k] = v
		return
	}
	if len(r.ring) < r.max {
		r.ring = append(r.ring, k)
	} else {
		delete(r.m, r.ring[r.next])
		r.ring[r.next] = k
		r.next = (r.next + 1) % r.max
	}
	r.m[k] = v
}
