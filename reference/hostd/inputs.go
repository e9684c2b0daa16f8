package hostd

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// inputBook remembers a run's input_ids (hostd-mvp.md §Identifiers:
// "client-generated UUID to make inputs idempotent"): those the server
// forwarded and those the host recorded with run.input. It keeps the last
// limit ids; an id older than that is forgotten and would be forwarded
// again.
type inputBook struct {
	limit int
	byID  map[string]*inputEntry
	order []string // oldest first
	// waiting counts the entries forwarded and not recorded, so a host
	// (re)connecting skips runs with nothing to re-deliver cheaply.
	waiting int
}

// inputEntry is one input_id of a run.
type inputEntry struct {
	id  string
	sum string // sha256 (hex) of the raw text: a reused id with other text is refused
	// text is kept until the host records the input, so it can be
	// re-delivered to a reconnected host; then it is dropped.
	text     string
	recorded bool
	to       *hostConn // connection it was last forwarded to; nil if never forwarded
}

func newInputBook(limit int) *inputBook {
	return &inputBook{limit: max(1, limit), byID: map[string]*inputEntry{}}
}

// textSum is the hex sha256 of an input's raw text, as run.input's
// text_sha256 carries it.
func textSum(text string) string {
	s := sha256.Sum256([]byte(text))
	return hex.EncodeToString(s[:])
}

func (b *inputBook) get(id string) *inputEntry { return b.byID[id] }

// forwarded records an input about to be forwarded to hc.
func (b *inputBook) forwarded(id, text string, hc *hostConn) {
	b.add(&inputEntry{id: id, sum: textSum(text), text: text, to: hc})
}

// recorded marks an input the host recorded (run.input): it is never
// forwarded again. sum is the host's text_sha256.
func (b *inputBook) recorded(id, sum string) {
	if e := b.byID[id]; e != nil {
		if !e.recorded && e.to != nil {
			b.waiting--
		}
		e.recorded, e.text = true, ""
		return
	}
	b.add(&inputEntry{id: id, sum: sum, recorded: true})
}

func (b *inputBook) add(e *inputEntry) {
	if len(b.order) >= b.limit {
		if old := b.byID[b.order[0]]; !old.recorded && old.to != nil {
			b.waiting--
		}
		delete(b.byID, b.order[0])
		b.order = slices.Delete(b.order, 0, 1)
	}
	if !e.recorded && e.to != nil {
		b.waiting++
	}
	b.byID[e.id] = e
	b.order = append(b.order, e.id)
}

// pending lists the inputs forwarded but not yet recorded, oldest first.
func (b *inputBook) pending() []*inputEntry {
	if b.waiting == 0 {
		return nil
	}
	var out []*inputEntry
	for _, id := range b.order {
		if e := b.byID[id]; !e.recorded && e.to != nil {
			out = append(out, e)
		}
	}
	return out
}
