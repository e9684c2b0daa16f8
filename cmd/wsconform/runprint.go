package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/reports"
)

// verdictMark is the glyph and color of a verdict in the console.
func printVerdictWord(p *console.Printer, v reports.Verdict) {
	word := fmt.Sprintf("%-10s", v)
	switch v {
	case reports.Passed:
		p.Pass("✓ %s", word)
	case reports.Observation:
		p.Info("◇ %s", word)
	case reports.NonStrict:
		p.Warn("~ %s", word)
	case reports.Skipped:
		p.Dim("- %s", word)
	case reports.Inconclusive:
		p.Warn("? %s", word)
	case reports.NotRun:
		p.Dim("○ %s", word)
	default:
		p.Fail("✗ %s", word)
	}
}

// printProgress prints one line per finished scenario, and for a failure
// the reason with expected vs actual. sameError says the reason is the
// one just printed (a dead target errors every scenario the same way).
func printProgress(p *console.Printer, s reports.Scenario, multi, sameError bool) {
	printVerdictWord(p, s.Verdict)
	p.Printf(" %s", s.ID)
	if multi {
		p.Dim(" [%s]", s.Target)
	}
	p.Dim("  %s", s.Name)
	if s.Duration > 0 {
		p.Dim(" (%s)", s.Duration.Round(time.Millisecond))
	}
	p.Printf("\n")
	if s.Verdict == reports.Passed && s.Reason != "" {
		p.Dim("    %s\n", s.Reason) // what the pass did not see (runner.NotObservable)
		return
	}
	if s.Verdict == reports.Passed || s.Verdict == reports.Skipped || s.Verdict == reports.NotRun || sameError {
		return
	}
	printReason(p, s)
}

func printReason(p *console.Printer, s reports.Scenario) {
	if pre := levelWords(s.Reason); pre != "" && (s.Verdict == reports.NonStrict || s.Verdict == reports.Observation) {
		p.Dim("    %s\n", pre)
	}
	if q := s.Primary; q != nil && s.Verdict != reports.Error && s.Verdict != reports.Skipped {
		p.Dim("    requirement: ")
		p.Printf("%s", q.ID)
		p.Dim(" (%s %s) %s\n", q.Evidence, q.Level, q.Section)
		p.Evidence(q.Evidence, q.Quote, "    ")
	}
	for _, st := range s.Steps {
		if st.Status != "failed" {
			continue
		}
		p.Printf("    %s %s\n", st.Keyword, st.Text)
		p.Fail("      %s\n", st.Error)
		if st.Expected != "" || st.Actual != "" {
			p.Printf("      expected: %s\n      actual:   %s\n", st.Expected, st.Actual)
		}
		return
	}
	if s.Reason != "" {
		p.Printf("    %s\n", s.Reason)
	}
	for _, f := range s.Findings {
		if !f.Background && reports.Judged(reports.KindRun, f, true) && f.Severity > 0 {
			p.Finding(f.Finding, "")
		}
	}
}

// levelWords is what the level of a scenario made of its failed step
// ("SHOULD not met:", "the spec does not say; this server:"), said before
// the step so that an observation never reads as a deviation.
func levelWords(reason string) string {
	for _, w := range []string{"SHOULD not met:", "the spec only shows:", "the spec allows (MAY):", "the spec does not say; this server:"} {
		if strings.HasPrefix(reason, w) {
			return w
		}
	}
	return ""
}

// printObservations lists the observations of a run, apart from its
// verdicts: what the spec leaves open and the target did its own way.
func printObservations(p *console.Printer, rep *reports.Report) {
	var obs []reports.Scenario
	for _, s := range rep.Scenarios {
		if s.Verdict == reports.Observation {
			obs = append(obs, s)
		}
	}
	if len(obs) == 0 {
		return
	}
	p.Info("\nObservations (the spec does not say; reported, never judged)\n")
	multi := len(rep.Targets) > 1
	for _, s := range obs {
		p.Info("  ◇ ")
		p.Printf("%s", s.ID)
		if multi {
			p.Dim(" [%s]", s.Target)
		}
		reason := s.Reason
		if w := levelWords(reason); w != "" {
			reason = strings.TrimSpace(strings.TrimPrefix(reason, w))
		}
		p.Dim("  %s\n", reason)
	}
}

