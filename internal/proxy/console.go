package proxy

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fatih/color"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// liveConsole is the live log: one line per frame and per connection
// event, a highlighted block per finding. It is written by the validator
// goroutine only, through a buffer flushed once per batch, so a slow
// terminal slows the validator (whose queue then overflows into a reported
// gap), never the relay.
//
//	10:04:05.123 c1 open /ws → ws://127.0.0.1:7337/ws
//	10:04:05.124 c1 → hello                          52 B
//	10:04:05.126 c1 ← welcome                       310 B
//	10:04:05.127 c1 ← assistant_text  event_id=7    1.0 KiB
//	10:04:05.130 c1 session sess_1
//	10:04:06.000 c1 closed 1000 "bye" by client · 12 frames
//
// With Quiet only findings, failures (upstream unreachable, recording
// stopped) and the summary are printed.
//
// Everything goes through the Printer, never to the buffer directly: what
// a peer controls (types, close reasons, paths, session ids, messages) is
// redacted and escaped on the way, so a frame cannot drive the terminal.
type liveConsole struct {
	w     *bufio.Writer // flushed here, written through pr only
	pr    *console.Printer
	quiet bool
	on    bool

	c2s, s2c, dim, conn, warn *color.Color
}

func newLiveConsole(w io.Writer, quiet bool, mode string) *liveConsole {
	if w == nil {
		return &liveConsole{}
	}
	if mode == "" {
		mode = console.ColorAuto
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	on := console.UseColor(w, mode)
	mk := func(attrs ...color.Attribute) *color.Color { return console.NewColor(on, attrs...) }
	pm := console.ColorNever
	if on {
		pm = console.ColorAlways
	}
	return &liveConsole{w: bw, pr: console.New(bw, pm), quiet: quiet, on: on,
		c2s: mk(color.FgCyan), s2c: mk(color.FgGreen), dim: mk(color.Faint), conn: mk(color.Bold), warn: mk(color.FgYellow)}
}

func (lc *liveConsole) flush() {
	if lc.w != nil {
		_ = lc.w.Flush()
	}
}

func (lc *liveConsole) verbose() bool { return lc.w != nil && !lc.quiet }

func (lc *liveConsole) stamp(t time.Time) {
	lc.pr.Color(lc.dim, "%s ", t.Format("15:04:05.000"))
}

func (lc *liveConsole) open(ev event, faults []fault.Spec) {
	if !lc.verbose() {
		return
	}
	c := ev.c
	lc.stamp(ev.time)
	lc.pr.Color(lc.conn, "%s", c.id)
	lc.pr.Printf(" open %s", c.path)
	lc.pr.Color(lc.dim, " → %s", redact(c.url))
	if c.subprotocol != "" {
		lc.pr.Color(lc.dim, " · subprotocol %s", c.subprotocol)
	}
	if ev.session != "" {
		lc.pr.Color(lc.dim, " · session %s", ev.session)
	}
	if len(faults) > 0 {
		lc.pr.Color(lc.warn, " · faults %s", faultList(faults))
	}
	lc.pr.Printf("\n")
}

func (lc *liveConsole) frame(f wire.Frame, typ, seqLabel, seq string) {
	if !lc.verbose() {
		return
	}
	lc.stamp(f.Time)
	lc.pr.Color(lc.conn, "%-4s", f.Conn)
	arrow := lc.s2c
	if f.Dir == wire.ClientToServer {
		arrow = lc.c2s
	}
	lc.pr.Color(arrow, " %s ", f.Dir.Arrow())
	switch f.Op {
	case wire.OpText:
		if typ == "" {
			typ = "(no type)"
		}
		lc.pr.Color(arrow, "%-24s", typ)
	case wire.OpClose:
		lc.pr.Color(lc.dim, "%-24s", fmt.Sprintf("[close %d %q]", f.CloseCode, f.Payload))
	default:
		lc.pr.Color(lc.dim, "%-24s", "["+f.Op.String()+"]")
	}
	if seq != "" {
		lc.pr.Printf(" %-14s", seqLabel+"="+seq)
	} else {
		lc.pr.Printf(" %-14s", "")
	}
	lc.pr.Color(lc.dim, " %9s\n", size(len(f.Payload)))
}

func (lc *liveConsole) bind(ev event) {
	if !lc.verbose() {
		return
	}
	lc.stamp(ev.time)
	lc.pr.Color(lc.conn, "%s", ev.c.id)
	lc.pr.Printf(" session %s", ev.session)
	if ev.parent != "" {
		lc.pr.Color(lc.dim, " (reconnects %s)", ev.parent)
	}
	lc.pr.Printf("\n")
}

func (lc *liveConsole) closed(ev event, frames int64) {
	if !lc.verbose() {
		return
	}
	lc.stamp(ev.time)
	lc.pr.Color(lc.conn, "%s", ev.c.id)
	e := ev.end
	text := fmt.Sprintf(" closed %d", e.code)
	if e.reason != "" {
		text += fmt.Sprintf(" %q", e.reason)
	}
	text += " by " + e.by
	if e.code == 1000 || e.code == 1001 {
		lc.pr.Printf("%s", text)
	} else {
		lc.pr.Color(lc.warn, "%s", text)
	}
	lc.pr.Color(lc.dim, " · %d frames\n", frames)
}

func (lc *liveConsole) dialect(ev event) {
	if lc.w == nil {
		return
	}
	if ev.dialect == "" {
		lc.stamp(ev.time)
		lc.pr.Color(lc.warn, "dialect not detected: %s; frames are relayed and recorded, not checked\n", ev.reason)
		return
	}
	if lc.quiet {
		return
	}
	lc.stamp(ev.time)
	lc.pr.Printf("dialect %s", ev.dialect)
	lc.pr.Color(lc.dim, " (%s)\n", ev.reason)
}

func (lc *liveConsole) note(ev event) {
	if lc.w == nil || (lc.quiet && !ev.isErr) {
		return
	}
	lc.stamp(ev.time)
	if ev.isErr {
		lc.pr.Fail("%s\n", ev.text)
		return
	}
	lc.pr.Color(lc.dim, "%s\n", ev.text)
}

// finding prints a finding in full, or, when it repeats a problem the
// session already showed (same rule, side, message type and member), one
// line that points at the first: the same warning on 18 acks is one
// problem, read once.
func (lc *liveConsole) finding(f check.Finding, session string, first int64, repeat bool) {
	if lc.w == nil {
		return
	}
	if !repeat {
		lc.pr.Finding(f, session)
		return
	}
	lc.pr.Printf("  ")
	lc.pr.Severity(f.Severity)
	lc.pr.Bold(" %s", f.Rule)
	lc.pr.Color(lc.dim, "  frame %d · %s · %s · same problem as frame %d\n", f.Frame, f.Conn, oneLine(f.Message), first)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// size renders a byte count for the log.
func size(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}

// printSummary writes the end-of-run summary.
func (v *validator) printSummary(r *reports.Report) {
	lc := v.cons
	if lc.w == nil {
		return
	}
	defer lc.flush()
	r = reports.Redact(r) // the console shows what the reports show
	conns, frames := 0, int64(0)
	for _, s := range r.Sessions {
		conns += len(s.Conns)
		frames += s.FramesTotal
	}
	lc.pr.Printf("\nwsproxy: %s · %s · %s", plural(len(r.Sessions), "session"), plural(conns, "connection"), plural(int(frames), "frame"))
	if n := v.p.tap.uncheckedFrames(); n > 0 {
		lc.pr.Color(lc.warn, " (%d not checked)", n)
	}
	if v.dialectName != "" {
		lc.pr.Printf(" · %s", v.dialectName)
	}
	lc.pr.Printf("\n")
	for _, s := range r.Sessions {
		var c console.Counts
		for _, f := range s.Findings {
			c.Add(f.Severity)
		}
		lc.pr.Printf("  ")
		switch s.Verdict {
		case reports.Error:
			lc.pr.Fail("✗ %-10s", s.Verdict)
		case reports.Failed:
			lc.pr.Fail("✗ %-10s", s.Verdict)
		case reports.NonStrict:
			lc.pr.Warn("! %-10s", s.Verdict)
		default:
			lc.pr.Pass("✓ %-10s", s.Verdict)
		}
		lc.pr.Printf(" %s", s.ID)
		lc.pr.Color(lc.dim, "  %s, %s, %s\n", plural(len(s.Conns), "connection"), plural(int(s.FramesTotal), "frame"), c)
	}
	for _, n := range r.Notes {
		lc.pr.Color(lc.dim, "  %s\n", n)
	}
	for _, e := range r.Errors {
		lc.pr.Fail("  error: %s\n", e)
	}
	total := v.totals.String()
	switch {
	case r.Verdict == reports.Error:
		lc.pr.Fail("ERROR  %s: nothing or not everything could be tested\n", total)
	case v.totals.Errors > 0 || r.Verdict == reports.Failed:
		lc.pr.Fail("FAIL  %s\n", total)
	case v.totals.Warnings > 0:
		lc.pr.Warn("PASS (non-strict)  %s\n", total)
	default:
		lc.pr.Pass("PASS  %s\n", total)
	}
}

// Counts is the number of findings by severity over the whole run, once
// Shutdown has returned (zero before).
func (p *Proxy) Counts() (errors, warnings, infos int) {
	if !p.finished() {
		return 0, 0, 0
	}
	t := p.val.totals
	return t.Errors, t.Warnings, t.Infos
}
