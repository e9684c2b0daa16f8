package reports

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/wsconform/wsconform/internal/wire"
)

// How a replay diff is laid out: runs of identical rows longer than
// replayRunMin are folded into one "… N identical frames" line, keeping
// replayContext rows next to each difference, so that a diff of
// thousands of rows shows its differences at once; rows go in chunks of
// replayChunk that the browser skips laying out while off screen.
const (
	replayRunMin     = 4
	replayContext    = 2
	replayChunk      = 100
	replayPreview    = 160 // characters of a payload in a row
	replayMembersRow = 4   // member diffs a changed row lists before "and N more"
	// replayRunMax is how many rows of one folded run the page holds: the
	// rest of a longer run is counted, not rendered (the JSON report has
	// every row), so that a page stays a few MB.
	replayRunMax = 5000
)

// ReplayDiffHTML renders one replay diff as an HTML fragment, with the
// template the report page uses for its Replay section ({{define
// "replay"}}), so that a live view shows a diff exactly as the report
// does. The fragment needs the page's style sheet (CSS) and, for the
// pretty-printed payloads of an opened row, its script (ReplayJS); without
// the script, payloads show as sent.
func ReplayDiffHTML(w io.Writer, d ReplayDiff) error {
	v := newReplayView(d, "", map[string]bool{})
	if err := pageTmpl.ExecuteTemplate(w, "replay", v); err != nil {
		return fmt.Errorf("write replay diff: %w", err)
	}
	return nil
}

// replayView is one ReplayDiff as the "replay" template renders it.
type replayView struct {
	ReplayDiff
	Anchor string
	// Who is the side on trial: "server" (s2c) or "client" (c2s);
	// LeftHead and RightHead head the two columns.
	Who, LeftHead, RightHead string
	SeqLabel                 string
	Differs                  int
	Counts                   []opCount
	Parts                    []replayPart
}

type opCount struct {
	Op string
	N  int
}

// replayPart is a stretch of rows: shown, or (Run > 0) a run of identical
// rows folded behind one line.
type replayPart struct {
	Run int
	// Left counts the rows of the run beyond replayRunMax, not rendered.
	Left   int
	Chunks []replayChunkView
}

type replayChunkView struct {
	Height int // estimated, for content-visibility
	Rows   []replayRowView
}

type replayRowView struct {
	Op          string
	Mark        string
	Anchor      string
	Left, Right *replayCell
	Members     []MemberDiff // every member that differs
	Other       string       // heads the replayed side's values
	Shown       []MemberDiff // those listed in the row itself
	MoreMembers int
}

// replayCell is one side of a row: a frame, or nil for none.
type replayCell struct {
	Index     int64
	Dir       string
	Arrow     string
	Type      string
	Seq       string
	Preview   string
	Payload   string
	Binary    bool
	Truncated bool
	Size      int
	Clock     string
}

// newReplayView prepares d for the template; seqLabel heads the ordering
// column ("" to take d.Dialect's), anchors keeps ids unique on a page.
func newReplayView(d ReplayDiff, seqLabel string, anchors map[string]bool) *replayView {
	v := &replayView{ReplayDiff: d, Anchor: uniqueAnchor("replay-"+d.Conn, anchors), Differs: d.Differs()}
	if seqLabel == "" {
		seqLabel = SeqLabel(d.Dialect)
	}
	v.SeqLabel = seqLabel
	if d.Side == wire.ClientToServer {
		v.Who, v.LeftHead, v.RightHead = "client", "recorded (expected)", "client sent"
	} else {
		v.Who, v.LeftHead, v.RightHead = "server", "recorded", "replayed"
	}
	counts := d.Counts()
	for _, op := range []string{DiffSame, DiffMoved, DiffLate, DiffChanged, DiffMissing, DiffExtra} {
		if counts[op] > 0 {
			v.Counts = append(v.Counts, opCount{op, counts[op]})
		}
	}
	v.Parts = replayParts(v.Anchor, d.Rows, map[string]string{"client": "client sent", "server": "replayed"}[v.Who])
	return v
}

