package replay

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

// await waits until every connection the replay holds open has the
// answers its recorded counterpart had before the step (counted per
// message type and correlation values, see correlator; timed types left
// out). The wait for each answer is
// bounded by AnswerTimeout: when nothing awaited arrives for that long,
// the missing answers are given up on (the diff shows them) and the
// replay goes on. A connection the server ended gives up at once.
func (pl *player) await(ctx context.Context, st step) error {
	t := time.NewTimer(pl.opts.AnswerTimeout)
	defer t.Stop()
	progress := -1
	for {
		short, got := pl.shortfall(st.pos)
		if len(short) == 0 {
			return nil
		}
		if got != progress {
			progress = got
			t.Reset(pl.opts.AnswerTimeout)
		}
		select {
		case <-pl.notify:
		case <-t.C:
			pl.giveUp(short, st, fmt.Sprintf("did not come within %s", pl.opts.AnswerTimeout))
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// missing is what one connection still lacks, by correlation key.
type missing map[string]int

// shortfall returns, per open connection, the awaited answers that have
// not come, and how many awaited answers have (progress). Connections
// the server ended are given up on here.
func (pl *player) shortfall(pos int) (map[*Conn]missing, int) {
	short := map[*Conn]missing{}
	ended := map[*Conn]missing{}
	progress := 0
	for _, c := range pl.open {
		l := pl.lives[c]
		_, got, isEnded := l.snapshot()
		for key, n := range pl.expected(c, pos) {
			n -= pl.deficit[c][key]
			progress += min(got[key], n)
			if got[key] >= n {
				continue
			}
			m := short
			if isEnded {
				m = ended
			}
			if m[c] == nil {
				m[c] = missing{}
			}
			m[c][key] = n - got[key]
		}
	}
	if len(ended) > 0 {
		pl.giveUp(ended, step{pos: pos}, "never came: the server ended the connection")
	}
	return short, progress
}

// expected counts, by correlation key, the answers conn's recorded counterpart had
// before pos.
func (pl *player) expected(c *Conn, pos int) map[string]int {
	e := pl.expect[c]
	if e == nil || pos < e.pos {
		e = &expectation{counts: map[string]int{}}
		pl.expect[c] = e
	}
	answers := pl.sc.answers[c]
	for e.next < len(answers) && answers[e.next].pos < pos {
		e.counts[answers[e.next].key]++
		e.next++
	}
	e.pos = pos
	return e.counts
}

// expectation caches expected's count for one connection: steps come in
// timeline order, so each answer is counted once.
type expectation struct {
	pos, next int
	counts    map[string]int
}

// giveUp records answers that did not come, so later waits do not wait
// for them again, with a note.
func (pl *player) giveUp(short map[*Conn]missing, st step, why string) {
	for c, m := range short {
		if pl.deficit[c] == nil {
			pl.deficit[c] = map[string]int{}
		}
		var parts []string
		for key, n := range m {
			pl.deficit[c][key] += n
			parts = append(parts, fmt.Sprintf("%d %s", n, describeKey(key)))
		}
		sort.Strings(parts)
		pl.notes = append(pl.notes, fmt.Sprintf("%s: %s of the recording %s%s; the replay went on",
			c.ID, strings.Join(parts, ", "), why, pl.before(st)))
	}
}

// before names the client action a wait preceded, for notes.
func (pl *player) before(st step) string {
	if st.conn == nil {
		return ""
	}
	switch st.kind {
	case stepSend:
		f := st.conn.Frames[st.frame]
		return fmt.Sprintf(" (before %s's frame %d, %s)", st.conn.ID, f.Index, describeStep(pl.d, f))
	case stepClose, stepCut, stepFinish:
		return fmt.Sprintf(" (before %s ended)", st.conn.ID)
	}
	return ""
}
