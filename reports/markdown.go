package reports

import (
	"fmt"

	"io"
	"os"
	"strings"

	"github.com/wsconform/wsconform/internal/check"
)

// Bounds of the Markdown summary: GitHub caps a step summary at 1 MiB, and
// a summary is for reading at a glance; the HTML report has the rest.
const (
	mdMaxItems  = 20
	mdMaxReason = 400
	mdMaxBytes  = 64 << 10
)

// WriteMarkdown writes a short summary of the report in GitHub-flavoured
// Markdown: the verdict, a table of counts (per target for a run, per
// dialect for sessions), each failure with its reason and the command that
// re-runs it, harness errors and stale baseline entries. It stays under
// 64 KiB whatever the report holds.
func WriteMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	mdHeader(&b, r)
	mdCounts(&b, r)
	mdFailures(&b, r)
	mdList(&b, "Harness errors", r.Errors)
	var stale []string
	for _, s := range r.Stale {
		line := "`" + mdCodeText(s.ID) + "`"
		if s.Target != "" {
			line += " on " + mdText(s.Target)
		}
		stale = append(stale, line+" passes now ("+mdText(s.Reason)+"): remove it from the baseline")
	}
	mdListRaw(&b, "Stale baseline entries", stale)
	mdList(&b, "Notes", r.Notes)
	out := b.String()
	if len(out) > mdMaxBytes {
		cut := strings.LastIndexByte(out[:mdMaxBytes], '\n')
		out = out[:cut+1] + "\n… (summary cut; the HTML report has everything)\n"
	}
	if _, err := io.WriteString(w, out); err != nil {
		return fmt.Errorf("write markdown summary: %w", err)
	}
	return nil
}

// AppendStepSummary appends the Markdown summary to the file named by
// $GITHUB_STEP_SUMMARY (the job summary of GitHub Actions). It does nothing
// when that variable is not set.
func AppendStepSummary(r *Report) error {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("append step summary: %w", err)
	}
	if err := WriteMarkdown(f, r); err != nil {
		f.Close()
		return fmt.Errorf("append step summary: %w", err)
	}
	if _, err := io.WriteString(f, "\n"); err != nil {
		f.Close()
		return fmt.Errorf("append step summary: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("append step summary: %w", err)
	}
	return nil
}

var mdEmoji = map[Verdict]string{Passed: "✅", NonStrict: "⚠️", Failed: "❌", Skipped: "⏭️", Error: "⛔"}

func mdHeader(b *strings.Builder, r *Report) {
	kind := map[string]string{KindRun: "conformance run", KindProxy: "proxy session", KindValidate: "recording validation",
		KindGate: "client gate"}[r.Kind]
	if kind == "" {
		kind = mdText(r.Kind)
	}
	fmt.Fprintf(b, "### %s wsconform %s: %s\n\n", mdEmoji[r.Verdict], kind, r.Verdict)
	noun := "session"
	switch r.Kind {
	case KindRun:
		noun = "scenario"
	case KindGate:
		noun = "check"
	}
	count, total := map[Verdict]int{}, 0
	for _, v := range Verdicts {
		count[v] = r.Counts[v]
		total += r.Counts[v]
	}
	var facts []string
	facts = append(facts, "**"+mdText(lede(noun, total, count))+"**")
	if len(r.Dialects) > 0 {
		facts = append(facts, mdText(strings.Join(r.Dialects, ", ")))
	}
	for i, t := range r.Targets {
		if i == 3 {
			facts = append(facts, fmt.Sprintf("%d more", len(r.Targets)-3))
			break
		}
		s := mdText(t.Name)
		if t.URL != "" && t.URL != t.Name {
			s += " `" + mdCodeText(t.URL) + "`"
		}
		facts = append(facts, s)
	}
	facts = append(facts, fmtDuration(r.Finished.Sub(r.Started)), mdText(r.Tool))
	b.WriteString(strings.Join(facts, " · ") + "\n\n")
}

