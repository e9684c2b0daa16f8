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
// Markdown: the verdict, the distinct problems (root causes) in a table,
// each once with how many findings and which scenarios it reached, the
// replayed connections with their first differing rows, a table
// of counts (per target for a run, per
// dialect for sessions), each failure with its reason and the command that
// re-runs it, harness errors and stale baseline entries. It stays under
// 64 KiB whatever the report holds.
func WriteMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	mdHeader(&b, r)
	mdCoverage(&b, r)
	mdRootCauses(&b, r)
	mdReplays(&b, r)
	mdCounts(&b, r)
	mdFailures(&b, r)
	mdObservations(&b, r)
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

var mdEmoji = map[Verdict]string{Passed: "✅", Observation: "🔎", NonStrict: "⚠️", Failed: "❌", Flaky: "🔀", Inconclusive: "❔", Skipped: "⏭️", NotRun: "⏹️", Error: "⛔"}

func mdHeader(b *strings.Builder, r *Report) {
	kind := map[string]string{KindRun: "conformance run", KindProxy: "proxy session", KindValidate: "recording validation",
		KindGate: "client gate", KindReplay: "replay"}[r.Kind]
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
	l := lede(noun, total, count)
	if rl := replayLede(r.Replays); rl != "" {
		l = withReplayLede(rl, l, total)
	}
	facts = append(facts, "**"+mdText(l)+"**")
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
	if r.Interrupted != "" {
		fmt.Fprintf(b, "%s **%s**: the %ss that did not finish are not run; they say nothing either way.\n\n", mdEmoji[NotRun], mdText(upperFirst(r.Interrupted)), noun)
	}
}

