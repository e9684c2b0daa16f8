package reports

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

// The page is one template with its style sheet and script inlined, so that
// the report is a single file that opens from disk with no network.
var (
	//go:embed report.html.tmpl
	htmlTemplate string
	//go:embed report.css
	htmlCSS string
	//go:embed report.js
	htmlJS string
)

var pageTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"dur":    fmtDuration,
	"ts":     func(t time.Time) string { return t.Format("2006-01-02 15:04:05 MST") },
	"clock":  func(t time.Time) string { return t.Format("15:04:05.000") },
	"plural": plural,
	"stepMark": func(status string) string {
		switch status {
		case "passed":
			return "✓"
		case "failed":
			return "✗"
		case "skipped":
			return "–"
		}
		return "?"
	},
	"mark":  verdictMark,
	"pct":   func(n, total int) string { return fmt.Sprintf("%.3f", 100*float64(n)/float64(max(total, 1))) },
	"add":   func(a, b int) int { return a + b },
	"int":   func(n int64) int { return int(n) },
	"prose": prose,
	"txt":   textHTML,
}).Parse(htmlTemplate))

// WriteHTML writes the report as one self-contained HTML page: inline CSS
// and script, no network, readable offline, in CI artifact viewers,
// printed and in dark mode. Everything that came from the wire is escaped:
// the page's own markup is rendered by html/template, and the wire logs are
// embedded as JSON (with <, > and & escaped) that the page's script renders
// as text when a scenario or session is opened.
func WriteHTML(w io.Writer, r *Report) error {
	p, err := newPage(r)
	if err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := pageTmpl.Execute(bw, p); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}

// page is what the template renders.
type page struct {
	R           *Report
	KindLabel   string
	Noun        string // scenario or session
	Lede        string
	Duration    string
	TargetLabel string
	Counts      []verdictCount
	Total       int
	Findings    check.Severity // worst severity of any counted finding
	SevCounts   [3]int         // info, warning, error findings counted
	// JudgedLabel names whose frames the counted findings are on, and
	// IgnoredLabel those of the findings that are not judged (IgnoredN).
	JudgedLabel  string
	IgnoredLabel string
	IgnoredN     int
	Roots        []rootView
	RootSevs     string // "2 errors, 1 warning"
	// StepRoots counts the root causes that group step failures,
	// FindingRoots the others (the findings' count line names those).
	StepRoots, FindingRoots int
	// Attention lists the failures no root cause explains, each distinct
	// reason once; Explained counts the failures the root causes explain.
	Attention   []attnGroup
	AttnMore    int
	Explained   int
	Matrix      []matrixGroup
	Items       []*item
	Verdicts    []Verdict // the verdicts present, for the filter
	Dialects    []string
	TargetNames []string
	CSS         template.CSS
	JS          template.JS
	Data        template.JS
	// Replays are the report's replay diffs (reports/replay_view.go),
	// ReplayLede says how many differ, ReplayClient that a client was on
	// trial (serve --replay), not a server.
	Replays      []*replayView
	ReplayLede   string
	ReplayClient bool
	// Cov is the requirements view (reports/html_coverage.go), nil when
	// the report has no coverage.
	Cov *covView
}

type verdictCount struct {
	Verdict Verdict
	N       int
}

// item is one scenario (per target) or one session.
type item struct {
	N        int
	Anchor   string
	Sc       *Scenario
	Se       *Session
	Verdict  Verdict
	Title    string
	Dialect  string
	Target   string
	Sev      int // 0 no counted finding, 1 info, 2 warning, 3 error
	Open     bool
	Findings []findingView
	// Ignored are findings that do not decide the verdict, and IgnoredWhy
	// says why.
	Ignored    []findingView
	IgnoredWhy string
	Errors     int
	Warnings   int
	Frames     int
	Conns      []connView
	Reason     string
	// Background counts the findings on frames none of the scenario's
	// steps was about (BgSev the worst of them): they do not decide its
	// verdict.
	Background int
	BgSev      check.Severity
	// Root is the number (1-based) of the root cause that explains the
	// item's verdict, 0 when none does.
	Root int
}

