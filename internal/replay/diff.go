package replay

import (
	"fmt"
	"time"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// maxRows bounds the rows of one connection's diff: past it, matching
// rows far from any difference are left out (a note says how many).
const maxRows = 5000

// diffContext is how many matching rows are kept around a difference in a
// diff cut to maxRows.
const diffContext = 3

// differ compares recorded connections with their replays.
type differ struct {
	d       *dialect.Dialect
	masks   Masks
	ids     *IDs
	timed   map[string]bool
	payload int
	// recordEnd is when the recording stopped (its last event).
	recordEnd time.Time
}

// side is one stream of a diff: frames and their types.
type side struct {
	frames []wire.Frame
	types  []string
}

// conn builds the diff of one recorded connection: its server data frames
// (timed types left out) aligned with the replay's by type, aligned pairs
// compared within the masks, then how the server ended each.
func (df differ) conn(c *Conn, answers []answer, l *live, why string) (reports.ReplayDiff, int) {
	out := reports.ReplayDiff{Conn: c.ID, URL: c.URL, Dialect: df.d.Dialect, Side: wire.ServerToClient, Masks: df.masks.Strings(), Rows: []reports.ReplayRow{}, Error: why}
	var rec, rep side
	for _, a := range answers {
		rec.frames = append(rec.frames, c.Frames[a.frame])
		rec.types = append(rec.types, a.typ)
	}
	var end liveEnd
	if l != nil {
		out.Replayed = l.id
		var got []received
		got, end = l.result()
		for _, r := range got {
			if !df.timed[r.typ] && (r.f.Op == wire.OpText || r.f.Op == wire.OpBinary) {
				rep.frames = append(rep.frames, r.f)
				rep.types = append(rep.types, r.typ)
			}
		}
	}
	for _, p := range align(rec.types, rep.types) {
		out.Rows = append(out.Rows, df.row(p, rec, rep))
	}
	out.Rows = df.moved(out.Rows, rec, rep)
	late(out.Rows, c, leftEarly(c, df.recordEnd))
	if row, ok := df.endRow(c, l, end); ok {
		out.Rows = append(out.Rows, row)
	}
	dropped := 0
	out.Rows, dropped = trimRows(out.Rows)
	out.Matched = out.Differs() == 0 && out.Error == ""
	return out, dropped
}

func (df differ) row(p pair, rec, rep side) reports.ReplayRow {
	switch {
	case p.b < 0:
		return reports.ReplayRow{Op: reports.DiffMissing, Recorded: df.frame(rec.frames[p.a])}
	case p.a < 0:
		return reports.ReplayRow{Op: reports.DiffExtra, Replayed: df.frame(rep.frames[p.b])}
	}
	row := reports.ReplayRow{Op: reports.DiffSame, Recorded: df.frame(rec.frames[p.a]), Replayed: df.frame(rep.frames[p.b])}
	for _, m := range df.compare(rec.types[p.a], rec.frames[p.a], rep.frames[p.b]) {
		row.Members = append(row.Members, reports.MemberDiff(m))
	}
	if len(row.Members) > 0 {
		row.Op = reports.DiffChanged
	}
	return row
}

// moveWindow is how far apart (in rows) a missing message and an extra
// one may be to be taken for one message that moved.
const moveWindow = 16

// moved pairs a missing row with an extra row of the same type nearby
// whose message is the same within the masks: the server sent it in
// another place, as a server sends two independent messages (a status
// and a catalogue at connect) in either order. The pair becomes one
// DiffMoved row at the recorded place; a spec's order is judged by the
// check engine's ordering rules, not by the recording.
func (df differ) moved(rows []reports.ReplayRow, rec, rep side) []reports.ReplayRow {
	gone := make([]bool, len(rows))
	for i, r := range rows {
		if r.Op != reports.DiffMissing || r.Recorded == nil {
			continue
		}
		for j := max(0, i-moveWindow); j < min(len(rows), i+moveWindow+1); j++ {
			x := rows[j]
			if gone[j] || x.Op != reports.DiffExtra || x.Replayed == nil || x.Replayed.Type != r.Recorded.Type {
				continue
			}
			a, b := frameAt(rec, r.Recorded.Index), frameAt(rep, x.Replayed.Index)
			try := df
			try.ids = df.ids.Clone() // a pair that does not match teaches no ids
			if a == nil || b == nil || len(try.compare(r.Recorded.Type, *a, *b)) > 0 {
				continue
			}
			rows[i] = reports.ReplayRow{Op: reports.DiffMoved, Recorded: r.Recorded, Replayed: x.Replayed}
			gone[j] = true
			break
		}
	}
	out := rows[:0]
	for i, r := range rows {
		if !gone[i] {
			out = append(out, r)
		}
	}
	return out
}

// frameAt finds a side's frame by its index.
func frameAt(s side, index int64) *wire.Frame {
	for i := range s.frames {
		if s.frames[i].Index == index {
			return &s.frames[i]
		}
	}
	return nil
}

// compare compares two data frames: JSON members within the masks, other
// payloads byte for byte.
func (df differ) compare(typ string, a, b wire.Frame) []MemberDiff {
	x, err1 := Decode(a.Payload)
	y, err2 := Decode(b.Payload)
	if err1 == nil && err2 == nil && a.Op == wire.OpText && b.Op == wire.OpText {
		return Compare(typ, x, y, df.masks, df.ids)
	}
	if a.Op == b.Op && string(a.Payload) == string(b.Payload) {
		return nil
	}
	return []MemberDiff{{Pointer: "", Recorded: fmt.Sprintf("%s, %d bytes", a.Op, len(a.Payload)), Replayed: fmt.Sprintf("%s, %d bytes", b.Op, len(b.Payload))}}
}

// endRow compares how the server ended the connection, when either
// server ended it: the recorded server's close against the new one's.
func (df differ) endRow(c *Conn, l *live, end liveEnd) (reports.ReplayRow, bool) {
	recByServer := c.End != nil && c.End.By == recording.ByServer
	newByServer := l != nil && end.byServer && end.code != 0
	var recFrame, newFrame *reports.Frame
	if recByServer {
		f := wire.Frame{Conn: c.ID, URL: c.URL, Dir: wire.ServerToClient, Time: c.End.Time, Op: wire.OpClose,
			Payload: []byte(c.End.Reason), CloseCode: c.End.Code}
		for _, x := range c.Frames {
			if x.Dir == wire.ServerToClient && x.Op == wire.OpClose {
				f = x
				break
			}
		}
		recFrame = df.frame(f)
	}
	if newByServer {
		f := wire.Frame{Conn: l.id, URL: l.url, Dir: wire.ServerToClient, Op: wire.OpClose, Payload: []byte(end.reason), CloseCode: end.code}
		if end.frame != nil {
			f = *end.frame
		}
		newFrame = df.frame(f)
	}
	switch {
	case recFrame != nil && newFrame != nil:
		row := reports.ReplayRow{Op: reports.DiffSame, Recorded: recFrame, Replayed: newFrame}
		if recFrame.CloseCode != newFrame.CloseCode {
			row.Op = reports.DiffChanged
			row.Members = []reports.MemberDiff{{Pointer: "/code", Recorded: fmt.Sprint(recFrame.CloseCode), Replayed: fmt.Sprint(newFrame.CloseCode)}}
		}
		return row, true
	case recFrame != nil:
		return reports.ReplayRow{Op: reports.DiffMissing, Recorded: recFrame}, true
	case newFrame != nil:
		return reports.ReplayRow{Op: reports.DiffExtra, Replayed: newFrame}, true
	}
	return reports.ReplayRow{}, false
}

func (df differ) frame(f wire.Frame) *reports.Frame {
	typ, seq := reports.Describe(df.d, f)
	rf := reports.NewFrame(f, typ, seq, df.payload)
	return &rf
}

// trimRows keeps a diff of more than maxRows rows readable: every
// differing row, and diffContext matching rows on each side of one.
func trimRows(rows []reports.ReplayRow) ([]reports.ReplayRow, int) {
	if len(rows) <= maxRows {
		return rows, 0
	}
	keep := make([]bool, len(rows))
	for i, r := range rows {
		if r.Op == reports.DiffSame {
			continue
		}
		for k := max(0, i-diffContext); k <= min(len(rows)-1, i+diffContext); k++ {
			keep[k] = true
		}
	}
	var out []reports.ReplayRow
	for i, r := range rows {
		if keep[i] {
			out = append(out, r)
		}
	}
	return out, len(rows) - len(out)
}
