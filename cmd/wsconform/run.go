package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/wsconform/wsconform/cmd/internal/cli"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/exit"
	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/internal/version"
	"github.com/wsconform/wsconform/reports"
)

const runAbout = `Runs the Gherkin conformance features of a dialect against a server and
prints a verdict per scenario: passed, observation (the spec leaves it open
or allows it: reported, never judged), non-strict (a SHOULD, or a shape the
spec only shows), failed (a stated requirement broken), inconclusive (the
target could not do what the scenario needs, e.g. no model key: its message
is shown), flaky (--repeat runs disagreed), skipped (needs the scripted
agent, or changes the target's stored state) or error (the network or the
harness failed, never blamed on the server). Problems seen outside what a
scenario tested are listed once each, as the run's distinct problems.

A scenario's level comes from the requirement it cites first (@req:ID, from
features/<dialect>/requirements.json). After the summary, one line says what
the run did to the spec's stated requirements: how many passed, failed and
were not tested, and why; every report has the table per requirement.
--strict-coverage makes a stated MUST or type requirement left untested fail
the run.

Without --target it starts the embedded reference server on a free loopback
port and tests that. A target is a WebSocket URL: the endpoint of a
one-endpoint dialect (ws://host:9000/ws) or a base URL (ws://host:9000) of a
dialect with several (hostd). Several --target NAME=URL run side by side.

Ctrl-C (or SIGTERM) stops the run: the scenarios that finished keep their
verdicts, the others are "not run" (never errors), the summary and every
report say "interrupted by the user after N of M scenarios", and the exit
code is 130. A second Ctrl-C quits at once, without reports.

Exit codes: 0 pass, 1 conformance failure, 2 usage error, 3 target
unreachable or harness error, 130 interrupted. Inconclusive and skipped
scenarios and observations do not change the exit code; flaky ones exit 1,
and so does an untested stated MUST with --strict-coverage.`

