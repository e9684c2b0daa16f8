package mitto

import (
	"bytes"
	"encoding/json"
	"slices"
)

// load_events limits (mitto.md §load_events Parameters).
const (
	defaultLimit = 50
	maxLimit     = 500
)

// loadQuery is a validated load_events: limit already defaulted and capped.
type loadQuery struct {
	limit     int64
	before    int64
	after     int64
	hasBefore bool
	hasAfter  bool
}

// page is the seq range an events_loaded answers with.
type page struct {
	lo, hi  int64 // inclusive; empty when lo > hi
	hasMore bool
	prepend bool
}

// load answers load_events with events_loaded, built and sent under the
// session lock so its max_seq is never below a seq the client already has.
func (s *session) load(c *client, q loadQuery) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pageLocked(q)
	events := s.eventsLocked(p)
	first, last := int64(0), int64(0)
	if len(events) > 0 {
		first, last = p.lo, p.lo+int64(len(events))-1
	}
	if s.mutate(mutNewestFirst) {
		slices.Reverse(events)
		first, last = last, first
	}
	if s.mutate(mutFirstSeqOff) && len(events) > 0 {
		first--
	}
	d := obj{
		{"events", events},
		{"has_more", p.hasMore || s.mutate(mutHasMoreAlways)},
		{"first_seq", first},
		{"last_seq", last},
		{"max_seq", s.seq},
		{"total_count", s.log.Len()},
		{"prepend", p.prepend},
		{"is_prompting", s.turn != nil},
	}
	c.sendRaw(s.encode(envelope("events_loaded", d)))
	c.loaded = true
}

// pageLocked picks the seqs to return. Seqs are contiguous from 1 to
// s.seq and the store holds the newest ReplayWindow of them:
//   - initial load: the newest limit events; has_more when older ones are
//     still stored;
//   - before_seq: the newest limit events below before_seq (prepend);
//   - after_seq: the oldest limit events above after_seq; has_more when
//     newer ones exist. An after_seq beyond max_seq (a client of a session
//     the server no longer has) is answered as an initial load.
func (s *session) pageLocked(q loadQuery) page {
	top := s.seq
	oldest := top - int64(s.log.Len()) + 1
	limit := q.limit
	if s.mutate(mutPageOverLimit) {
		limit++
	}
	if q.hasAfter && q.after <= top {
		lo := max(q.after+1, oldest)
		hi := min(top, lo+limit-1)
		return page{lo: lo, hi: hi, hasMore: hi < top}
	}
	p := page{hi: top}
	if q.hasBefore {
		p.prepend = true
		p.hi = min(q.before-1, top)
		if s.mutate(mutPageOverlaps) {
			p.hi = min(q.before, top)
		}
	}
	p.lo = max(oldest, p.hi-limit+1)
	p.hasMore = p.lo <= p.hi && p.lo > oldest
	return p
}

// eventsLocked reads the stored events of a page, byte for byte as they
// were stored.
func (s *session) eventsLocked(p page) []json.RawMessage {
	out := []json.RawMessage{}
	if p.lo > p.hi {
		return out
	}
	entries, _ := s.log.After(p.lo - 1)
	for _, e := range entries {
		if e.ID > p.hi {
			break
		}
		data := e.Data
		if s.mutate(mutReplayRetyped) {
			data = bytes.Replace(data, []byte(`{"type":"tool_update"`), []byte(`{"type":"tool_call"`), 1)
		}
		out = append(out, json.RawMessage(data))
	}
	return out
}