// printCoverage prints the one line of what the run did to the stated
// requirements (one per target when there are several).
func printCoverage(p *console.Printer, rep *reports.Report) {
	if rep.Coverage == nil {
		return
	}
	for _, c := range rep.Coverage.Counts {
		p.Printf("requirements")
		if c.Target != "" {
			p.Dim(" [%s]", c.Target)
		}
		p.Printf(": %s\n", c.Line())
	}
}

// printRootCauses lists the distinct problems of a report, each once with
// its count and the scenarios (or sessions) it touched: a user sees "3
// distinct problems", not "113 failed".
func printRootCauses(p *console.Printer, rep *reports.Report) {
	if len(rep.RootCauses) == 0 {
		return
	}
	n := len(rep.RootCauses)
	side := "server's"
	if rep.Kind == reports.KindGate {
		side = "client's" // the gate judges the client
	}
	steps := 0
	for _, rc := range rep.RootCauses {
		if rc.Step != nil {
			steps++
		}
	}
	switch {
	case steps == 0:
		p.Bold("\n%d distinct %s in the %s frames\n", n, plural(n, "problem", "problems"), side)
	case steps == n:
		p.Bold("\n%d distinct %s in the %s steps\n", n, plural(n, "problem", "problems"), "scenarios'")
	default:
		p.Bold("\n%d distinct problems: %d in the %s frames, %d in the scenarios' steps\n", n, n-steps, side, steps)
	}
	const indent = "            "
	for _, rc := range rep.RootCauses {
		if rc.Step != nil {
			printStepCause(p, rc, indent)
			continue
		}
		p.Printf("  ")
		p.Severity(rc.Severity)
		p.Bold(" %s", rc.Rule)
		p.Dim("  ×%d", rc.Count)
		if rc.Type != "" {
			p.Dim("  %s%s", rc.Type, rc.Pointer)
		}
		p.Printf("\n%s%s\n", indent, rc.Message)
		if rc.Expected != "" || rc.Actual != "" {
			p.Dim("%sexpected: ", indent)
			p.Printf("%s\n", rc.Expected)
			p.Dim("%sactual:   ", indent)
			p.Printf("%s\n", rc.Actual)
		}
		p.Evidence(rc.Evidence, rc.Quote, indent)
		if rc.Spec != "" {
			p.Dim("%sspec:     ", indent)
			p.Printf("%s\n", rc.Spec)
		}
		where, what := rc.Scenarios, "scenario"
		if len(where) == 0 {
			where, what = rc.Sessions, "session"
		}
		p.Dim("%sseen in:  ", indent)
		p.Printf("%d %s: %s\n", len(where), plural(len(where), what, what+"s"), firstFew(where, 3))
	}
}