// runFlags are the parsed flags of wsconform run.
type runFlags struct {
	dialects  []string
	targets   []string
	headers   []string
	vars      []string
	tags      string
	section   string
	strictCov bool
	scripted  bool
	mutations bool
	repeat    int
	answer    string
	session   string
	opening   string
	baseline  string
	shard     string
	timings   string
	scale     float64
	list      bool
	steps     bool
	out       reportFlags
	features  string
	insecure  bool
	conc      int
	concSet   bool // --concurrency given: it overrides running a shared session one at a time
	cleanup   string
	mutate    []string
	colorMode string
	quiet     bool
	verbose   bool
}

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", "[--dialect NAME|all] [--target URL | --target NAME=URL ...] [flags]", runAbout, stdout)
	var f runFlags
	fs.StringSliceVar(&f.dialects, "dialect", []string{"all"}, "dialects to run ("+strings.Join(dialect.Names(), ", ")+") or all")
	fs.StringArrayVar(&f.targets, "target", nil, "server to test: URL or NAME=URL (repeatable); none: the embedded reference server")
	fs.StringArrayVar(&f.headers, "header", nil, "header for every handshake and HTTP request, 'Key: Value' (repeatable)")
	fs.StringArrayVar(&f.vars, "var", nil, "scenario variable NAME=VALUE, e.g. host_token=… for hostd (repeatable)")
	fs.StringVar(&f.tags, "tags", "", "run scenarios matching a tag expression: '@must && ~@scripted', '@id:a,@id:b', '@req:ID' (the level derived from a scenario's requirement is a tag too: @must, @should, @may, @shown, @interpretation)")
	fs.StringVar(&f.section, "section", "", "run the scenarios whose primary requirement's spec section contains `TEXT` (case-insensitive): '§load_events'")
	fs.BoolVar(&f.strictCov, "strict-coverage", false, "fail the run (exit 1) when a stated MUST or type requirement of its dialects was not tested (those the registry marks untested, with a reason, are only listed)")
	fs.BoolVar(&f.scripted, "scripted", false, "run @scripted scenarios against a target: it follows the test-mode hints (ci/testmode.md)")
	fs.BoolVar(&f.mutations, "allow-mutations", false, "run @mutates-target scenarios against a target: they change its stored state (credentials, skills, backups)")
	fs.StringVar(&f.answer, "answer", runner.AnswerApprove, "how clients answer the server's approvals, confirmations and asks that a scenario leaves open: approve, deny, first (option) or none")
	fs.StringVar(&f.session, "session-cmd", "", "shell `COMMAND` run before each scenario that prints the URL to test (and 'Key: Value' header lines): for servers that create a session over HTTP first; it sees WSCONFORM_TARGET, WSCONFORM_DIALECT, WSCONFORM_SCENARIO; the pre-check connects to a session it prints too")
	fs.StringVar(&f.cleanup, "session-cleanup-cmd", "", "shell `COMMAND` run after each scenario (and the pre-check) that --session-cmd made a session for, to delete it: the session's URL is in WSCONFORM_SESSION_URL and is its first argument ($1); failures are printed, not verdicts")
	fs.StringVar(&f.opening, "opening", "", "JSON `FILE` replacing the dialect's opening, the messages a real client sends right after connecting (features/<dialect>/client.json \"opening\"; mitto: the initial load_events): [{\"send\": {...}, \"await\": \"TYPE\"}], {vars} expand; none sends nothing. Scenarios tagged @opening never get one")
	fs.IntVar(&f.repeat, "repeat", 1, "run every scenario `N` times; a scenario whose verdicts differ is flaky")
	fs.StringVar(&f.baseline, "baseline", "", "JSON `FILE` of known failures [{\"id\",\"target\"?,\"reason\"}]: they do not fail the run")
	fs.StringVar(&f.shard, "shard", "", "run part `I/N` of the selected scenarios (CI jobs in parallel), dealt the same way on every machine; put the parts' --json reports together with wsconform merge")
	fs.StringVar(&f.timings, "shard-timings", "", "a previous run's JSON report `FILE`: --shard balances the parts by its scenario durations instead of by count")
	fs.Float64Var(&f.scale, "timeout-scale", 1, "multiply every timeout (0.5 halves, 3 triples them), a scenario's own @timeout:D budget too (a scenario tagged @timeout:75s may take 75 s instead of 60 s)")
	fs.BoolVar(&f.list, "list", false, "list the scenarios (id, level, tags) without connecting")
	fs.BoolVar(&f.steps, "steps", false, "print the step vocabulary features can use")
	f.out.addFlags(fs)
	fs.StringVar(&f.features, "features", "", "run the feature files under `DIR` instead of the built-in ones")
	fs.BoolVarP(&f.insecure, "insecure", "k", false, "accept any TLS certificate of a wss:// target")
	fs.IntVar(&f.conc, "concurrency", runner.DefaultConcurrency, "scenarios run at once per target, the longest expected first (default 8; against the embedded reference server 32, 8 of them outside a listening window; 1 when --target names a session, ?session_id=…, and there is no --session-cmd: they would share it)")
	fs.StringArrayVar(&f.mutate, "mutate", nil, "make the embedded reference server commit a spec violation (see serve --list-mutations)")
	fs.StringVar(&f.colorMode, "color", console.ColorAuto, "color output: auto, always or never (NO_COLOR is honoured)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print only failed and flaky scenarios and the summary")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "print every scenario as it ends, skipped and errored ones too, with their reasons")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("run: unexpected argument %q", fs.Arg(0))
	}
	f.concSet = fs.Changed("concurrency")
	opts, err := f.options()
	if err != nil {
		return err
	}
	human := stdout
	if f.out.toStdout() {
		human = stderr // stdout carries the report
	}
	p := console.New(human, f.colorMode)
	consoleSecrets(p, args, opts)
	if f.steps {
		printSteps(stdout)
		return nil
	}
	cat, err := runner.Load(opts)
	if err != nil {
		return usageErr("run: %v", err)
	}
	if f.list {
		printCatalog(p, cat)
		return nil
	}
	if len(cat.Cases) == 0 {
		if f.section != "" {
			return usageErr("run: no scenario matches --dialect %s --tags %q --section %q", strings.Join(f.dialects, ","), f.tags, f.section)
		}
		return usageErr("run: no scenario matches --dialect %s --tags %q", strings.Join(f.dialects, ","), f.tags)
	}
	if len(opts.Targets) == 0 {
		srv, t, err := runner.StartReference(ctx, opts.Dialects, f.mutate)
		if err != nil {
			return harnessErr(err)
		}
		defer srv.Shutdown(context.Background())
		opts.Targets = []runner.Target{t}
		for k, v := range runner.ReferenceVars() {
			if _, set := opts.Vars[k]; !set {
				opts.Vars[k] = v
			}
		}
	}
	if err := checkCredentials(cat, opts); err != nil {
		return err
	}
	return f.execute(ctx, p, stdout, opts, args, cat)
}

