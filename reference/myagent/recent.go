package myagent

import "strconv"

// recent remembers the last n keys with a value each, forgetting the
// oldest first: bounded memory for "why did this step close".
type recent struct {
	n     int
	order []string
	m     map[string]string
}

func newRecent(n int) *recent { return &recent{n: n, m: map[string]string{}} }

func (r *recent) put(k, v string) {
	if _, ok := r.m[k]; !ok {
		r.order = append(r.order, k)
		if len(r.order) > r.n {
			delete(r.m, r.order[0])
			r.order = append(r.order[:0], r.order[1:]...)
		}
	}
	r.m[k] = v
}

func (r *recent) get(k string) (string, bool) {
	v, ok := r.m[k]
	return v, ok
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
