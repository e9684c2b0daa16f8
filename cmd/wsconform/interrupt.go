package main

import (
	"context"
	"fmt"
	"strings"
	"syscall"

	"github.com/wsconform/wsconform/cmd/internal/cli"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/exit"
	"github.com/wsconform/wsconform/reports"
)

// An interrupted command (Ctrl-C, SIGTERM) is not a broken target: what
// finished keeps its verdict, what did not is not-run, the reports say so,
// and the exit code is exit.Interrupted (130), apart from a verdict (0, 1)
// and from a harness error (3).

// stopHint is what main prints when the first signal arrives.
var stopHint = cli.StopHint("wsconform")

// interruptedBy names who stopped the command, for "interrupted by …":
// the user for SIGINT (Ctrl-C), the signal's name for SIGTERM (a CI job
// cancelled, a process manager).
func interruptedBy(ctx context.Context) string {
	if strings.HasPrefix(context.Cause(ctx).Error(), syscall.SIGTERM.String()) {
		return "SIGTERM"
	}
	return "the user"
}

// noConnection starts the proxy report's error for a gate whose client
// made no WebSocket connection.
const noConnection = "no WebSocket connection was made"

// interrupted ends an interrupted command with code 130; the console has
// already said what was not done.
func interrupted() error { return &exit.Error{Code: exit.Interrupted} }

// printInterrupted says, after the summary, that the run was stopped and
// what that means for its verdicts.
func printInterrupted(p *console.Printer, rep *reports.Report) {
	if rep.Interrupted == "" {
		return
	}
	n := rep.Counts[reports.NotRun]
	p.Warn("%s", rep.Interrupted)
	p.Printf(": %d %s not run; the reports keep the verdicts of the others\n", n, plural(n, "scenario was", "scenarios were"))
}

// notRunColumn is the console summary's column for not-run scenarios:
// only an interrupted run has one.
func notRunColumn(rep *reports.Report, c map[reports.Verdict]int) string {
	if rep.Counts[reports.NotRun] == 0 {
		return ""
	}
	if c == nil {
		return "\tnot run"
	}
	return fmt.Sprintf("\t%d", c[reports.NotRun])
}

// gateInterrupted marks a gate whose client command the user stopped:
// the command did not run to its end, so neither its exit nor "it talked
// to the server" is judged (not-run). The sessions keep what their frames
// showed up to the stop. That the client made no connection yet is a
// note then, not a harness error: it was stopped before it could.
func gateInterrupted(rep *reports.Report, by string) {
	rep.Interrupted = "interrupted by " + by + " while the client command ran"
	errs := rep.Errors[:0]
	for _, e := range rep.Errors {
		if strings.HasPrefix(e, noConnection) { // internal/proxy's words
			rep.Notes = append(rep.Notes, e+" before the command was stopped")
			continue
		}
		errs = append(errs, e)
	}
	rep.Errors = errs
	for i := range rep.Scenarios {
		s := &rep.Scenarios[i]
		s.Verdict, s.Reason = reports.NotRun, rep.Interrupted
		for j := range s.Steps {
			if s.Steps[j].Status == "failed" {
				s.Steps[j].Status, s.Steps[j].Error = "skipped", "stopped: "+rep.Interrupted
			}
		}
	}
	rep.Tally()
}
