package reports

import (
	"fmt"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// replaySuite names the JUnit testsuite of replay diffs.
const replaySuite = "replay"

// junitReplayRows is how many differing rows a failure body lists before
// "… and N more".
const junitReplayRows = 50

// replayCase is one connection's replay as a JUnit testcase, with what
// junitSuite.add needs to file its outcome.
type replayCase struct {
	junitCase
	verdict         Verdict
	message, detail string
	secs            float64
}

// replayCases makes one testcase per replayed connection: passed when it
// matched, failed otherwise with the differing rows (recorded vs replayed,
// member pointers) as plain text in the failure body, so that a CI viewer
// shows the diff without the HTML report.
func replayCases(r *Report) []replayCase {
	var out []replayCase
	for _, d := range r.Replays {
		name := "connection " + d.Conn
		if d.Replayed != "" {
			name += " → " + d.Replayed
		}
		c := replayCase{junitCase: junitCase{Name: name, Classname: replaySuite + "." + string(d.Side)}, verdict: Passed}
		c.secs = replaySpan(d).Seconds()
		c.Time = seconds(c.secs)
		if !d.Matched {
			c.verdict, c.message = Failed, replaySummary(d)
			c.detail = xmlSafe(replayDetail(d))
		}
		out = append(out, c)
	}
	return out
}

// replaySummary is a diff in one line: "3 differences in 240 frames (1
// changed, 1 missing, 1 extra)", or why the replay stopped.
func replaySummary(d ReplayDiff) string {
	counts := d.Counts()
	var parts []string
	for _, op := range []string{DiffChanged, DiffMissing, DiffExtra} {
		if n := counts[op]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, op))
		}
	}
	s := fmt.Sprintf("%s in %s", plural(d.Differs(), "difference"), plural(len(d.Rows), "frame"))
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	if d.Error != "" {
		s = "stopped early: " + d.Error + "; " + s
	}
	return s
}

// replayDetail lists a diff's differing rows in plain text, one frame a
// line and one member a line below a changed row.
func replayDetail(d ReplayDiff) string {
	var b strings.Builder
	who := "server"
	if d.Side == wire.ClientToServer {
		who = "client"
	}
	fmt.Fprintf(&b, "Replay of %s", d.Conn)
	if d.Replayed != "" {
		fmt.Fprintf(&b, " as %s", d.Replayed)
	}
	if d.URL != "" {
		fmt.Fprintf(&b, " (%s)", d.URL)
	}
	fmt.Fprintf(&b, ", %s stream (%s): %s\n", who, d.Side, replaySummary(d))
	if len(d.Masks) > 0 {
		fmt.Fprintf(&b, "Masked: %s\n", strings.Join(d.Masks, ", "))
	}
	shown := 0
	for i, row := range d.Rows {
		if !row.Differs() {
			continue
		}
		if shown == junitReplayRows {
			fmt.Fprintf(&b, "\n… and %d more differing rows (the HTML report has them all)\n", d.Differs()-shown)
			break
		}
		shown++
		fmt.Fprintf(&b, "\nrow %d %s\n", i+1, row.Op)
		if row.Recorded != nil {
			fmt.Fprintf(&b, "  recorded: %s\n", replayFrameLine(row.Recorded, row.Op != DiffChanged))
		}
		if row.Replayed != nil {
			fmt.Fprintf(&b, "  replayed: %s\n", replayFrameLine(row.Replayed, row.Op != DiffChanged))
		}
		for _, m := range row.Members {
			fmt.Fprintf(&b, "    %s: %s → %s\n", orSlash(m.Pointer), orAbsent(m.Recorded), orAbsent(m.Replayed))
		}
	}
	return b.String()
}

// replayFrameLine is a frame in one line: index, direction, type, ordering
// value and, with payload, the payload's start.
func replayFrameLine(f *Frame, payload bool) string {
	c := newReplayCell(f)
	s := fmt.Sprintf("#%d %s %s", c.Index, c.Arrow, c.Type)
	if c.Seq != "" {
		s += " [" + c.Seq + "]"
	}
	if payload && c.Preview != "" {
		s += " " + c.Preview
	}
	return s
}

func orAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}

func orSlash(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// replaySpan is how long a replayed connection took: its replayed frames'
// first to last time.
func replaySpan(d ReplayDiff) time.Duration {
	var t0, t1 time.Time
	for _, r := range d.Rows {
		if r.Replayed == nil || r.Replayed.Time.IsZero() {
			continue
		}
		if t0.IsZero() || r.Replayed.Time.Before(t0) {
			t0 = r.Replayed.Time
		}
		if r.Replayed.Time.After(t1) {
			t1 = r.Replayed.Time
		}
	}
	return t1.Sub(t0)
}
