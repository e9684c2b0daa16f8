package replay

import (
	"encoding/json"
	"strings"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// learnState is how far a connection's answers have been learned from.
type learnState struct {
	next int            // received frames looked at
	seen map[string]int // per correlation key, how many were paired
}

// learn pairs each new answer with the recorded answer of its type and
// correlation values at the same count (the k-th run_status with the k-th
// run_status, the ack of req r5 with the ack of r5, as the waits count
// them) and learns from the pair: the ids the new server minted in
// place of the recorded ones, and its ordering values. Later client frames
// and URLs carry what was learned. The diff aligns the streams again,
// exactly, once the replay is over.
func (pl *player) learn() {
	for _, c := range pl.open {
		frames, _, _ := pl.lives[c].snapshot()
		st := pl.learned[c]
		if st.seen == nil {
			st.seen = map[string]int{}
		}
		for ; st.next < len(frames); st.next++ {
			r := frames[st.next]
			if pl.timed[r.typ] {
				continue
			}
			k := st.seen[r.key]
			st.seen[r.key]++
			rec, ok := pl.nthAnswer(c, r.key, k)
			if !ok {
				continue
			}
			pl.learnPair(c, r.typ, rec.Payload, r.f.Payload)
		}
	}
}

// nthAnswer is the k-th recorded answer with correlation key key on c.
func (pl *player) nthAnswer(c *Conn, key string, k int) (f frameRef, ok bool) {
	idx := pl.sc.byKey[c][key]
	if k >= len(idx) {
		return frameRef{}, false
	}
	return frameRef{Payload: c.Frames[idx[k]].Payload}, true
}

type frameRef struct{ Payload []byte }

// learnPair compares a recorded answer with the new one for what it
// teaches; the differences themselves are the diff's business.
//
// An id the connection's server hands out in place of one already learned
// elsewhere (a recorded server that resumed a session on a reconnection,
// a new one that started another) is the connection's own: its later
// client frames carry it, as the recorded client's carried what its
// server said.
func (pl *player) learnPair(c *Conn, typ string, recorded, replayed []byte) {
	a, err1 := Decode(recorded)
	b, err2 := Decode(replayed)
	if err1 != nil || err2 != nil {
		return
	}
	for _, m := range Compare(typ, a, b, pl.masks, pl.ids) {
		name := m.Pointer[strings.LastIndexByte(m.Pointer, '/')+1:]
		var old, new string
		if !pl.ids.IsID(name) || json.Unmarshal([]byte(m.Recorded), &old) != nil || json.Unmarshal([]byte(m.Replayed), &new) != nil || old == "" {
			continue
		}
		if pl.local[c] == nil {
			pl.local[c] = map[string]string{}
		}
		pl.local[c][old] = new
	}
	for _, name := range KnowledgeOf(pl.d.Dialect).Tokens {
		if ov, ok := findMember(a, name); ok {
			if nv, ok := findMember(b, name); ok {
				pl.ids.LearnToken(ov, nv)
			}
		}
	}
	if ptr := pl.d.Ordering.Pointer; ptr != "" {
		ov, ok1 := jsonx.Get(a, ptr)
		nv, ok2 := jsonx.Get(b, ptr)
		on, ok3 := ov.(json.Number)
		nn, ok4 := nv.(json.Number)
		if ok1 && ok2 && ok3 && ok4 {
			pl.ids.LearnOrder(on, nn)
		}
	}
}

// findMember finds the first member named name, depth first.
func findMember(v any, name string) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		if m, ok := x[name]; ok {
			return m, true
		}
		for _, e := range x {
			if m, ok := findMember(e, name); ok {
				return m, true
			}
		}
	case []any:
		for _, e := range x {
			if m, ok := findMember(e, name); ok {
				return m, true
			}
		}
	}
	return nil, false
}