// rootView is one root cause as the page shows it.
type rootView struct {
	RootCause
	N          int
	Anchor     string
	FirstHref  string
	FirstLabel string
	EvNote     string
	Where      []link // the first rootWhereShown places it touched
	WhereMore  []link // the rest
	// Wire is a step cause's wire excerpt, one line a frame; Hyp its
	// hypothesis with the `quoted` message types as code.
	Wire []string
	Hyp  template.HTML
}

// rootWhereShown is how many scenarios or sessions a root cause lists
// before "and N more".
const rootWhereShown = 8

type link struct{ Label, Href string }

// attnGroup is one distinct reason of failures no root cause explains,
// with the items that failed for it.
type attnGroup struct {
	Verdict Verdict
	Reason  string
	Items   []*item
	More    int
}

type findingView struct {
	Finding
	Anchor   string
	FrameRef string
	Related  []frameRef
	Diff     []diffLine
	N        int // index among the item's findings (the anchor's number)
	Pos      int // position in the list it is shown in
	// Root is the number (1-based) of the finding's root cause, 0 for none;
	// RootReach how far that went ("30 findings in 30 scenarios").
	Root      int
	RootReach string
	EvNote    string
}

type frameRef struct {
	Index int64
	Href  string
}

type diffLine struct{ Class, Text string }

type connView struct {
	Connection
	Depth  int
	Closed string
}

type matrixGroup struct {
	Dialect string
	Counts  []verdictCount
	Rows    []matrixRow
}

type matrixRow struct {
	ID, Name, Feature, Level string
	Items                    string
	Cells                    []*item
	First                    string // anchor of the row's first scenario
}

func newPage(r *Report) (*page, error) {
	p := &page{R: r, CSS: template.CSS(htmlCSS), JS: template.JS(JS()), Duration: fmtDuration(r.Finished.Sub(r.Started))}
	switch r.Kind {
	case KindRun:
		p.KindLabel, p.Noun, p.TargetLabel = "Conformance run", "scenario", "Target"
	case KindProxy:
		p.KindLabel, p.Noun, p.TargetLabel = "Proxy session", "session", "Upstream"
	case KindValidate:
		p.KindLabel, p.Noun, p.TargetLabel = "Recording validation", "session", "Recording"
	case KindGate:
		p.KindLabel, p.Noun, p.TargetLabel = "Client gate", "check", "Server"
	case KindReplay:
		p.KindLabel, p.Noun, p.TargetLabel = "Replay", "session", "Server"
	default:
		p.KindLabel, p.Noun, p.TargetLabel = r.Kind, "session", "Target"
	}
	if len(r.Targets) > 1 {
		p.TargetLabel += "s"
	}
	switch r.Kind {
	case KindRun:
		p.JudgedLabel, p.IgnoredLabel = "server findings (judged)", "on frames sent by the tester, not judged"
	case KindGate:
		p.JudgedLabel, p.IgnoredLabel = "client findings (judged)", "on the reference server's frames, not judged"
	default:
		p.JudgedLabel, p.IgnoredLabel = "findings (judged)", "not judged"
	}
	anchors := map[string]bool{}
	roots := r.rootIndex()
	steps := r.stepCauseIndex()
	for i := range r.Scenarios {
		it := scenarioItem(r, roots, len(p.Items), &r.Scenarios[i], anchors)
		if it.Root == 0 {
			it.Root = r.stepCauseOf(steps, it.Sc) + 1 // a step failure it shares with others
		}
		p.Items = append(p.Items, it)
	}
	for i := range r.Sessions {
		p.Items = append(p.Items, sessionItem(r, roots, len(p.Items), &r.Sessions[i], anchors))
	}
	p.rootViews()
	p.replayViews(anchors)
	p.tally()
	p.Matrix = matrix(r, p.Items)
	p.Cov = newCovView(r.Coverage)
	data, err := pageData(p.Items)
	if err != nil {
		return nil, err
	}
	p.Data = template.JS(data)
	return p, nil
}

