package replay

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wsconform/wsconform/reports"
)

// result compares every recorded connection with its replay and judges
// the new traffic.
func (pl *player) result() *Result {
	res := &Result{Dialect: pl.p.Dialect, DialectReason: pl.p.DialectReason, Lines: pl.j.all()}
	payload := pl.opts.Limits.Payload
	if payload <= 0 {
		payload = reports.DefaultWireLimits.Payload
	}
	pl.noteRedacted()
	df := differ{d: pl.d, masks: pl.masks, ids: pl.ids, timed: pl.timed, payload: payload, recordEnd: lastTime(pl.p)}
	for _, c := range pl.p.Conns {
		if _, skipped := pl.sc.skipped[c]; skipped {
			continue
		}
		why := pl.errs[c]
		l := pl.lives[c]
		if l == nil && why == "" {
			why = "not opened"
		}
		diff, dropped := df.conn(c, pl.sc.answers[c], l, why)
		if dropped > 0 {
			pl.notes = append(pl.notes, fmt.Sprintf("%s: %d matching rows far from any difference are left out of the diff", c.ID, dropped))
		}
		res.Diffs = append(res.Diffs, diff)
	}
	// A session is named by the new server's id once it is known (the
	// recorded one was its label while the replay ran).
	for i, l := range res.Lines {
		if v, ok := pl.ids.Lookup(l.Session); ok {
			res.Lines[i].Session = v
		}
	}
	res.Sessions = judge(pl.d, pl.p.DialectReason, res.Lines, pl.opts.Check, pl.opts.Limits)
	res.Notes = pl.notes
	return res
}

// noteRedacted says which redacted values the client's frames sent as
// recorded: a server that checks them refuses the replay, and --set gives
// them.
func (pl *player) noteRedacted() {
	var left []string
	for k := range pl.rw.redacted {
		left = append(left, k)
	}
	sort.Strings(left)
	for _, k := range left {
		typ, ptr, _ := strings.Cut(k, " ")
		mask := ptr
		if typ != "" {
			mask = typ + ":" + ptr
		}
		pl.notes = append(pl.notes, fmt.Sprintf("client frames sent %s as the recording redacted it: give the value with --set %s=VALUE", describeMember(typ, ptr), mask))
	}
}

// describeMember names a member of a message type for a note.
func describeMember(typ, ptr string) string {
	if typ == "" {
		return ptr
	}
	return typ + " " + ptr
}