// mdCounts writes the verdict table: a row per target of a run, a row per
// dialect of sessions.
func mdCounts(b *strings.Builder, r *Report) {
	type row struct {
		name  string
		count map[Verdict]int
	}
	var rows []*row
	byName := map[string]*row{}
	get := func(name string) *row {
		if x, ok := byName[name]; ok {
			return x
		}
		x := &row{name: name, count: map[Verdict]int{}}
		byName[name] = x
		rows = append(rows, x)
		return x
	}
	head := "target"
	for _, t := range r.Targets {
		if r.Kind == KindRun {
			get(t.Name)
		}
	}
	for _, s := range r.Scenarios {
		get(s.Target).count[s.Verdict]++
	}
	if len(r.Sessions) > 0 {
		suffix := ""
		if len(r.Scenarios) > 0 {
			head, suffix = "", " sessions"
		} else {
			head = "sessions"
		}
		for _, s := range r.Sessions {
			get(s.Dialect + suffix).count[s.Verdict]++
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("| " + head)
	for _, v := range Verdicts {
		fmt.Fprintf(b, " | %s %s", mdEmoji[v], v)
	}
	b.WriteString(" |\n|---|---:|---:|---:|---:|---:|\n")
	for _, x := range rows {
		b.WriteString("| " + mdText(x.name))
		for _, v := range Verdicts {
			fmt.Fprintf(b, " | %d", x.count[v])
		}
		b.WriteString(" |\n")
	}
	b.WriteString("\n")
}

func mdFailures(b *strings.Builder, r *Report) {
	var lines []string
	more := 0
	add := func(s string) {
		if len(lines) < mdMaxItems {
			lines = append(lines, s)
		} else {
			more++
		}
	}
	multi := len(r.Targets) > 1
	for _, s := range r.Scenarios {
		if (s.Verdict != Failed && s.Verdict != Error) || s.Baselined != "" {
			continue
		}
		line := fmt.Sprintf("- %s **`%s`** %s", mdEmoji[s.Verdict], mdCodeText(s.ID), mdText(s.Name))
		if multi {
			line += " (" + mdText(s.Target) + ")"
		}
		if s.Reason != "" {
			line += "  \n  " + mdText(cutRunes(s.Reason, mdMaxReason))
		}
		if s.Rerun != "" {
			line += "  \n  re-run: " + mdCode(s.Rerun)
		}
		add(line)
	}
	for _, s := range r.Sessions {
		if s.Verdict != Failed && s.Verdict != Error {
			continue
		}
		line := fmt.Sprintf("- %s **session `%s`**", mdEmoji[s.Verdict], mdCodeText(s.ID))
		if s.Source != "" && !strings.HasPrefix(s.ID, s.Source) {
			line += " in " + mdText(s.Source)
		}
		shown := 0
		for _, f := range s.Findings {
			if f.Severity < check.Error || !r.Judged(f, false) { // the errors that made the verdict
				continue
			}
			if shown == 3 {
				line += "  \n  …"
				break
			}
			shown++
			line += fmt.Sprintf("  \n  `%s` frame %d: %s", mdCodeText(f.Rule), f.Frame, mdText(cutRunes(f.Message, mdMaxReason)))
		}
		add(line)
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "#### Failures (%d)\n\n%s\n", len(lines)+more, strings.Join(lines, "\n"))
	if more > 0 {
		fmt.Fprintf(b, "- … and %d more: see the HTML report\n", more)
	}
	b.WriteString("\n")
}

func mdList(b *strings.Builder, title string, items []string) {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = mdText(cutRunes(s, mdMaxReason))
	}
	mdListRaw(b, title, out)
}

func mdListRaw(b *strings.Builder, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "#### %s\n\n", title)
	for i, s := range items {
		if i == mdMaxItems {
			fmt.Fprintf(b, "- … and %d more\n", len(items)-i)
			break
		}
		b.WriteString("- " + s + "\n")
	}
	b.WriteString("\n")
}

// mdText makes text from the wire or a feature file inert in Markdown:
// one line, punctuation that Markdown or HTML would act on escaped.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
			b.WriteRune('\uFFFD')
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case strings.ContainsRune("\\`*_[]|~", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCodeText is text for inside a one-backtick code span: one line, no
// backtick, no control character.
func mdCodeText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '`':
			return '\''
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f:
			return '\uFFFD'
		}
		return r
	}, s)
}

// mdCode is a code span that shows s exactly (a command line), with a
// fence longer than any run of backticks inside.
func mdCode(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s)
	fence, run := "`", 0
	for _, r := range s {
		if r == '`' {
			run++
			if run >= len(fence) {
				fence += "`"
			}
		} else {
			run = 0
		}
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
