package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/wsconform/wsconform/cmd/internal/cli"
	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/exit"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/internal/version"
	"github.com/wsconform/wsconform/reports"
)

// validateOutput is the --json document: versioned, so that tools reading
// it can tell when its shape changes.
type validateOutput struct {
	Format  string            `json:"format"`
	Version int               `json:"version"`
	Tool    string            `json:"tool"`
	Verdict string            `json:"verdict"`
	Counts  console.Counts    `json:"counts"`
	Files   []validate.Result `json:"files"`
	Errors  []string          `json:"errors,omitempty"`
}

func runValidate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("validate", "[flags] FILE...",
		"Judges recordings (wsproxy --record, JSON Lines) and Chrome DevTools HAR files offline:\n"+
			"every frame goes through the check engine, findings are printed with the rule,\n"+
			"expected vs actual and the spec section. A line (or HAR message) that cannot be read\n"+
			"is a recording.unreadable finding. Exit 0 clean, 1 error findings, 2 usage error,\n"+
			"3 unreadable input or no frame in it.", stdout)
	dialectName := fs.String("dialect", "auto", "dialect: "+strings.Join(dialect.Names(), ", ")+" or auto (from the recording header or the first frames)")
	protocol := fs.String("protocol", "", cli.ProtocolUsage)
	jsonPath := fs.String("json", "", "also write the findings as JSON to `FILE` (- for stdout)")
	oneSession := fs.Bool("one-session", false, "judge all connections of a file as one logical session (by default a recording's sessions decide, and a HAR file's connections are tied by the dialect's session ids, as wsproxy does)")
	maxFrame := fs.Int("max-frame", check.DefaultLimits.MaxFrameBytes, "largest frame in `BYTES` the checker validates; larger ones are reported, not judged")
	colorMode := fs.String("color", console.ColorAuto, "color output: auto, always or never (NO_COLOR is honoured)")
	quiet := fs.BoolP("quiet", "q", false, "print only error findings and the verdict")
	verbose := fs.BoolP("verbose", "v", false, "also print the spec's words behind each finding whole (the default cuts them)")
	var rf reportFiles
	fs.StringVar(&rf.html, "html", "", "also write a self-contained HTML report (sessions, connection timelines, findings, wire logs) to `FILE` (- for stdout)")
	fs.StringVar(&rf.junit, "junit", "", "also write JUnit XML (one test case per session) to `FILE` (- for stdout)")
	fs.StringVar(&rf.markdown, "markdown", "", "also write a Markdown summary to `FILE` (- for stdout; it is appended to $GITHUB_STEP_SUMMARY whenever that is set)")
	fs.BoolVar(&rf.noRedact, "no-redact", false, "keep credentials (token query values, Authorization and Cookie headers, apiKey/password members of frames, tokens such as Bearer …, sk-…, JWTs, ghp_… and AWS keys anywhere) in the reports and --json; by default they are redacted, keeping their length")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErr("validate: no FILE given")
	}
	if *protocol != "" {
		if fs.Changed("dialect") {
			return usageErr("validate: --protocol and --dialect exclude each other")
		}
		name, err := cli.Protocol(*protocol, stderr)
		if err != nil {
			return usageErr("validate: --protocol: %v", err)
		}
		*dialectName = name
	}
	if *dialectName != "auto" && !dialect.Known(*dialectName) {
		return usageErr("validate: unknown dialect %q (known: %s, or auto)", *dialectName, strings.Join(dialect.Names(), ", "))
	}
	if *quiet && *verbose {
		return usageErr("validate: --quiet and --verbose contradict each other: pick one")
	}
	if *maxFrame <= 0 {
		return usageErr("validate: --max-frame must be positive")
	}
	switch *colorMode {
	case console.ColorAuto, console.ColorAlways, console.ColorNever:
	default:
		return usageErr("validate: --color must be auto, always or never")
	}
	if err := rf.check(*jsonPath); err != nil {
		return usageErr("validate: %v", err)
	}
	human := stdout
	if *jsonPath == "-" || rf.toStdout() {
		human = stderr // keep stdout clean for the document, as run does
	}
	p := console.New(human, *colorMode)
	opts := validate.Options{Dialect: *dialectName, OneSession: *oneSession,
		Check: check.Options{Limits: check.Limits{MaxFrameBytes: *maxFrame}}}
	out := validateOutput{Format: "wsconform-validate", Version: 1, Tool: version.String(), Files: []validate.Result{}}
	rep := rf.start(args)
	worst := exitOK
	for _, path := range fs.Args() {
		col := rep.collector(path)
		if col != nil {
			opts.Observer = col
		}
		res, err := validate.File(ctx, path, opts)
		rep.add(path, col, res, err)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			p.Fail("%s: %v\n", path, err)
			out.Errors = append(out.Errors, err.Error())
			worst = max(worst, fileErrorCode(err))
			continue
		}
		out.Files = append(out.Files, res)
		printResult(p, res, &out.Counts, detail(*quiet, *verbose))
	}
	if out.Counts.Errors > 0 {
		worst = max(worst, exitFail)
	}
	out.Verdict = verdict(worst, out.Counts)
	printVerdict(p, out.Verdict, out.Counts, len(fs.Args()))
	if *jsonPath != "" {
		if !rf.noRedact {
			out.Files = redactFindings(out.Files)
		}
		if err := writeJSON(*jsonPath, stdout, out); err != nil {
			return harnessErr(err)
		}
		if line := cli.Written("findings as JSON", *jsonPath); line != "" {
			p.Dim("%s\n", line)
		}
	}
	if err := rep.write(stdout, p); err != nil {
		return harnessErr(err)
	}
	switch worst {
	case exitOK:
		return nil
	case exitFail:
		return errFailed
	default:
		return &exit.Error{Code: worst}
	}
}

