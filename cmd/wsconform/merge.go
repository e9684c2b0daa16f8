package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/reports"
)

const mergeAbout = `Puts the JSON reports of a run split across CI jobs (run --shard I/N --json
FILE, one per job) back into one report: one verdict, one list of distinct
problems and one requirement coverage, the same as one unsharded run would
give, and the same exit code (0 passed, 1 failed, 2 usage, 3 harness error).
Every part 1..N must be given once; a missing part is an error, never a
silently smaller report. --features DIR is needed when the run used it: the
coverage is computed from the features the scenarios came from.`

type mergeFlags struct {
	out       reportFlags
	features  string
	colorMode string
	quiet     bool
	verbose   bool
}

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("merge", "PART.json... [--html FILE] [--junit FILE] [--json FILE] [--markdown FILE]", mergeAbout, stdout)
	var f mergeFlags
	f.out.addFlags(fs)
	fs.StringVar(&f.features, "features", "", "the feature files under `DIR` the run used (its --features), for the requirement coverage")
	fs.StringVar(&f.colorMode, "color", console.ColorAuto, "color output: auto, always or never (NO_COLOR is honoured)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print only the summary")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "print every scenario with its verdict")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErr("merge: give the JSON reports of the shards (run --shard I/N --json FILE)")
	}
	if err := f.out.check(); err != nil {
		return usageErr("merge: %v", err)
	}
	switch f.colorMode {
	case console.ColorAuto, console.ColorAlways, console.ColorNever:
	default:
		return usageErr("merge: --color must be auto, always or never")
	}
	human := stdout
	if f.out.toStdout() {
		human = stderr
	}
	p := console.New(human, f.colorMode)
	var parts []*reports.Report
	for _, path := range fs.Args() {
		rep, err := readReport(path)
		if err != nil {
			return usageErr("merge: %v", err)
		}
		parts = append(parts, rep)
	}
	rep, err := reports.MergeShards(parts)
	if err != nil {
		return usageErr("%v", err)
	}
	var targets []runner.Target
	for _, t := range rep.Targets {
		targets = append(targets, runner.Target{Name: t.Name, URL: t.URL, Reference: t.Reference})
	}
	runner.SortResults(rep.Scenarios, targets)
	rep.Dialects = dialectsOf(rep.Scenarios)
	if rep.Coverage, err = mergedCoverage(f.features, rep); err != nil {
		return usageErr("merge: %v", err)
	}
	rep.Tally()
	if f.verbose {
		for _, s := range rep.Scenarios {
			printProgress(p, s, len(rep.Targets) > 1, false)
		}
	}
	p.Printf("merged %d %s: %d scenarios\n", len(parts), plural(len(parts), "report", "reports"), len(rep.Scenarios))
	printSummary(p, rep)
	if err := writeReports(rep, f.out, stdout, p); err != nil {
		return harnessErr(err)
	}
	return exitFor(rep)
}

// readReport reads one part.
func readReport(path string) (*reports.Report, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	rep, err := reports.ReadJSON(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// mergedCoverage computes the coverage of the merged scenarios from the
// features they came from, as run does for one unsharded run.
func mergedCoverage(features string, rep *reports.Report) (*reports.Coverage, error) {
	opts := runner.Options{Dialects: rep.Dialects}
	if features != "" {
		st, err := os.Stat(features)
		if err != nil || !st.IsDir() {
			return nil, fmt.Errorf("--features %q is not a directory", features)
		}
		opts.Features, opts.Dialects = os.DirFS(features), nil
	}
	cat, err := runner.Load(opts)
	if err != nil {
		return nil, err
	}
	return coverageOf(cat, rep), nil
}
