package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/wsconform/wsconform/cmd/internal/cli"
	"github.com/wsconform/wsconform/cmd/internal/completion"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/exit"
	"github.com/wsconform/wsconform/internal/requirements"
	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/internal/version"
)

// Exit codes and errors that carry them, shared with the other command.
const (
	exitOK      = exit.OK
	exitFail    = exit.Fail
	exitUsage   = exit.Usage
	exitHarness = exit.Harness
)

var (
	usageErr   = exit.UsageErr
	harnessErr = exit.HarnessErr
	errFailed  = exit.Failed
)

// exitCode prints err and returns the code main exits with.
func exitCode(err error, stderr io.Writer) int {
	return exit.Code(err, stderr, "wsconform", helpTopic)
}

// helpTopic names the command a usage error came from ("validate: ..."),
// so the hint points at that command's help.
func helpTopic(err error) string {
	if err == nil {
		return ""
	}
	for _, c := range commands() {
		if strings.HasPrefix(err.Error(), c.name+": ") {
			return c.name + " "
		}
	}
	return ""
}

// command is one subcommand.
type command struct {
	name, summary string
	run           func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"run", "run the conformance features against a server", runRun},
		{"gate", "run a client command against the reference server and judge its traffic", runGate},
		{"validate", "judge recordings and HAR files offline", runValidate},
		{"replay", "replay a recording's client side against a server and diff the answers", runReplay},
		{"merge", "merge the JSON reports of a run split with --shard into one report", runMerge},
		{"export", "export a recording as a Chrome DevTools HAR file, or a dialect as an AsyncAPI 3 document", runExport},
		{"serve", "run the reference server of every dialect", runServe},
		{"rules", "print the rule catalogue", runRules},
		{"requirements", "list the spec requirements and the rules and scenarios that cite them", runRequirements},
		{"mcp", "serve the tools to coding agents as an MCP server (stdio, or --http on loopback)", runMCP},
		{"version", "print the version", runVersion},
		{"completion", "print a shell completion script (bash, zsh, fish)", runCompletion},
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printUsage(stderr)
		return &exit.Error{Code: exitUsage}
	}
	switch args[0] {
	case "help":
		if len(args) > 1 { // help CMD is CMD --help
			for _, c := range commands() {
				if c.name == args[1] {
					return c.run(ctx, []string{"--help"}, stdout, stderr)
				}
			}
			return usageErr("help: unknown command %q", args[1])
		}
		printUsage(stdout)
		return nil
	case "-h", "--help":
		printUsage(stdout)
		return nil
	case "--version":
		return runVersion(ctx, nil, stdout, stderr)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	return usageErr("unknown command %q", args[0])
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "%s: conformance tester for JSON-over-WebSocket agent protocols\n\nUsage:\n  wsconform <command> [flags]\n\nCommands:\n", version.String())
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'wsconform <command> --help' for a command's flags.\n")
	fmt.Fprintf(w, "Exit codes: 0 pass, 1 conformance failure, 2 usage error, 3 unreadable input or harness error, 130 interrupted (Ctrl-C, SIGTERM).\n")
}

// flagSet is a command's flags with the help text --help prints.
type flagSet struct {
	*pflag.FlagSet
	help func()
}

// newFlags makes a flag set whose errors come back as usage errors and
// whose --help prints a synopsis, a description and the flags. pflag calls
// Usage on every parse error too; only --help should print it, so Usage
// stays silent and parse prints the help itself.
func newFlags(name, synopsis, about string, stdout io.Writer) *flagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, help: func() {
		fmt.Fprintf(stdout, "Usage: wsconform %s %s\n\n%s\n\nFlags:\n", name, synopsis, about)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}}
}

// parse parses flags; --help prints usage and ends the command cleanly.
func (fs *flagSet) parse(args []string) (help bool, err error) {
	if len(args) == 1 && args[0] == collectFlags {
		return true, &flagsOnly{fs.FlagSet}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fs.help()
			return true, nil
		}
		return false, usageErr("%s: %s", fs.Name(), cli.FlagError(fs.FlagSet, err))
	}
	return false, nil
}

func runVersion(_ context.Context, args []string, stdout, _ io.Writer) error {
	if len(args) == 1 && args[0] == collectFlags {
		return &flagsOnly{pflag.NewFlagSet("version", pflag.ContinueOnError)}
	}
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		fmt.Fprintln(stdout, "Usage: wsconform version\n\nPrints the version.")
		return nil
	}
	if len(args) > 0 {
		return usageErr("version takes no arguments, got %s", strings.Join(args, " "))
	}
	fmt.Fprintln(stdout, version.Info("wsconform"))
	return nil
}

// collectFlags, as a command's only argument, makes it return its flag
// set (a *flagsOnly error) without doing anything: completion is
// generated from the very flag sets the commands parse.
const collectFlags = "\x00collect-flags"

type flagsOnly struct{ fs *pflag.FlagSet }

func (*flagsOnly) Error() string { return "flags collected" }

// flagSets returns every command's flag set, in the order of commands().
func flagSets(ctx context.Context) []completion.Command {
	var out []completion.Command
	for _, c := range commands() {
		var fo *flagsOnly
		fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
		if err := c.run(ctx, []string{collectFlags}, io.Discard, io.Discard); errors.As(err, &fo) {
			fs = fo.fs
		}
		out = append(out, completion.Command{Name: c.name, Summary: c.summary, Flags: fs})
	}
	return out
}

// completionChoices are the values of the flags that take one of a few.
func completionChoices() map[string][]string {
	return map[string][]string{
		"dialect":  append(dialect.Names(), "all", "auto"),
		"color":    {console.ColorAuto, console.ColorAlways, console.ColorNever},
		"answer":   {runner.AnswerApprove, runner.AnswerDeny, runner.AnswerFirst, runner.AnswerNone},
		"evidence": {string(requirements.Stated), string(requirements.Shown), string(requirements.Interpretation)},
		"level":    {string(requirements.Must), string(requirements.Should), string(requirements.May), string(requirements.Type)},
	}
}

func runCompletion(ctx context.Context, args []string, stdout, _ io.Writer) error {
	const help = `Usage: wsconform completion bash|zsh|fish

Prints a shell completion script for wsconform's commands and flags:
  bash:  source <(wsconform completion bash)        (or save it under ~/.local/share/bash-completion/completions/wsconform)
  zsh:   wsconform completion zsh > "${fpath[1]}/_wsconform"
  fish:  wsconform completion fish > ~/.config/fish/completions/wsconform.fish`
	if len(args) == 1 && args[0] == collectFlags {
		return &flagsOnly{pflag.NewFlagSet("completion", pflag.ContinueOnError)}
	}
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		fmt.Fprintln(stdout, help)
		return nil
	}
	if len(args) != 1 {
		return usageErr("completion: name one shell: bash, zsh or fish")
	}
	if err := completion.Write(stdout, args[0], "wsconform", flagSets(ctx), completionChoices()); err != nil {
		return usageErr("completion: %v", err)
	}
	return nil
}