// options turns flags into runner options, refusing what makes no sense.
func (f *runFlags) options() (runner.Options, error) {
	opts := runner.Options{Tags: f.tags, Section: f.section, Scripted: f.scripted, AllowMutations: f.mutations, Repeat: f.repeat, Answer: f.answer, SessionCmd: f.session, SessionCleanupCmd: f.cleanup, Insecure: f.insecure,
		Headers: http.Header{}, Vars: map[string]string{}, Timeouts: runner.DefaultTimeouts}
	switch f.colorMode {
	case console.ColorAuto, console.ColorAlways, console.ColorNever:
	default:
		return opts, usageErr("run: --color must be auto, always or never")
	}
	if f.quiet && f.verbose {
		return opts, usageErr("run: --quiet and --verbose contradict each other: pick one")
	}
	if err := f.out.check(); err != nil {
		return opts, usageErr("run: %v", err)
	}
	if f.scale <= 0 || f.scale > 100 {
		return opts, usageErr("run: --timeout-scale must be in (0, 100]")
	}
	opts.Timeouts.Scale = f.scale
	if f.conc < 1 {
		return opts, usageErr("run: --concurrency must be at least 1")
	}
	if f.concSet {
		opts.Concurrency = f.conc
	}
	if f.cleanup != "" && f.session == "" {
		return opts, usageErr("run: --session-cleanup-cmd cleans up what --session-cmd made: give both")
	}
	switch f.answer {
	case runner.AnswerApprove, runner.AnswerDeny, runner.AnswerFirst, runner.AnswerNone:
	default:
		return opts, usageErr("run: --answer must be approve, deny, first or none")
	}
	if f.timings != "" && f.shard == "" {
		return opts, usageErr("run: --shard-timings balances --shard I/N: give both")
	}
	if f.shard != "" {
		sh, err := runner.ParseShard(f.shard)
		if err != nil {
			return opts, usageErr("run: --shard: %v", err)
		}
		if f.timings != "" {
			if sh.Durations, err = shardTimings(f.timings); err != nil {
				return opts, usageErr("run: --shard-timings: %v", err)
			}
		}
		opts.Shard = sh
	}
	if f.opening != "" {
		steps, err := runner.ParseOpening(f.opening)
		if err != nil {
			return opts, usageErr("run: --opening: %v", err)
		}
		opts.Opening = steps
	}
	if f.repeat < 1 || f.repeat > 100 {
		return opts, usageErr("run: --repeat must be between 1 and 100")
	}
	if !(len(f.dialects) == 1 && f.dialects[0] == "all") {
		for _, d := range f.dialects {
			if !dialect.Known(d) {
				return opts, usageErr("run: unknown dialect %q (known: %s, or all)", d, strings.Join(dialect.Names(), ", "))
			}
		}
		opts.Dialects = f.dialects
	}
	if err := cli.ParseHeaders("--header", f.headers, opts.Headers); err != nil {
		return opts, usageErr("run: %v", err)
	}
	if err := cli.ParsePairs("--var", f.vars, opts.Vars); err != nil {
		return opts, usageErr("run: %v", err)
	}
	seen := map[string]bool{}
	for _, raw := range f.targets {
		t, err := parseTarget(raw)
		if err != nil {
			return opts, usageErr("run: %v", err)
		}
		if seen[t.Name] {
			return opts, usageErr("run: two targets are named %q: name them with NAME=URL", t.Name)
		}
		seen[t.Name] = true
		opts.Targets = append(opts.Targets, t)
	}
	if len(f.targets) > 0 && opts.Dialects == nil && f.features == "" {
		return opts, usageErr("run: a --target speaks one dialect: name it with --dialect (%s)", strings.Join(dialect.Names(), ", "))
	}
	if len(f.mutate) > 0 && len(f.targets) > 0 {
		return opts, usageErr("run: --mutate applies to the embedded reference server, not to a --target")
	}
	if f.features != "" {
		st, err := os.Stat(f.features)
		if err != nil || !st.IsDir() {
			return opts, usageErr("run: --features %q is not a directory", f.features)
		}
		opts.Features = os.DirFS(f.features)
	}
	return opts, nil
}

// parseTarget reads URL or NAME=URL; an unnamed target is named by its host.
func parseTarget(raw string) (runner.Target, error) {
	name, u := "", raw
	if i := strings.Index(raw, "="); i > 0 && !strings.Contains(raw[:i], "://") {
		name, u = raw[:i], raw[i+1:]
	}
	if err := cli.NeedScheme("--target", u, "targets are"); err != nil {
		return runner.Target{}, err
	}
	parsed, err := runner.ParseTargetURL(u)
	if err != nil {
		return runner.Target{}, err
	}
	if name == "" {
		name = parsed.Host
	}
	return runner.Target{Name: name, URL: parsed.String()}, nil
}