// upperFirst capitalises the first letter of a sentence.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
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
	// not-run has a column only in an interrupted report, observation
	// only in a report that has some
	var cols []Verdict
	for _, v := range Verdicts {
		if (v != NotRun && v != Observation) || r.Counts[v] > 0 {
			cols = append(cols, v)
		}
	}
	b.WriteString("| " + head)
	for _, v := range cols {
		fmt.Fprintf(b, " | %s %s", mdEmoji[v], v)
	}
	b.WriteString(" |\n|---" + strings.Repeat("|---:", len(cols)) + "|\n")
	for _, x := range rows {
		b.WriteString("| " + mdText(x.name))
		for _, v := range cols {
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
	idx, steps := r.rootIndex(), r.stepCauseIndex()
	for _, s := range r.Scenarios {
		if (s.Verdict != Failed && s.Verdict != Error && s.Verdict != Flaky) || s.Baselined != "" {
			continue
		}
		k := -1
		if s.Verdict == Failed {
			k = r.explainedBy(idx, s.Findings, true, s.Reason)
		}
		if k < 0 {
			k = r.stepCauseOf(steps, &s)
		}
		line := fmt.Sprintf("- %s **`%s`** %s", mdEmoji[s.Verdict], mdCodeText(s.ID), mdText(s.Name))
		if multi {
			line += " (" + mdText(s.Target) + ")"
		}
		switch {
		case k >= 0 && r.RootCauses[k].Step != nil:
			line += fmt.Sprintf("  \n  root cause %d: this step failed the same way in %s", k+1, plural(r.RootCauses[k].Count, "scenario"))
		case k >= 0: // the root cause table says it once
			line += fmt.Sprintf("  \n  root cause %d: `%s`", k+1, mdCodeText(r.RootCauses[k].Rule))
		case s.Reason != "":
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
		line += mdSessionErrors(r, idx, s)
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

// mdSessionErrors lists the errors that failed a session: each root
// cause once (with its first frame and how many more findings), and any
// error without one as it is; three at most.
func mdSessionErrors(r *Report, idx map[rootKey]int, s Session) string {
	var out []string
	seen := map[int]int{} // root cause → position in out
	extra := map[int]int{}
	for _, f := range s.Findings {
		if f.Severity < check.Error || !r.Judged(f, false) { // the errors that made the verdict
			continue
		}
		k := r.rootOf(idx, f, false)
		if _, ok := seen[k]; ok && k >= 0 {
			extra[k]++
			continue
		}
		if len(out) == 3 {
			out = append(out, "…")
			break
		}
		if k >= 0 {
			seen[k] = len(out)
			out = append(out, fmt.Sprintf("root cause %d: `%s` frame %d", k+1, mdCodeText(f.Rule), f.Frame))
			continue
		}
		out = append(out, fmt.Sprintf("`%s` frame %d: %s", mdCodeText(f.Rule), f.Frame, mdText(cutRunes(f.Message, mdMaxReason))))
	}
	for k, n := range extra {
		out[seen[k]] += fmt.Sprintf(" and %s", plural(n, "more finding"))
	}
	if len(out) == 0 {
		return ""
	}
	return "  \n  " + strings.Join(out, "  \n  ")
}

// mdWhereShown is how many scenarios or sessions a root cause's row names
// before "and N more".
const mdWhereShown = 3

// mdRootCauses writes the distinct problems: one row per root cause with
// its severity, rule, evidence, message type and member, count, where it
// was seen and expected vs actual.
func mdRootCauses(b *strings.Builder, r *Report) {
	if len(r.RootCauses) == 0 {
		return
	}
	var sev [3]int
	other := map[Verdict]int{} // step causes below a warning, by verdict
	for _, rc := range r.RootCauses {
		if rc.Step != nil && rc.Severity < check.Warning {
			other[rc.Step.Verdict]++
			continue
		}
		sev[min(int(rc.Severity), 2)]++
	}
	var parts []string
	for s := check.Error; s >= check.Info; s-- {
		if sev[s] > 0 {
			parts = append(parts, severityWord(s, sev[s]))
		}
	}
	for _, v := range []Verdict{Observation, Inconclusive} {
		if n := other[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	fmt.Fprintf(b, "#### %s (%s)\n\n", plural(len(r.RootCauses), "distinct problem"), strings.Join(parts, ", "))
	b.WriteString("| # | severity | rule | evidence | type / member | count | seen in | expected → actual |\n")
	b.WriteString("|---:|---|---|---|---|---:|---|---|\n")
	alone := false
	var hyps []string // the step causes' hypotheses, under the table
	for i, rc := range r.RootCauses {
		if i == mdMaxItems {
			fmt.Fprintf(b, "\n… and %d more root causes: see the HTML report\n", len(r.RootCauses)-i)
			break
		}
		if rc.Step != nil {
			st := rc.Step
			fmt.Fprintf(b, "| %d | %s %s | `step` %s | — | %s | %d | %s | expected %s, got %s |\n", i+1, mdEmoji[st.Verdict], st.Verdict,
				mdCell(cutRunes(st.Step, 80)), mdCell(st.Awaited), rc.Count, mdWhere(rc), mdCell(cutRunes(rc.Expected, 60)), mdCell(cutRunes(st.Got, 60)))
			if st.Hypothesis != "" {
				hyps = append(hyps, fmt.Sprintf("%d: %s", i+1, mdText(cutRunes(st.Hypothesis, mdMaxReason))))
			}
			continue
		}
		mark := map[check.Severity]string{check.Error: "❌", check.Warning: "⚠️"}[rc.Severity]
		sv := strings.TrimSpace(mark + " " + rc.Severity.String())
		if rc.Background {
			sv += " ⚑"
			alone = true
		}
		ev := string(rc.Evidence)
		if ev == "" {
			ev = "—"
		}
		subject := "—"
		if s := rc.Subject(); s != "" {
			subject = mdCell(s)
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s | %s | %d | %s | %s |\n", i+1, sv, mdCell(rc.Rule), ev, subject, rc.Count,
			mdWhere(rc), mdExpectedActual(rc))
	}
	if alone {
		b.WriteString("\n⚑ seen on frames no step of its scenario was about: it decides the verdict by itself\n")
	}
	if len(hyps) > 0 {
		b.WriteString("\nLikely causes of the step failures:\n\n")
		for _, h := range hyps {
			b.WriteString("- " + h + "\n")
		}
	}
	b.WriteString("\n")
}

// mdWhere names the first few scenarios or sessions a root cause reached.
func mdWhere(rc RootCause) string {
	where := rc.Where()
	var out []string
	for i, w := range where {
		if i == mdWhereShown {
			out = append(out, fmt.Sprintf("and %d more", len(where)-i))
			break
		}
		if id, ok := strings.CutPrefix(w, "session "); ok {
			out = append(out, "session "+mdCell(id))
		} else {
			out = append(out, mdCell(w))
		}
	}
	if len(out) == 0 {
		return "—"
	}
	if len(out) > 1 && strings.HasPrefix(out[len(out)-1], "and ") {
		return strings.Join(out[:len(out)-1], ", ") + " " + out[len(out)-1]
	}
	return strings.Join(out, ", ")
}

func mdExpectedActual(rc RootCause) string {
	if rc.Expected == "" && rc.Actual == "" {
		return mdText(cutRunes(rc.Message, 120))
	}
	return "expected " + mdCell(cutRunes(rc.Expected, 60)) + ", actual " + mdCell(cutRunes(rc.Actual, 60))
}

// mdCell is a code span for a table cell: one line, no backtick, pipes
// escaped (GitHub splits cells at a pipe even inside a code span). Text
// with <, > or & is written as escaped text instead, so that the summary
// never holds anything that looks like markup.
func mdCell(s string) string {
	switch {
	case s == "":
		return "—"
	case strings.ContainsAny(s, "<>&"):
		return mdText(s)
	}
	return "`" + strings.ReplaceAll(mdCodeText(s), "|", "\\|") + "`"
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
