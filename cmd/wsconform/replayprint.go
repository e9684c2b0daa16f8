package main

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/reports"
)

// againstConsoleRows is how many differing rows the console prints per
// connection (the reports hold them all).
const againstConsoleRows = 12

// againstConsoleMembers is how many members of a changed row it prints.
const againstConsoleMembers = 8

// printAgainst prints one line per connection with its diff count, the
// differing rows (every row with verbose), the distinct problems the check
// engine found in the new traffic, notes and the verdict, redacted.
func printAgainst(p *console.Printer, rep *reports.Report, quiet, verbose bool) {
	rep = reports.Redact(rep) // the console shows what the reports show
	differ := 0
	for _, d := range rep.Replays {
		if !d.Matched {
			differ++
		}
		if quiet && d.Matched {
			continue
		}
		printAgainstConn(p, d, verbose)
	}
	printRootCauses(p, rep)
	if !quiet && len(rep.Notes) > 0 {
		p.Printf("\n")
		for _, n := range rep.Notes {
			p.Dim("note: %s\n", n)
		}
	}
	var c console.Counts
	for _, s := range rep.Sessions {
		for _, f := range s.Findings {
			c.Add(f.Severity)
		}
	}
	p.Printf("\n")
	switch rep.Verdict {
	case reports.Passed:
		p.Pass("PASS")
	case reports.NonStrict:
		p.Warn("PASS (non-strict)")
	case reports.Failed:
		p.Fail("FAIL")
	default:
		p.Fail("ERROR")
	}
	n := len(rep.Replays)
	p.Printf("  %d of %d %s match the recording · %s\n", n-differ, n, plural(n, "connection", "connections"), c)
}

func printAgainstConn(p *console.Printer, d reports.ReplayDiff, verbose bool) {
	p.Printf("  ")
	replayed := d.Replayed
	if replayed == "" {
		replayed = "-"
	}
	p.Bold("%s", d.Conn)
	p.Dim(" → %s  %s", replayed, againstPath(d.URL))
	n := d.Differs()
	rows := fmt.Sprintf("  %d %s, ", len(d.Rows), plural(len(d.Rows), "message", "messages"))
	switch {
	case d.Matched:
		p.Pass("%sno diff%s\n", rows, shownOnly(d.Counts()))
	case n == 0:
		p.Fail("  did not replay\n")
	default:
		p.Fail("%s%d %s\n", rows, n, plural(n, "diff", "diffs"))
	}
	if d.Error != "" {
		p.Fail("      %s\n", d.Error)
	}
	shown := 0
	for _, r := range d.Rows {
		if !r.Differs() && !verbose {
			continue
		}
		if !verbose && shown == againstConsoleRows {
			p.Dim("      … %d more in the reports\n", n-shown)
			break
		}
		shown++
		printAgainstRow(p, r, reports.SeqLabel(d.Dialect))
	}
}

func printAgainstRow(p *console.Printer, r reports.ReplayRow, seq string) {
	switch r.Op {
	case reports.DiffSame:
		p.Dim("      = same     %s\n", againstFrame(r.Replayed, seq))
	case reports.DiffMoved:
		p.Dim("      ↕ moved    %s → %s\n", againstFrame(r.Recorded, seq), againstIndex(r.Replayed))
	case reports.DiffLate:
		p.Dim("      … late     %s\n", againstFrame(r.Replayed, seq))
	case reports.DiffChanged:
		p.Warn("      ~ changed")
		p.Printf("  %s → %s\n", againstFrame(r.Recorded, seq), againstIndex(r.Replayed))
		for i, m := range r.Members {
			if i == againstConsoleMembers {
				p.Dim("          … %d more members in the reports\n", len(r.Members)-i)
				break
			}
			p.Dim("          %s: ", againstPointer(m.Pointer))
			p.Printf("%s → %s\n", againstMember(m.Recorded), againstMember(m.Replayed))
		}
	case reports.DiffMissing:
		p.Fail("      - missing")
		p.Printf("  %s\n", againstFrame(r.Recorded, seq))
	case reports.DiffExtra:
		p.Fail("      + extra  ")
		p.Printf("  %s\n", againstFrame(r.Replayed, seq))
	}
}

// shownOnly says which rows a matching diff has that are shown, not
// counted: moved and late ones.
func shownOnly(counts map[string]int) string {
	var parts []string
	if n := counts[reports.DiffMoved]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d moved a few places: independent messages in another order", n))
	}
	if n := counts[reports.DiffLate]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d late: sent after the recorded client had left", n))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// againstFrame names a frame in one line: type (or close code), its
// connection and index, its ordering value, and the start of its payload.
func againstFrame(f *reports.Frame, seq string) string {
	if f == nil {
		return "-"
	}
	what := f.Type
	switch {
	case f.Op == "close":
		what = fmt.Sprintf("close %d", f.CloseCode)
		if f.Payload != "" {
			what += " " + fmt.Sprintf("%q", f.Payload)
		}
		return fmt.Sprintf("%s  %s#%d", what, f.Conn, f.Index)
	case what == "":
		what = f.Op
	}
	s := fmt.Sprintf("%s  %s#%d", what, f.Conn, f.Index)
	if f.Seq != "" {
		s += " " + seq + " " + f.Seq
	}
	return s + "  " + againstClip(f.Payload, 80)
}

// againstPath is a recorded URL without its scheme and host (those of
// the recording's proxy, not of the server replayed against).
func againstPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.RequestURI()
}

func againstIndex(f *reports.Frame) string {
	if f == nil {
		return "-"
	}
	return fmt.Sprintf("%s#%d", f.Conn, f.Index)
}

func againstPointer(p string) string {
	if p == "" {
		return "(message)"
	}
	return p
}

// againstMember shows one side of a member diff: absent, or its JSON.
func againstMember(v string) string {
	if v == "" {
		return "(absent)"
	}
	return againstClip(v, 60)
}

func againstClip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