// execute runs the suite, prints progress and the summary, writes reports
// and turns the verdict into an exit code.
func (f *runFlags) execute(ctx context.Context, p *console.Printer, stdout io.Writer, opts runner.Options, args []string, cat *runner.Catalog) error {
	var baseline []reports.BaselineEntry
	if f.baseline != "" {
		var err error
		if baseline, err = runner.LoadBaseline(f.baseline); err != nil {
			return usageErr("run: %v", err)
		}
	}
	started := time.Now()
	multi := len(opts.Targets) > 1
	opts.Progress = func(s reports.Scenario) {
		// errors and skips are grouped by cause in the summary, the cause first
		switch {
		case f.verbose:
			printProgress(p, s, multi, false)
		case f.quiet:
			if s.Verdict == reports.Failed || s.Verdict == reports.Flaky {
				printProgress(p, s, multi, false)
			}
		case s.Verdict != reports.Error && s.Verdict != reports.Skipped && s.Verdict != reports.NotRun:
			printProgress(p, s, multi, false)
		}
	}
	opts.Notice = func(line string) { p.Warn("%s\n", line) }
	results, err := runner.Run(ctx, opts)
	if err != nil {
		return harnessErr(err)
	}
	rep := reports.New(reports.KindRun, version.String(), started)
	rep.Finished = time.Now()
	rep.Scenarios = results
	rep.Command = "wsconform run " + shellJoin(args)
	if opts.Shard.Count > 1 {
		rep.Shard = opts.Shard.String()
	}
	for _, t := range opts.Targets {
		rep.Targets = append(rep.Targets, reports.Target{Name: t.Name, URL: t.URL, Reference: t.Reference})
	}
	rep.Dialects = dialectsOf(results)
	rep.Stale = runner.ApplyBaseline(rep.Scenarios, baseline)
	for i := range rep.Scenarios {
		if s := &rep.Scenarios[i]; s.Verdict == reports.Failed {
			s.Rerun = rerunCommand(args, s.ID)
		}
	}
	stopped := ctx.Err() != nil && rep.MarkInterrupted(interruptedBy(ctx))
	rep.Coverage = coverageOf(cat, rep)
	rep.Tally()
	printSummary(p, rep)
	if err := writeReports(rep, f.out, stdout, p); err != nil {
		return harnessErr(err)
	}
	if stopped {
		return interrupted() // the summary and the reports say what did not run
	}
	if err := exitFor(rep); err != nil || !f.strictCov {
		return err
	}
	return strictCoverage(p, rep)
}

// coverageOf is the requirements view of a run; nil when none of its
// dialects has a registry (a user's feature tree without one).
func coverageOf(cat *runner.Catalog, rep *reports.Report) *reports.Coverage {
	if len(cat.Registries) == 0 {
		return nil
	}
	var targets []string
	for _, t := range rep.Targets {
		targets = append(targets, t.Name)
	}
	return reports.NewCoverage(reports.CoverageInput{Registries: cat.Registries, Citing: cat.Citing,
		Scenarios: rep.Scenarios, Targets: targets})
}

// strictCoverage fails a run (--strict-coverage) that left a stated MUST
// or type requirement untested, naming how many and the first few.
func strictCoverage(p *console.Printer, rep *reports.Report) error {
	miss := rep.Coverage.StrictMisses()
	if len(miss) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var ids []string
	for _, m := range miss {
		if !seen[m.ID] {
			seen[m.ID] = true
			ids = append(ids, m.ID)
		}
	}
	p.Fail("\n--strict-coverage: %d stated MUST or type %s not tested: %s\n", len(ids), plural(len(ids), "requirement", "requirements"), firstFew(ids, 5))
	return errFailed
}

// exitFor maps a report to the exit code: a real failure outranks errors
// (the server is known to be wrong), errors alone are harness trouble.
func exitFor(rep *reports.Report) error {
	failed, errored := false, false
	for _, s := range rep.Scenarios {
		switch {
		case (s.Verdict == reports.Failed || s.Verdict == reports.Flaky) && s.Baselined == "":
			failed = true
		case s.Verdict == reports.Error:
			errored = true
		}
	}
	for _, rc := range rep.RootCauses {
		if rc.Background && rc.Verdict() == reports.Failed {
			failed = true // a stated requirement broken outside what any scenario tested
		}
	}
	switch {
	case failed:
		return errFailed
	case errored:
		return &exit.Error{Code: exitHarness}
	}
	return nil
}