// replayParts folds long runs of identical rows and chunks the rest.
// Each row's member table heads its second column with other.
func replayParts(anchor string, rows []ReplayRow, other string) []replayPart {
	var parts []replayPart
	var shown []replayRowView
	flush := func() {
		if len(shown) > 0 {
			parts = append(parts, replayPart{Chunks: chunkRows(shown)})
			shown = nil
		}
	}
	view := func(i int) replayRowView {
		v := newReplayRowView(fmt.Sprintf("%s-r%d", anchor, i+1), rows[i])
		v.Other = other
		return v
	}
	for i := 0; i < len(rows); {
		if rows[i].Op != DiffSame {
			shown = append(shown, view(i))
			i++
			continue
		}
		j := i
		for j < len(rows) && rows[j].Op == DiffSame {
			j++
		}
		lead, trail := 0, 0
		if i > 0 {
			lead = replayContext
		}
		if j < len(rows) {
			trail = replayContext
		}
		if j-i-lead-trail < replayRunMin {
			lead, trail = j-i, 0
		}
		for k := i; k < i+lead; k++ {
			shown = append(shown, view(k))
		}
		if hidden := j - i - lead - trail; hidden > 0 {
			flush()
			keep := min(hidden, replayRunMax)
			run := make([]replayRowView, 0, keep)
			for k := i + lead; k < i+lead+keep; k++ {
				run = append(run, view(k))
			}
			parts = append(parts, replayPart{Run: hidden, Left: hidden - keep, Chunks: chunkRows(run)})
		}
		for k := j - trail; k < j; k++ {
			shown = append(shown, view(k))
		}
		i = j
	}
	flush()
	return parts
}

func chunkRows(rows []replayRowView) []replayChunkView {
	var out []replayChunkView
	for i := 0; i < len(rows); i += replayChunk {
		c := replayChunkView{Rows: rows[i:min(len(rows), i+replayChunk)]}
		for _, r := range c.Rows {
			c.Height += 23
			if len(r.Shown) > 0 {
				c.Height += 20
			}
		}
		out = append(out, c)
	}
	return out
}

var opMarks = map[string]string{DiffSame: "=", DiffMoved: "↕", DiffLate: "…", DiffChanged: "≠", DiffMissing: "−", DiffExtra: "+"}

func newReplayRowView(anchor string, r ReplayRow) replayRowView {
	v := replayRowView{Op: r.Op, Mark: opMarks[r.Op], Anchor: anchor, Left: newReplayCell(r.Recorded),
		Right: newReplayCell(r.Replayed), Members: r.Members}
	if v.Mark == "" {
		v.Mark = "?"
	}
	v.Shown = r.Members[:min(len(r.Members), replayMembersRow)]
	v.MoreMembers = len(r.Members) - len(v.Shown)
	return v
}

func newReplayCell(f *Frame) *replayCell {
	if f == nil {
		return nil
	}
	c := &replayCell{Index: f.Index, Dir: string(f.Dir), Arrow: f.Dir.Arrow(),
		Type: f.Type, Seq: f.Seq, Payload: f.Payload, Binary: f.Binary, Truncated: f.Truncated, Size: f.Size}
	if !f.Time.IsZero() {
		c.Clock = f.Time.Format("15:04:05.000")
	}
	switch {
	case f.Op == "close":
		c.Type = fmt.Sprintf("close %d", f.CloseCode)
		c.Preview = f.Payload
	case f.Binary:
		if c.Type == "" {
			c.Type = f.Op
		}
		c.Preview = "[binary] " + f.Payload
	default:
		if c.Type == "" && f.Op != "text" {
			c.Type = f.Op
		}
		c.Preview = strings.Join(strings.Fields(f.Payload), " ")
	}
	c.Preview = cutPreview(c.Preview, replayPreview)
	return c
}

// cutPreview keeps the first n bytes of s, on a rune boundary.
func cutPreview(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// replayLede is the sentence about the replays at the head of a report:
// "3 connections replayed, 1 differs" (a server replayed against) or
// "2 client connections compared with the recording, all match" (a client
// judged by serve --replay); "" when there are none.
func replayLede(diffs []ReplayDiff) string {
	if len(diffs) == 0 {
		return ""
	}
	client := true
	bad := 0
	for _, d := range diffs {
		if !d.Matched {
			bad++
		}
		client = client && d.Side == wire.ClientToServer
	}
	n := len(diffs)
	s := plural(n, "connection") + " replayed"
	if client {
		s = plural(n, "client connection") + " compared with the recording"
	}
	switch {
	case bad == 0 && n == 1:
		return s + ", it matches"
	case bad == 0:
		return s + ", all match"
	case bad == n && n == 1:
		return s + ", it differs"
	case bad == 1:
		return s + ", 1 differs"
	}
	return fmt.Sprintf("%s, %d differ", s, bad)
}

// withReplayLede puts the replay sentence before the verdict one: "3
// connections replayed, 1 differs. 2 sessions: 1 failed."; the second is
// left out when nothing else was judged.
func withReplayLede(replay, lede string, total int) string {
	if total == 0 {
		return replay + "."
	}
	return replay + ". " + lede
}

// textEscaper escapes what text content needs, no more: html/template
// escapes quotes too (&#34;), which would grow the JSON payloads of a
// diff of thousands of rows by a third.
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// textHTML is s escaped for an element's text content (a <span> or
// <pre>), never for an attribute, a <script> or a <style>.
func textHTML(s string) template.HTML { return template.HTML(textEscaper.Replace(s)) }