func fileErrorCode(err error) int {
	if errors.Is(err, validate.ErrNoDialect) {
		return exitUsage
	}
	return exitHarness
}

func verdict(code int, c console.Counts) string {
	switch {
	case code == exitFail:
		return "failed"
	case code != exitOK:
		return "error"
	case c.Warnings > 0:
		return "non-strict"
	}
	return "passed"
}

// How much validate prints: -q only error findings, -v also the spec's
// words behind each finding, uncut.
const (
	detailQuiet = iota
	detailNormal
	detailVerbose
)

func detail(quiet, verbose bool) int {
	switch {
	case quiet:
		return detailQuiet
	case verbose:
		return detailVerbose
	}
	return detailNormal
}

func printResult(p *console.Printer, r validate.Result, total *console.Counts, level int) {
	var c console.Counts
	for _, f := range r.Findings {
		c.Add(f.Severity)
		total.Add(f.Severity)
	}
	if level == detailQuiet && c.Errors == 0 {
		return
	}
	p.Bold("%s", r.Path)
	p.Printf("  %s", r.Dialect)
	p.Dim(" (%s)\n", r.DialectReason)
	p.Dim("  %s · %s · %s · %s\n", r.Source, count(r.Sessions, "session"), count(r.Conns, "connection"), count(r.Frames, "frame"))
	if level > detailQuiet {
		for _, n := range r.Notes {
			p.Dim("  note: %s\n", n)
		}
	}
	for _, f := range r.Findings {
		if level == detailQuiet && f.Severity < check.Error {
			continue
		}
		where := ""
		if r.Sessions > 1 {
			where = f.Session
		}
		p.Finding(f.Finding, where)
		if level == detailVerbose && f.Quote != "" {
			p.Dim("            the spec's words, whole: %s\n", f.Quote)
		}
	}
	p.Dim("  %s\n\n", c)
}

func printVerdict(p *console.Printer, v string, c console.Counts, files int) {
	switch v {
	case "passed":
		p.Pass("PASS")
	case "non-strict":
		p.Warn("PASS (non-strict)")
	case "failed":
		p.Fail("FAIL")
	default:
		p.Fail("ERROR")
	}
	p.Printf("  %s in %s\n", c, count(files, "file"))
}