func dialectsOf(results []reports.Scenario) []string {
	set := map[string]bool{}
	for _, s := range results {
		set[s.Dialect] = true
	}
	var out []string
	for _, d := range dialect.Names() {
		if set[d] {
			out = append(out, d)
		}
	}
	return out
}

// reportFlags are the report flags every command that judges shares.
type reportFlags struct {
	html, junit, json, markdown string
	noRedact                    bool
}

// addFlags declares --html, --junit, --json and --markdown.
func (r *reportFlags) addFlags(fs *flagSet) {
	fs.StringVar(&r.html, "html", "", "write an HTML report to `FILE`")
	fs.StringVar(&r.junit, "junit", "", "write JUnit XML to `FILE`")
	fs.StringVar(&r.json, "json", "", "write the report as JSON to `FILE` (- for stdout)")
	fs.StringVar(&r.markdown, "markdown", "", "write a Markdown summary to `FILE` (also appended to $GITHUB_STEP_SUMMARY when set)")
	fs.BoolVar(&r.noRedact, "no-redact", false, "keep credentials (token query values, Authorization and Cookie headers, apiKey/password members of frames, tokens such as Bearer …, sk-…, JWTs, ghp_… and AWS keys anywhere) in reports and recordings; by default they are redacted, keeping their length")
}

// toStdout says a report goes to stdout (-): human output then goes to
// stderr.
func (r reportFlags) toStdout() bool {
	return r.html == "-" || r.junit == "-" || r.json == "-" || r.markdown == "-"
}

// check checks, before any work starts, that every report can be written
// where asked, and that at most one goes to stdout.
func (r reportFlags) check() error {
	n := 0
	for _, p := range []string{r.html, r.junit, r.json, r.markdown} {
		if p == "-" {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("only one report can go to stdout (-)")
	}
	return cli.CheckOutputs(cli.Output{Flag: "--html", Path: r.html}, cli.Output{Flag: "--junit", Path: r.junit},
		cli.Output{Flag: "--json", Path: r.json}, cli.Output{Flag: "--markdown", Path: r.markdown})
}

// writeReports writes each requested report file and says where on p (one
// line each). It also appends the Markdown summary to
// $GITHUB_STEP_SUMMARY when set.
func writeReports(rep *reports.Report, out reportFlags, stdout io.Writer, p *console.Printer) error {
	if !out.noRedact {
		rep = reports.Redact(rep)
	}
	if err := reports.AppendStepSummary(rep); err != nil {
		return err
	}
	outs := []struct {
		path, kind string
		write      func(io.Writer, *reports.Report) error
	}{{out.html, "HTML report", reports.WriteHTML}, {out.junit, "JUnit XML", reports.WriteJUnit},
		{out.json, "JSON report", reports.WriteJSON}, {out.markdown, "Markdown summary", reports.WriteMarkdown}}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if o.path == "-" {
			if err := o.write(stdout, rep); err != nil {
				return err
			}
			continue
		}
		if err := writeFile(o.path, func(w io.Writer) error { return o.write(w, rep) }); err != nil {
			return err
		}
		p.Dim("%s\n", cli.Written(o.kind, o.path))
	}
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		p.Dim("appended the Markdown summary to $GITHUB_STEP_SUMMARY (%s)\n", path)
	}
	return nil
}

// writeFile writes through a temporary file and renames it, so a reader
// never sees half a report.
func writeFile(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(dirOf(path), ".wsconform-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i+1]
	}
	return "."
}

// rerunCommand is the command line that runs only one scenario again: the
// original arguments without tag, list and report flags, plus its id.
func rerunCommand(args []string, id string) string {
	drop := map[string]bool{"--tags": true, "--section": true, "--strict-coverage": false, "--html": true, "--junit": true, "--json": true, "--markdown": true, "--list": false}
	var kept []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		if takes, ok := drop[name]; ok {
			if takes && !hasValue {
				i++
			}
			continue
		}
		kept = append(kept, a)
	}
	id, _, _ = strings.Cut(id, "#")
	kept = append(kept, "--tags", "@id:"+id)
	return "wsconform run " + shellJoin(kept)
}

// shellJoin quotes arguments for a POSIX shell.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r))
		}) < 0 {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