// printStepCause prints a step failure that several scenarios share: the
// verdict, the step's pattern and the type it awaited, what came instead,
// the hypothesis, where, and the first scenario's wire up to the failure.
func printStepCause(p *console.Printer, rc reports.RootCause, indent string) {
	st := rc.Step
	p.Printf("  ")
	printVerdictWord(p, st.Verdict)
	p.Bold(" %s", st.Step)
	p.Dim("  ×%d", rc.Count)
	if st.Awaited != "" {
		p.Dim("  awaited %s", st.Awaited)
	}
	p.Printf("\n%s%s\n", indent, rc.Message)
	if rc.Expected != "" {
		p.Dim("%sexpected: ", indent)
		p.Printf("%s\n", rc.Expected)
	}
	p.Dim("%sgot:      ", indent)
	p.Printf("%s\n", st.Got)
	if st.Hypothesis != "" {
		p.Dim("%slikely:   ", indent)
		p.Printf("%s\n", st.Hypothesis)
	}
	p.Dim("%sseen in:  ", indent)
	p.Printf("%d %s: %s\n", len(rc.Scenarios), plural(len(rc.Scenarios), "scenario", "scenarios"), firstFew(rc.Scenarios, 3))
	if len(st.Wire) > 0 {
		p.Dim("%swire of %s:\n", indent, rc.First.Scenario)
		for _, f := range st.Wire {
			p.Dim("%s  %s\n", indent, reports.WireLine(f))
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// firstFew joins up to n names and says how many more there are.
func firstFew(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// printErrors prints each cause that kept scenarios from running once,
// first, with how many it kept and which.
func printErrors(p *console.Printer, rep *reports.Report) {
	errs := map[string][]string{}
	var order []string
	for _, s := range rep.Scenarios {
		if s.Verdict == reports.Error {
			if len(errs[s.Reason]) == 0 {
				order = append(order, s.Reason)
			}
			errs[s.Reason] = append(errs[s.Reason], s.ID)
		}
	}
	for _, reason := range order {
		p.Fail("\n✗ %s\n", reason)
		n := len(errs[reason])
		p.Printf("  %d %s could not run: %s\n", n, plural(n, "scenario", "scenarios"), firstFew(errs[reason], 3))
	}
}

// printSummary prints the distinct problems, the counts per target, the
// failures with the command that re-runs each, stale baseline entries,
// and the verdict. It prints the report redacted, whatever --no-redact
// says of the files: a CI log is an artifact too.
func printSummary(p *console.Printer, rep *reports.Report) {
	rep = reports.Redact(rep)
	printErrors(p, rep)
	printRootCauses(p, rep)
	p.Printf("\n")
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "target\tpassed\t%snon-strict\tfailed\tflaky\tinconclusive\tskipped\terror%s\n", obsColumn(rep, nil), notRunColumn(rep, nil))
	for _, t := range rep.Targets {
		c := map[reports.Verdict]int{}
		for _, s := range rep.Scenarios {
			if s.Target == t.Name {
				c[s.Verdict]++
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%s%d\t%d\t%d\t%d\t%d\t%d%s\n", console.Escape(t.Name), c[reports.Passed], obsColumn(rep, c), c[reports.NonStrict], c[reports.Failed],
			c[reports.Flaky], c[reports.Inconclusive], c[reports.Skipped], c[reports.Error], notRunColumn(rep, c))
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(strings.TrimSuffix(b.String(), "\n"), "\n") {
		p.Printf("%s\n", strings.TrimSuffix(line, "\n")) // one line each: the Printer escapes a newline in an argument
	}
	var reruns []reports.Scenario
	for _, s := range rep.Scenarios {
		if s.Rerun != "" {
			reruns = append(reruns, s)
		}
	}
	if len(reruns) > 0 {
		p.Printf("\nTo re-run a failed scenario:\n")
		for _, s := range reruns {
			p.Printf("  ")
			printVerdictWord(p, s.Verdict)
			if s.Baselined != "" {
				p.Dim(" (baseline: %s)", s.Baselined)
			}
			p.Printf(" %s\n", s.Rerun)
		}
	}
	printSkips(p, rep)
	printObservations(p, rep)
	for _, e := range rep.Stale {
		p.Warn("\nstale baseline entry: %s now passes", e.ID)
		if e.Target != "" {
			p.Warn(" on %s", e.Target)
		}
		p.Printf(" (remove it from the baseline)\n")
	}
	p.Printf("\n")
	switch rep.Verdict {
	case reports.Passed:
		p.Pass("PASS")
	case reports.NonStrict:
		p.Warn("PASS (non-strict)")
	case reports.Inconclusive:
		p.Warn("INCONCLUSIVE (nothing failed, but the target could not do everything the scenarios need)")
	case reports.Failed, reports.Flaky:
		p.Fail("FAIL")
	case reports.NotRun:
		p.Warn("INTERRUPTED")
	default:
		p.Fail("ERROR")
	}
	n := len(rep.Scenarios)
	p.Printf("  %d %s in %s\n", n, plural(n, "scenario", "scenarios"), rep.Finished.Sub(rep.Started).Round(10*time.Millisecond))
	printCoverage(p, rep)
	printInterrupted(p, rep)
}

// printSkips says why scenarios were skipped, once per reason with its
// count and the flag that runs them, and loudly when most of the run did
// not run at all: a newcomer's first run must not read as a full pass.
func printSkips(p *console.Printer, rep *reports.Report) {
	skips := map[string]int{}
	var order []string
	total := 0
	for _, s := range rep.Scenarios {
		if s.Verdict == reports.Skipped || s.Verdict == reports.Inconclusive {
			key := string(s.Verdict) + ": " + s.Reason
			if s.Verdict == reports.Skipped && skips[key] == 0 {
				order = append(order, key)
			}
			if s.Verdict == reports.Skipped {
				skips[key]++
			}
			total++
		}
	}
	if total == 0 {
		return
	}
	if 2*total > len(rep.Scenarios) {
		p.Warn("\nMost scenarios did not test the target: %d of %d were skipped or inconclusive.\n", total, len(rep.Scenarios))
	}
	for _, key := range order {
		p.Dim("\n%d %s", skips[key], key)
	}
	if len(order) > 0 {
		p.Printf("\n")
	}
}

// printCatalog is --list: every scenario with its id, level and tags.
func printCatalog(p *console.Printer, cat *runner.Catalog) {
	last := ""
	for _, c := range cat.Cases {
		if c.Dialect != last {
			p.Bold("%s\n", c.Dialect)
			last = c.Dialect
		}
		var tags []string
		for _, t := range c.Tags {
			if !strings.HasPrefix(t, "@id:") && !strings.HasPrefix(t, "@req:") && t != "@must" && t != "@should" && t != "@"+c.Dialect {
				tags = append(tags, t)
			}
		}
		p.Printf("  %-52s %-6s %s", c.ID, c.Level, c.Name)
		if len(c.Reqs) > 0 {
			p.Dim("  @req:%s", strings.Join(c.Reqs, " @req:"))
		}
		if len(tags) > 0 {
			p.Dim("  %s", strings.Join(tags, " "))
		}
		p.Dim("  %s:%d\n", c.File, c.Line)
	}
	p.Printf("%d scenarios\n", len(cat.Cases))
}

// consoleSecrets tells p the secrets of a run before anything is printed:
// its command line, --header and --var values and target URLs, redacted as
// the reports redact them, so that a re-run command, a step with a --var
// expanded or an error quoting a token shows a marker on the console too.
func consoleSecrets(p *console.Printer, args []string, opts runner.Options) {
	p.Secrets("wsconform run " + shellJoin(args))
	for name, vals := range opts.Headers {
		for _, v := range vals {
			p.Secrets(name + ": " + v)
		}
	}
	for name, v := range opts.Vars {
		p.Secrets(name + "=" + v)
	}
	for _, t := range opts.Targets {
		p.Secrets(t.URL)
	}
}

// printSteps is --steps: the vocabulary with an example each.
func printSteps(w io.Writer) {
	fmt.Fprintln(w, "Steps (regular expressions; \"the client\" is client \"A\"):")
	for _, s := range runner.Steps {
		fmt.Fprintf(w, "\n  %s\n    e.g. %s\n", s.Pattern, s.Example)
	}
	fmt.Fprintln(w, "\nVariables: {name} in a path, docstring or value expands to a remembered value,")
	fmt.Fprintln(w, "a --var, {unique} (a fresh token per scenario) or {scenario} (its id).")
}

// obsColumn is the observation column of the summary table, there only
// when the run observed something (as not-run is only when interrupted).
func obsColumn(rep *reports.Report, c map[reports.Verdict]int) string {
	if rep.Counts[reports.Observation] == 0 {
		return ""
	}
	if c == nil {
		return "observation\t"
	}
	return fmt.Sprintf("%d\t", c[reports.Observation])
}