func count(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func writeJSON(path string, stdout io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode json: %w", err)
	}
	b = append(b, '\n')
	if path == "-" {
		_, err = stdout.Write(b)
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// reportFiles are the report files `validate` writes through the report
// model (one session per logical session of each file).
type reportFiles struct {
	html, junit, markdown string
	noRedact              bool
}

// validateReport builds the report while the files are judged.
type validateReport struct {
	files   reportFiles
	rep     *reports.Report
	frames  bool // keep wire logs (HTML and JUnit show them)
	dialect map[string]bool
}

// start returns nil when no report is wanted: no report file and no
// $GITHUB_STEP_SUMMARY.
func (f reportFiles) start(args []string) *validateReport {
	if f == (reportFiles{noRedact: f.noRedact}) && os.Getenv("GITHUB_STEP_SUMMARY") == "" {
		return nil
	}
	r := reports.New(reports.KindValidate, version.String(), time.Now())
	r.Command = "wsconform validate " + shellJoin(args)
	r.Dialects = []string{}
	return &validateReport{files: f, rep: r, frames: f.html != "" || f.junit != "", dialect: map[string]bool{}}
}

func (v *validateReport) collector(path string) *validate.Collector {
	if v == nil {
		return nil
	}
	limits := reports.WireLimits{}
	if v.frames {
		limits = reports.DefaultWireLimits
	}
	return validate.NewCollector(path, limits)
}

// add files what one file gave: its sessions, or why it could not be read.
func (v *validateReport) add(path string, col *validate.Collector, res validate.Result, err error) {
	if v == nil {
		return
	}
	v.rep.Targets = append(v.rep.Targets, reports.Target{Name: path})
	if res.Dialect != "" && !v.dialect[res.Dialect] {
		v.dialect[res.Dialect] = true
		v.rep.Dialects = append(v.rep.Dialects, res.Dialect)
	}
	if err != nil {
		v.rep.Errors = append(v.rep.Errors, fmt.Sprintf("%s: %v", path, err))
		return
	}
	if col != nil {
		v.rep.Sessions = append(v.rep.Sessions, col.Sessions()...)
	}
	v.rep.Notes = append(v.rep.Notes, res.Notes...)
}

// write writes the requested files and appends the Markdown summary to
// $GITHUB_STEP_SUMMARY.
func (v *validateReport) write(stdout io.Writer, p *console.Printer) error {
	if v == nil {
		return nil
	}
	v.rep.Finished = time.Now()
	v.rep.Tally()
	rep := v.rep
	if !v.files.noRedact {
		rep = reports.Redact(rep)
	}
	for _, o := range []struct {
		path, kind string
		write      func(io.Writer, *reports.Report) error
	}{{v.files.html, "HTML report", reports.WriteHTML}, {v.files.junit, "JUnit XML", reports.WriteJUnit},
		{v.files.markdown, "Markdown summary", reports.WriteMarkdown}} {
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
	if err := reports.AppendStepSummary(rep); err != nil {
		return err
	}
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		p.Dim("appended the Markdown summary to $GITHUB_STEP_SUMMARY (%s)\n", path)
	}
	return nil
}

// toStdout says a report goes to stdout (-).
func (f reportFiles) toStdout() bool { return f.html == "-" || f.junit == "-" || f.markdown == "-" }

// check checks, before any file is read, that every report can be written
// where asked, and that at most one goes to stdout.
func (f reportFiles) check(jsonPath string) error {
	n := 0
	for _, p := range []string{f.html, f.junit, f.markdown, jsonPath} {
		if p == "-" {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("only one report can go to stdout (-)")
	}
	return cli.CheckOutputs(cli.Output{Flag: "--json", Path: jsonPath}, cli.Output{Flag: "--html", Path: f.html},
		cli.Output{Flag: "--junit", Path: f.junit}, cli.Output{Flag: "--markdown", Path: f.markdown})
}
