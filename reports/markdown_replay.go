package reports

import (
	"fmt"
	"strings"
)

// mdReplayRows is how many differing rows the summary shows per
// connection; the HTML report has them all.
const mdReplayRows = 10

// mdReplays writes the Replay section: one line per replayed connection
// (matched, or how many rows differ), then that connection's first
// differing rows as a table of recorded vs replayed frames and the members
// that differ, and how many more there are.
func mdReplays(b *strings.Builder, r *Report) {
	if len(r.Replays) == 0 {
		return
	}
	fmt.Fprintf(b, "#### Replay\n\n**%s**\n\n", mdText(replayLede(r.Replays)))
	for i, d := range r.Replays {
		if i == mdMaxItems {
			fmt.Fprintf(b, "… and %d more connections: see the HTML report\n\n", len(r.Replays)-i)
			break
		}
		line := "- " + mdEmoji[Passed] + " `" + mdCodeText(d.Conn) + "`"
		if !d.Matched {
			line = "- " + mdEmoji[Failed] + " `" + mdCodeText(d.Conn) + "`"
		}
		if d.Replayed != "" {
			line += " → `" + mdCodeText(d.Replayed) + "`"
		}
		if d.Matched {
			line += fmt.Sprintf(": matches (%s)", plural(len(d.Rows), "frame"))
		} else {
			line += ": " + mdText(replaySummary(d))
		}
		if d.URL != "" {
			line += " " + mdCell(d.URL)
		}
		b.WriteString(line + "\n")
		if !d.Matched {
			mdReplayTable(b, d)
		}
	}
	b.WriteString("\n")
}

// mdReplayTable writes a diff's first differing rows, indented under its
// list item.
func mdReplayTable(b *strings.Builder, d ReplayDiff) {
	if d.Differs() == 0 {
		return
	}
	b.WriteString("\n  | row | | recorded | replayed | members |\n  |---:|---|---|---|---|\n")
	shown := 0
	for i, row := range d.Rows {
		if !row.Differs() {
			continue
		}
		if shown == mdReplayRows {
			break
		}
		shown++
		var members []string
		for k, m := range row.Members {
			if k == 3 {
				members = append(members, fmt.Sprintf("and %d more", len(row.Members)-k))
				break
			}
			members = append(members, mdCell(orSlash(m.Pointer))+": "+mdCell(cutRunes(orAbsent(m.Recorded), 60))+" → "+
				mdCell(cutRunes(orAbsent(m.Replayed), 60)))
		}
		fmt.Fprintf(b, "  | %d | %s %s | %s | %s | %s |\n", i+1, opMarks[row.Op], row.Op, mdReplayFrame(row.Recorded),
			mdReplayFrame(row.Replayed), strings.Join(members, "; "))
	}
	if more := d.Differs() - shown; more > 0 {
		fmt.Fprintf(b, "\n  … and %d more differing rows: see the HTML report\n", more)
	}
	b.WriteString("\n")
}

// mdReplayFrame is one side of a row: index, direction, type and ordering
// value.
func mdReplayFrame(f *Frame) string {
	if f == nil {
		return "—"
	}
	c := newReplayCell(f)
	s := fmt.Sprintf("#%d %s %s", c.Index, c.Arrow, mdCell(c.Type))
	if c.Seq != "" {
		s += " " + mdText(c.Seq)
	}
	return s
}
