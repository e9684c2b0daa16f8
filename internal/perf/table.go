package perf

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/wsconform/wsconform/internal/dialect"
)

// Group is what one group of measures (ci/bench's --only names) gave.
type Group struct {
	Name    string
	Figures []Figure
	Err     error // the measure failed: the row says so
	// Load is the 1-minute load average when the group started: other
	// work on the machine comes and goes within one run.
	Load string
}

// Machine says where the figures were taken, printed above the table:
// figures from a machine shared with other work mean little without it.
type Machine struct {
	Cores                 int
	CPU                   string // model name, "" when unknown
	LoadBefore, LoadAfter string // /proc/loadavg's three averages
	Go                    string
	Commit                string
	Mitmproxy             string // its path and version, or why not
}

// Table is one run of the benchmark command: the machine and every
// group's figures, one row a figure.
type Table struct {
	Machine Machine
	Rounds  int
	Quick   bool
	Groups  []Group
	// NotInstalled says, for a subject whose program is missing, how to
	// install it ("mitmproxy" → "not installed: apt-get install mitmproxy"):
	// a goal held to it is shown as that, not as a missing figure.
	NotInstalled map[string]string
}

// Row is one line of the table, its cells as printed.
type Row struct {
	Group, Figure, Medians, Ratio, Goal, Met string
	Note                                     int // footnote number, 0 for none
}

// Rows lays the table out, with its footnotes (Row.Note numbers them from 1).
func (t *Table) Rows() ([]Row, []string) {
	var rows []Row
	var notes []string
	note := func(s string) int {
		if s == "" {
			return 0
		}
		notes = append(notes, s)
		return len(notes)
	}
	for _, g := range t.Groups {
		if g.Err != nil {
			rows = append(rows, Row{Group: g.Name, Figure: "—", Medians: "failed: " + g.Err.Error()})
			continue
		}
		for i := range g.Figures {
			rows = append(rows, t.row(g.Name, &g.Figures[i], note))
		}
	}
	return rows, notes
}

func (t *Table) row(group string, f *Figure, note func(string) int) Row {
	r := Row{Group: group, Figure: f.Name, Goal: f.Goal}
	if f.Unit != "" {
		r.Figure += " (" + f.Unit + ")"
	}
	order := subjectOrder(f)
	var ms []string
	for _, s := range order {
		m, _ := f.Median(s)
		ms = append(ms, s+" "+human(m))
	}
	r.Medians = strings.Join(ms, ", ")
	if r.Medians == "" {
		r.Medians = "no figure"
	}
	r.Note = note(f.Note)
	gs, ok := parseGoal(f.Goal)
	if !ok {
		if f.Goal != "" {
			r.Met = "not judged (goal not read)"
		}
		return r
	}
	var ratios, met []string
	judged, metAll, metNone := true, true, true
	for _, g := range gs {
		v := g.judge(f, order, t.NotInstalled)
		if g.ref != "" {
			if v.judged {
				ratios = append(ratios, v.ratios...)
			} else {
				ratios = append(ratios, v.why)
			}
		}
		switch {
		case !v.judged:
			met = append(met, g.text+": not judged, "+v.why)
			judged = false
		case v.met:
			met = append(met, g.text+": met")
			metNone = false
		default:
			met = append(met, g.text+": not met")
			metAll = false
		}
	}
	r.Ratio = strings.Join(ratios, "; ")
	switch {
	case t.Quick:
		r.Met = "not judged (--quick)"
	case judged && metAll:
		r.Met = "met"
	case judged && metNone:
		r.Met = "not met"
	default:
		r.Met = strings.Join(met, "; ")
	}
	return r
}

// subjectOrder lists a figure's subjects in a fixed order: the relay's
// from the bare baseline up, then the dialects as wsconform lists them,
// then any others by name.
func subjectOrder(f *Figure) []string {
	known := append([]string{"direct", "tcp-relay", "wsproxy", "mitmproxy"}, dialect.Names()...)
	known = append(known, "wsconform")
	var out, rest []string
	for _, s := range known {
		if len(f.Values[s]) > 0 {
			out = append(out, s)
		}
	}
	for s, vs := range f.Values {
		if len(vs) > 0 && !slices.Contains(known, s) {
			rest = append(rest, s)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// human writes a figure with three significant digits or so: 96.4k, 1.25M,
// 9.30, 0.83.
func human(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e6:
		return fmt.Sprintf("%.2fM", v/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.1fk", v/1e3)
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a == 0:
		return "0"
	}
	return fmt.Sprintf("%.2f", v)
}

// header is the lines above the table.
func (t *Table) header() []string {
	m := t.Machine
	cpu := fmt.Sprintf("%d cores", m.Cores)
	if m.CPU != "" {
		cpu += " (" + m.CPU + ")"
	}
	lines := []string{
		fmt.Sprintf("machine: %s; load average (1, 5, 15 min) %s before, %s after", cpu, m.LoadBefore, m.LoadAfter),
		fmt.Sprintf("go: %s; commit: %s; mitmproxy: %s", m.Go, m.Commit, m.Mitmproxy),
		fmt.Sprintf("%d interleaved %s per figure, medians", t.Rounds, plural(t.Rounds, "round", "rounds")),
	}
	var loads []string
	for _, g := range t.Groups {
		if g.Load != "" {
			loads = append(loads, g.Name+" "+g.Load)
		}
	}
	if len(loads) > 0 {
		lines = append(lines, "load average (1 min) as each group started: "+strings.Join(loads, ", "))
	}
	if t.Quick {
		lines = append(lines, "--quick: tiny sizes; these figures mean nothing, they only show that the command works")
	}
	return lines
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

var trailingSpace = regexp.MustCompile(` +\n`)

var columns = []string{"group", "figure", "median", "ratio", "goal", "met"}

func (r Row) cells() []string {
	fig := r.Figure
	if r.Note > 0 {
		fig += fmt.Sprintf(" [%d]", r.Note)
	}
	return []string{r.Group, fig, r.Medians, r.Ratio, r.Goal, r.Met}
}

// WriteText writes the table for a terminal, columns aligned.
func (t *Table) WriteText(w io.Writer) error {
	rows, notes := t.Rows()
	var b strings.Builder
	for _, l := range t.header() {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(columns, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r.cells(), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeNotes(&b, notes, "")
	// tabwriter pads empty last columns; a line ends at its last word.
	text := trailingSpace.ReplaceAllString(b.String(), "\n")
	_, err := io.WriteString(w, text)
	return err
}

// WriteMarkdown writes the table to paste into docs/performance.md.
func (t *Table) WriteMarkdown(w io.Writer) error {
	rows, notes := t.Rows()
	var b strings.Builder
	for _, l := range t.header() {
		b.WriteString("- " + l + "\n")
	}
	b.WriteString("\n| " + strings.Join(columns, " | ") + " |\n|")
	b.WriteString(strings.Repeat("---|", len(columns)) + "\n")
	for _, r := range rows {
		cs := r.cells()
		for i, c := range cs {
			cs[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		b.WriteString("| " + strings.Join(cs, " | ") + " |\n")
	}
	writeNotes(&b, notes, "- ")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeNotes writes the footnotes, each line begun with prefix.
func writeNotes(b *strings.Builder, notes []string, prefix string) {
	if len(notes) == 0 {
		return
	}
	b.WriteString("\n")
	for i, n := range notes {
		fmt.Fprintf(b, "%s[%d] %s\n", prefix, i+1, n)
	}
}