// tally counts verdicts and findings, builds the filter choices and the
// "needs attention" list, and decides which items start open.
func (p *page) tally() {
	count := map[Verdict]int{}
	dialects, targets := map[string]bool{}, map[string]bool{}
	for _, it := range p.Items {
		count[it.Verdict]++
		if it.Dialect != "" && !dialects[it.Dialect] {
			dialects[it.Dialect] = true
			p.Dialects = append(p.Dialects, it.Dialect)
		}
		if it.Target != "" && !targets[it.Target] {
			targets[it.Target] = true
			p.TargetNames = append(p.TargetNames, it.Target)
		}
		for _, f := range it.Findings {
			p.SevCounts[min(int(f.Severity), 2)]++
		}
		p.IgnoredN += len(it.Ignored)
		bad := (it.Verdict == Failed || it.Verdict == Error || it.Verdict == Flaky) && (it.Sc == nil || it.Sc.Baselined == "")
		it.Open = bad || len(p.Items) <= 3
		if bad {
			p.attend(it)
		}
	}
	if len(p.Dialects) < 2 {
		p.Dialects = nil
	}
	if len(p.TargetNames) < 2 {
		p.TargetNames = nil
	}
	p.Total = len(p.Items)
	for _, v := range Verdicts {
		if count[v] > 0 {
			p.Counts = append(p.Counts, verdictCount{v, count[v]})
			p.Verdicts = append(p.Verdicts, v)
		}
	}
	p.Lede = lede(p.Noun, p.Total, count)
	if p.ReplayLede != "" {
		p.Lede = withReplayLede(p.ReplayLede, p.Lede, p.Total)
	}
}

// replayViews prepares the report's replay diffs, their ordering column
// headed by the report's dialect when a diff does not name its own.
func (p *page) replayViews(anchors map[string]bool) {
	label := ""
	if len(p.R.Dialects) == 1 {
		label = SeqLabel(p.R.Dialects[0])
	}
	client := len(p.R.Replays) > 0
	for _, d := range p.R.Replays {
		l := label
		if d.Dialect != "" {
			l = ""
		}
		p.Replays = append(p.Replays, newReplayView(d, l, anchors))
		client = client && d.Side == wire.ClientToServer
	}
	p.ReplayClient = client
	p.ReplayLede = replayLede(p.R.Replays)
}

// attend files a failed item under "needs attention": apart when a root
// cause explains it (the root causes list it once), else with the other
// failures of the same reason.
func (p *page) attend(it *item) {
	if it.Root > 0 {
		p.Explained++
		return
	}
	for i := range p.Attention {
		if g := &p.Attention[i]; g.Reason == it.Reason && g.Verdict == it.Verdict {
			if len(g.Items) < 5 {
				g.Items = append(g.Items, it)
			} else {
				g.More++
			}
			return
		}
	}
	if len(p.Attention) < 10 {
		p.Attention = append(p.Attention, attnGroup{Verdict: it.Verdict, Reason: it.Reason, Items: []*item{it}})
		return
	}
	p.AttnMore++
}

