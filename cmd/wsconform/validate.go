package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/internal/version"
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
			"expected vs actual and the spec section. Exit 0 clean, 1 error findings,\n"+
			"2 usage error, 3 unreadable input.", stdout)
	dialectName := fs.String("dialect", "auto", "dialect: "+fmt.Sprint(dialect.Names())+" or auto (from the recording header or the first frames)")
	jsonPath := fs.String("json", "", "also write the findings as JSON to `FILE` (- for stdout)")
	oneSession := fs.Bool("one-session", false, "judge all connections of a file as one logical session (reconnects in a HAR file)")
	maxFrame := fs.Int("max-frame", check.DefaultLimits.MaxFrameBytes, "largest frame in `BYTES` the checker validates; larger ones are reported, not judged")
	colorMode := fs.String("color", console.ColorAuto, "color output: auto, always or never (NO_COLOR is honoured)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErr("validate: no FILE given")
	}
	if *dialectName != "auto" && !dialect.Known(*dialectName) {
		return usageErr("validate: unknown dialect %q (known: %v, or auto)", *dialectName, dialect.Names())
	}
	if *maxFrame <= 0 {
		return usageErr("validate: --max-frame must be positive")
	}
	switch *colorMode {
	case console.ColorAuto, console.ColorAlways, console.ColorNever:
	default:
		return usageErr("validate: --color must be auto, always or never")
	}
	human := stdout
	if *jsonPath == "-" {
		human = stderr // keep stdout clean for the JSON document
	}
	p := console.New(human, *colorMode)
	opts := validate.Options{Dialect: *dialectName, OneSession: *oneSession,
		Check: check.Options{Limits: check.Limits{MaxFrameBytes: *maxFrame}}}
	out := validateOutput{Format: "wsconform-validate", Version: 1, Tool: version.String(), Files: []validate.Result{}}
	worst := exitOK
	for _, path := range fs.Args() {
		res, err := validate.File(ctx, path, opts)
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
		printResult(p, res, &out.Counts)
		if res.Frames == 0 && len(res.Problems) > 0 {
			p.Fail("%s: no readable frame\n", path)
			worst = max(worst, exitHarness)
		}
	}
	if out.Counts.Errors > 0 {
		worst = max(worst, exitFail)
	}
	out.Verdict = verdict(worst, out.Counts)
	printVerdict(p, out.Verdict, out.Counts, len(fs.Args()))
	if *jsonPath != "" {
		if err := writeJSON(*jsonPath, stdout, out); err != nil {
			return harnessErr(err)
		}
	}
	switch worst {
	case exitOK:
		return nil
	case exitFail:
		return errFailed
	default:
		return &exitError{code: worst}
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

func printResult(p *console.Printer, r validate.Result, total *console.Counts) {
	p.Bold("%s", r.Path)
	p.Printf("  %s", r.Dialect)
	p.Dim(" (%s)\n", r.DialectReason)
	p.Dim("  %s · %s · %s · %s\n", r.Source, count(r.Sessions, "session"), count(r.Conns, "connection"), count(r.Frames, "frame"))
	var c console.Counts
	for _, f := range r.Findings {
		where := ""
		if r.Sessions > 1 {
			where = f.Session
		}
		p.Finding(f.Finding, where)
		c.Add(f.Severity)
		total.Add(f.Severity)
	}
	for _, pr := range r.Problems {
		p.Warn("  ! skipped ")
		p.Printf("%s\n", pr)
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
