package reports

import (
	"encoding/json"
	"math"
	"time"
)

// pageJSON is the data the page's script renders lazily: the wire log,
// finding marks and connection timeline of every item. Rows are arrays, not
// objects, to keep a report of thousands of frames small. json.Marshal
// escapes <, > and & (and U+2028/U+2029), so no payload can end the
// <script> element that carries it.
type pageJSON struct {
	Items []itemJSON `json:"items"`
}

type itemJSON struct {
	Anchor   string `json:"a"`
	SeqLabel string `json:"s"`
	// Frames: [index, clock, ms since the item's start, conn, dir,
	// op, type, seq, size, payload, flags (1 binary, 2 truncated), close code]
	Frames [][]any `json:"f"`
	// Findings: [frame, severity (0 info, 1 warning, 2 error), rule,
	// finding anchor, related frames, counted (0 or 1), message,
	// background (0 or 1)]
	Findings [][]any `json:"x"`
	// Conns: [id, parent, opened ms, closed ms (-1 still open), close
	// code, close reason, closed by, url, frames]
	Conns [][]any `json:"c,omitempty"`
	// End is the item's span in ms (the timeline's width).
	End float64 `json:"e"`
}

func pageData(items []*item) ([]byte, error) {
	labels := map[string]string{}
	out := pageJSON{Items: make([]itemJSON, len(items))}
	for i, it := range items {
		label, ok := labels[it.Dialect]
		if !ok {
			label = SeqLabel(it.Dialect)
			labels[it.Dialect] = label
		}
		out.Items[i] = itemData(it, label)
	}
	return json.Marshal(out)
}

func itemData(it *item, label string) itemJSON {
	var frames []Frame
	var conns []Connection
	if it.Sc != nil {
		frames = it.Sc.Frames
	} else {
		frames, conns = it.Se.Frames, it.Se.Conns
	}
	t0 := start(frames, conns)
	ms := func(t time.Time) float64 {
		if t.IsZero() || t0.IsZero() {
			return 0
		}
		return math.Round(float64(t.Sub(t0))/1e3) / 1e3
	}
	d := itemJSON{Anchor: it.Anchor, SeqLabel: label, Frames: make([][]any, len(frames)), Findings: [][]any{}}
	for i, f := range frames {
		flags := 0
		if f.Binary {
			flags |= 1
		}
		if f.Truncated {
			flags |= 2
		}
		clock := ""
		if !f.Time.IsZero() {
			clock = f.Time.Format("15:04:05.000")
		}
		d.Frames[i] = []any{f.Index, clock, ms(f.Time), f.Conn, string(f.Dir), f.Op, f.Type, f.Seq, f.Size,
			f.Payload, flags, f.CloseCode}
		d.End = math.Max(d.End, ms(f.Time))
	}
	add := func(fs []findingView, counted int) {
		for _, f := range fs {
			rel := f.Finding.Related
			if rel == nil {
				rel = []int64{}
			}
			bg := 0
			if f.Background {
				bg = 1
			}
			d.Findings = append(d.Findings, []any{f.Frame, int(f.Severity), f.Rule, f.Anchor, rel, counted, f.Message, bg})
		}
	}
	add(it.Findings, 1)
	add(it.Ignored, 0)
	for _, c := range conns {
		closed := -1.0
		if !c.Closed.IsZero() {
			closed = ms(c.Closed)
			d.End = math.Max(d.End, closed)
		}
		d.Conns = append(d.Conns, []any{c.ID, c.Parent, ms(c.Opened), closed, c.CloseCode, c.CloseReason, c.CloseBy, c.URL, c.Frames})
	}
	return d
}

// start is the earliest time of an item: its first frame or connection.
func start(frames []Frame, conns []Connection) time.Time {
	var t0 time.Time
	early := func(t time.Time) {
		if !t.IsZero() && (t0.IsZero() || t.Before(t0)) {
			t0 = t
		}
	}
	for _, c := range conns {
		early(c.Opened)
	}
	for _, f := range frames {
		early(f.Time)
	}
	return t0
}