// rootViews prepares the report's root causes for the page: links to the
// scenarios and sessions they touched and to the first frame.
func (p *page) rootViews() {
	r := p.R
	anchor := map[string]string{}
	for _, it := range p.Items {
		where := ""
		if it.Se != nil {
			where = "session " + it.Se.ID
		} else {
			where = r.scenarioWhere(it.Sc)
		}
		if _, ok := anchor[where]; !ok {
			anchor[where] = it.Anchor
		}
	}
	href := func(where string) string {
		if a, ok := anchor[where]; ok {
			return "#" + a
		}
		return ""
	}
	var sev [3]int
	other := map[Verdict]int{} // step causes below a warning, by verdict
	multi := len(r.Targets) > 1
	for i, rc := range r.RootCauses {
		v := rootView{RootCause: rc, N: i + 1, Anchor: fmt.Sprintf("rc-%d", i+1), FirstLabel: rc.FirstLabel(multi),
			EvNote: evidenceNote(rc.Evidence)}
		first := "session " + rc.First.Session
		if rc.First.Scenario != "" {
			first = rc.First.Scenario
			if multi {
				first += " [" + rc.First.Target + "]"
			}
		}
		if h := href(first); h != "" {
			v.FirstHref = h
			if rc.First.Frame > 0 {
				v.FirstHref += fmt.Sprintf("-f%d", rc.First.Frame)
			}
		}
		for k, w := range rc.Where() {
			l := link{Label: w, Href: href(w)}
			if k < rootWhereShown {
				v.Where = append(v.Where, l)
			} else {
				v.WhereMore = append(v.WhereMore, l)
			}
		}
		if rc.Step != nil {
			v.Wire, v.Hyp = wireLines(rc.Step.Wire), codeSpans(rc.Step.Hypothesis)
			p.StepRoots++
		}
		if rc.Step != nil && rc.Severity < check.Warning {
			other[rc.Step.Verdict]++
		} else {
			sev[min(int(rc.Severity), 2)]++
		}
		p.Roots = append(p.Roots, v)
	}
	var parts []string
	for s := check.Error; s >= check.Info; s-- {
		if n := sev[s]; n > 0 {
			parts = append(parts, severityWord(s, n))
		}
	}
	for _, v := range []Verdict{Observation, Inconclusive} {
		if n := other[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	p.RootSevs = strings.Join(parts, ", ")
	p.FindingRoots = len(p.Roots) - p.StepRoots
}

// lede is the one sentence under the verdict.
func lede(noun string, total int, count map[Verdict]int) string {
	bad := count[Failed] + count[Error]
	switch {
	case total == 0:
		return "Nothing was " + map[bool]string{true: "run", false: "seen"}[noun == "scenario"] + "."
	case bad == 0 && count[NonStrict] == 0 && count[Observation] == 0 && count[Skipped] == 0 && count[Flaky] == 0 && count[Inconclusive] == 0 && count[NotRun] == 0:
		if total == 1 {
			return "The " + noun + " passed."
		}
		return fmt.Sprintf("All %d %ss passed.", total, noun)
	}
	var parts []string
	for _, v := range []Verdict{Failed, Error, Flaky, NonStrict, Observation, Inconclusive, Skipped, NotRun} {
		if n := count[v]; n > 0 {
			word := string(v)
			if v == Observation && n > 1 {
				word += "s"
			}
			if v == NotRun {
				word = "not run"
			}
			if v == Error {
				word = "harness error"
				if n > 1 {
					word += "s"
				}
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, word))
		}
	}
	return fmt.Sprintf("%s: %s.", plural(total, noun), strings.Join(parts, ", "))
}

func scenarioItem(r *Report, roots map[rootKey]int, n int, s *Scenario, anchors map[string]bool) *item {
	it := &item{N: n, Sc: s, Verdict: s.Verdict, Title: s.Name, Dialect: s.Dialect, Target: s.Target,
		Frames: len(s.Frames), Reason: s.Reason}
	it.Anchor = uniqueAnchor("s-"+s.Target+"-"+s.ID, anchors)
	frames := frameSet(s.Frames)
	it.IgnoredWhy = "on frames sent by the tester, not judged (the scenario's own, often deliberately invalid, input)"
	it.add(r, roots, true, s.Findings, frames)
	return it
}

// add files an item's findings as counted or, when they do not decide its
// verdict (Report.Judged), apart.
// The findings that decide the verdict come first, then the background
// ones.
func (it *item) add(r *Report, roots map[rootKey]int, inScenario bool, fs []Finding, frames map[int64]bool) {
	var bg []findingView
	for i, f := range fs {
		fv := newFindingView(it.Anchor, i, f, frames)
		if k := r.rootOf(roots, f, inScenario); k >= 0 {
			fv.Root, fv.RootReach = k+1, r.RootCauses[k].Reach()
		}
		switch {
		case !r.Judged(f, inScenario):
			it.Ignored = append(it.Ignored, fv)
		case f.Background:
			bg = append(bg, fv)
		default:
			it.count(fv)
		}
	}
	for _, fv := range bg {
		it.count(fv)
	}
	it.Root = r.explainedBy(roots, fs, inScenario, it.Reason) + 1
}

func sessionItem(r *Report, roots map[rootKey]int, n int, s *Session, anchors map[string]bool) *item {
	it := &item{N: n, Se: s, Verdict: s.Verdict, Title: "session " + s.ID, Dialect: s.Dialect, Target: s.Source,
		Frames: len(s.Frames)}
	it.Anchor = uniqueAnchor("session-"+s.ID, anchors)
	it.IgnoredWhy = "on the reference server's frames (the gate judges the client: they do not count)"
	it.add(r, roots, false, s.Findings, frameSet(s.Frames))
	if len(it.Findings) > 0 {
		f := it.Findings[0]
		it.Reason = f.Rule + ": " + f.Message
	}
	it.Conns = lineage(s.Conns)
	return it
}

func (it *item) count(fv findingView) {
	fv.Pos = len(it.Findings)
	it.Findings = append(it.Findings, fv)
	it.Sev = max(it.Sev, int(fv.Severity)+1)
	if fv.Background {
		if it.Background == 0 || fv.Severity > it.BgSev {
			it.BgSev = fv.Severity
		}
		it.Background++
		return
	}
	switch fv.Severity {
	case check.Error:
		it.Errors++
	case check.Warning:
		it.Warnings++
	}
}

func frameSet(fs []Frame) map[int64]bool {
	m := make(map[int64]bool, len(fs))
	for _, f := range fs {
		m[f.Index] = true
	}
	return m
}

func newFindingView(anchor string, i int, f Finding, frames map[int64]bool) findingView {
	fv := findingView{Finding: f, N: i, Anchor: fmt.Sprintf("%s-x%d", anchor, i), EvNote: evidenceNote(f.Evidence)}
	if f.Frame > 0 {
		fv.FrameRef = fmt.Sprintf("#%s-f%d", anchor, f.Frame)
	}
	for _, r := range f.Related {
		fv.Related = append(fv.Related, frameRef{r, fmt.Sprintf("#%s-f%d", anchor, r)})
	}
	for _, l := range strings.Split(f.Diff, "\n") {
		if l == "" {
			continue
		}
		c := ""
		switch l[0] {
		case '-':
			c = "del"
		case '+':
			c = "ins"
		}
		fv.Diff = append(fv.Diff, diffLine{c, l})
	}
	return fv
}

// lineage orders connections as a reconnect tree: each connection follows
// the one it reconnects, indented one level deeper.
func lineage(conns []Connection) []connView {
	known := map[string]bool{}
	children := map[string][]int{}
	for _, c := range conns {
		known[c.ID] = true
	}
	var roots []int
	for i, c := range conns {
		if c.Parent != "" && known[c.Parent] && c.Parent != c.ID {
			children[c.Parent] = append(children[c.Parent], i)
			continue
		}
		roots = append(roots, i)
	}
	out := make([]connView, 0, len(conns))
	seen := map[int]bool{}
	var walk func(i, depth int)
	walk = func(i, depth int) {
		if seen[i] {
			return
		}
		seen[i] = true
		c := conns[i]
		cv := connView{Connection: c, Depth: min(depth, 12)}
		if !c.Closed.IsZero() {
			cv.Closed = c.Closed.Format("15:04:05.000")
		}
		out = append(out, cv)
		for _, k := range children[c.ID] {
			walk(k, depth+1)
		}
	}
	for _, i := range roots {
		walk(i, 0)
	}
	for i := range conns { // a cycle of parents: list what is left flat
		walk(i, 0)
	}
	return out
}

// matrix groups the scenarios by dialect, one row per scenario id and one
// column per target.
func matrix(r *Report, items []*item) []matrixGroup {
	if len(r.Scenarios) == 0 {
		return nil
	}
	targets := r.Targets
	col := map[string]int{}
	for i, t := range targets {
		col[t.Name] = i
	}
	var groups []matrixGroup
	gi := map[string]int{}
	rowOf := map[string][2]int{}
	for _, it := range items {
		s := it.Sc
		if s == nil {
			continue
		}
		if _, ok := col[s.Target]; !ok {
			col[s.Target] = len(targets)
			targets = append(targets, Target{Name: s.Target})
		}
		g, ok := gi[s.Dialect]
		if !ok {
			g = len(groups)
			gi[s.Dialect] = g
			groups = append(groups, matrixGroup{Dialect: s.Dialect})
		}
		key := s.Dialect + "\x00" + s.ID
		pos, ok := rowOf[key]
		if !ok {
			pos = [2]int{g, len(groups[g].Rows)}
			rowOf[key] = pos
			groups[g].Rows = append(groups[g].Rows, matrixRow{ID: s.ID, Name: s.Name, Feature: s.Feature, Level: s.Level})
		}
		row := &groups[pos[0]].Rows[pos[1]]
		for len(row.Cells) <= col[s.Target] {
			row.Cells = append(row.Cells, nil)
		}
		row.Cells[col[s.Target]] = it
		row.Items = strings.TrimSpace(row.Items + fmt.Sprintf(" %d", it.N))
		if row.First == "" {
			row.First = it.Anchor
		}
	}
	for gi := range groups {
		g := &groups[gi]
		count := map[Verdict]int{}
		for ri := range g.Rows {
			for len(g.Rows[ri].Cells) < len(targets) {
				g.Rows[ri].Cells = append(g.Rows[ri].Cells, nil)
			}
			for _, c := range g.Rows[ri].Cells {
				if c != nil {
					count[c.Verdict]++
				}
			}
		}
		for _, v := range Verdicts {
			if count[v] > 0 {
				g.Counts = append(g.Counts, verdictCount{v, count[v]})
			}
		}
	}
	return groups
}

// uniqueAnchor turns s into an HTML id that is safe in a URL fragment and
// not used yet.
func uniqueAnchor(s string, used map[string]bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == ':':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	a := b.String()
	if used[a] {
		for i := 2; ; i++ {
			if c := fmt.Sprintf("%s~%d", a, i); !used[c] {
				a = c
				break
			}
		}
	}
	used[a] = true
	return a
}

var blankLine = regexp.MustCompile(`\n[ \t]*\n`)

// prose reflows text written with hard line breaks (a Gherkin
// description): lines join into paragraphs, blank lines separate them.
func prose(s string) string {
	var paras []string
	for _, p := range blankLine.Split(strings.TrimSpace(s), -1) {
		if f := strings.Fields(p); len(f) > 0 {
			paras = append(paras, strings.Join(f, " "))
		}
	}
	return strings.Join(paras, "\n\n")
}

func verdictMark(v Verdict) string {
	switch v {
	case Passed:
		return "✓"
	case Observation:
		return "◇"
	case NonStrict:
		return "≈"
	case Failed:
		return "✗"
	case Flaky:
		return "≋"
	case Inconclusive:
		return "?"
	case Skipped:
		return "–"
	case NotRun:
		return "○"
	case Error:
		return "!"
	}
	return "?"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// fmtDuration rounds a duration for a reader: 254ms, 6.01s, 2m3s.
func fmtDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0s"
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return fmt.Sprintf("%.2fs", math.Round(d.Seconds()*100)/100)
	}
	return d.Round(time.Second).String()
}

// codeSpans escapes text and shows its `backquoted` parts as code.
func codeSpans(text string) template.HTML {
	parts := strings.Split(text, "`")
	var b strings.Builder
	for i, part := range parts {
		esc := template.HTMLEscapeString(part)
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + esc + "</code>")
		} else {
			if i%2 == 1 {
				b.WriteString("`")
			}
			b.WriteString(esc)
		}
	}
	return template.HTML(b.String())
}
