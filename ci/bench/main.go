// Command bench prints every figure of issue 26's performance table in one
// run: the check engine per dialect, the proxy beside a bare TCP relay, a
// direct connection and mitmproxy on the same upstream, memory, `validate`
// of a large recording and the conformance suite, each measured in
// interleaved rounds, with medians, the goal and whether it is met:
//
//	go run ./ci/bench                      # every group, 5 rounds (minutes)
//	go run ./ci/bench --only engine,validate --rounds 3
//	go run ./ci/bench --markdown           # the table for docs/performance.md
//	go run ./ci/bench --quick              # tiny sizes: shows the command works
//
// It builds wsconform and wsproxy from this checkout into a temporary
// directory, so the commands are measured as a user runs them, and finds
// mitmdump on PATH. These are measurements: nothing here asserts a time.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/wsconform/wsconform/internal/perf"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	var ue usageError
	switch {
	case err == nil:
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// group is one --only name and its measure. needs names the binaries
// built from this checkout that it runs.
type group struct {
	name    string
	measure perf.Measure
	needs   []string // "wsconform", "wsproxy"
}

// groups is every measure, in the order of the table.
var groups = []group{
	{name: "engine", measure: perf.Engine},
	{name: "relay", measure: perf.Relay, needs: []string{"wsproxy"}},
	{name: "memory", measure: perf.Memory, needs: []string{"wsproxy"}},
	{name: "validate", measure: perf.Validate, needs: []string{"wsconform"}},
	{name: "suite", measure: perf.Suite, needs: []string{"wsconform"}},
}

// usageError is a mistake in the command line: exit 2, as flag errors do.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg + " (see --help)" }

// options are the command line's.
type options struct {
	rounds   int
	quick    bool
	only     []string
	markdown bool
	help     bool
}

func groupNames() []string {
	var ns []string
	for _, g := range groups {
		ns = append(ns, g.name)
	}
	return ns
}

// parseArgs reads the command line; every mistake is a usageError, found
// before anything is built or measured.
func parseArgs(args []string) (options, *pflag.FlagSet, error) {
	var o options
	var only string
	fs := pflag.NewFlagSet("bench", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&o.rounds, "rounds", 5, "interleaved rounds per figure; the table shows medians")
	fs.BoolVar(&o.quick, "quick", false, "tiny sizes: shows the command works; the figures mean nothing")
	fs.StringVar(&only, "only", "", "run only these groups, comma-separated: "+strings.Join(groupNames(), ", "))
	fs.BoolVar(&o.markdown, "markdown", false, "print the table as Markdown, to paste into docs/performance.md")
	fs.BoolVarP(&o.help, "help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		return o, fs, usageError{flagError(err)}
	}
	if fs.NArg() > 0 {
		return o, fs, usageError{fmt.Sprintf("unexpected argument %q: bench takes only flags", fs.Arg(0))}
	}
	if o.rounds < 1 {
		return o, fs, usageError{fmt.Sprintf("--rounds %d: at least 1", o.rounds)}
	}
	if fs.Changed("only") {
		for _, n := range strings.Split(only, ",") {
			n = strings.TrimSpace(n)
			if !slices.Contains(groupNames(), n) {
				return o, fs, usageError{fmt.Sprintf("--only %q: no group %q (groups: %s)", only, n, strings.Join(groupNames(), ", "))}
			}
			if !slices.Contains(o.only, n) {
				o.only = append(o.only, n)
			}
		}
	}
	return o, fs, nil
}

// flagError says a bad --rounds in the user's words, not strconv's.
func flagError(err error) string {
	if m := badRounds.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Sprintf("--rounds %q: not a whole number", m[1])
	}
	return err.Error()
}

var badRounds = regexp.MustCompile(`^invalid argument "(.*)" for "--rounds" flag`)

const usageHead = `Usage: go run ./ci/bench [--rounds N] [--quick] [--only GROUP[,GROUP]] [--markdown]

Measures issue 26's figures in interleaved rounds and prints one table:
figure, each subject's median, the ratio where the goal is one, the goal,
and whether it is met, above it the machine (cores, load average before and
after, Go version, commit). wsconform and wsproxy are built from this
checkout; mitmproxy is measured when mitmdump is on PATH
(apt-get install mitmproxy). Every group takes minutes; --quick seconds.

Flags:
`

// run is the command; only main exits.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, fs, err := parseArgs(args)
	if err != nil {
		return err
	}
	if o.help {
		fmt.Fprint(stdout, usageHead+fs.FlagUsages())
		return nil
	}
	var chosen []group
	for _, g := range groups {
		if len(o.only) == 0 || slices.Contains(o.only, g.name) {
			chosen = append(chosen, g)
		}
	}

	tmp, err := os.MkdirTemp("", "wsconform-bench-")
	if err != nil {
		return fmt.Errorf("temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)

	t := perf.Table{Rounds: o.rounds, Quick: o.quick}
	t.Machine = readMachine(ctx)
	cfg := perf.Config{Rounds: o.rounds, Quick: o.quick, TempDir: tmp}
	cfg.Mitmproxy, t.Machine.Mitmproxy = findMitmproxy(ctx)
	if cfg.Mitmproxy == "" {
		t.NotInstalled = map[string]string{"mitmproxy": notInstalledMitmproxy}
	}
	if err := buildNeeded(ctx, chosen, &cfg, stderr); err != nil {
		return err
	}

	var failed []string
	for _, g := range chosen {
		res := perf.Group{Name: g.name}
		res.Load, _, _ = strings.Cut(loadAverage(), " ")
		fmt.Fprintf(stderr, "bench: measuring %s (%d %s)\n", g.name, o.rounds, plural(o.rounds, "round", "rounds"))
		res.Figures, res.Err = g.measure(ctx, cfg)
		if res.Err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%s: %w", g.name, ctx.Err())
			}
			failed = append(failed, g.name)
		}
		t.Groups = append(t.Groups, res)
	}
	t.Machine.LoadAfter = loadAverage()

	if o.markdown {
		err = t.WriteMarkdown(stdout)
	} else {
		err = t.WriteText(stdout)
	}
	if err != nil {
		return fmt.Errorf("write the table: %w", err)
	}
	if len(failed) > 0 {
		return fmt.Errorf("%s failed (the table says why)", strings.Join(failed, ", "))
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
