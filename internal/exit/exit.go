// Package exit carries an exit code from deep in a command up to its main,
// the only place that exits, and prints what the user needs on the way
// out. Both commands share the codes of README and DESIGN.md.
package exit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/redact"
)

// The exit codes of every command.
const (
	OK      = 0
	Fail    = 1 // conformance failure: an error finding
	Usage   = 2 // bad flags or arguments
	Harness = 3 // unreadable input, unreachable target, harness error
	// Interrupted: SIGINT or SIGTERM stopped the command before it was
	// done; 128+2 as a shell reports a command SIGINT ended, so scripts
	// and CI tell a stop apart from a verdict or a harness error.
	Interrupted = 130
)

// Error is an error with the code main exits with.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// UsageErr is a usage error (code 2).
func UsageErr(format string, args ...any) error {
	return &Error{Code: Usage, Err: fmt.Errorf(format, args...)}
}

// HarnessErr is a harness error (code 3).
func HarnessErr(err error) error { return &Error{Code: Harness, Err: err} }

// InterruptedErr is an interruption (code 130); err, when set, says what
// was left undone.
func InterruptedErr(err error) error { return &Error{Code: Interrupted, Err: err} }

// Failed is returned when the judged traffic had error findings; the
// findings themselves were already printed.
var Failed = &Error{Code: Fail}

// Code prints err for prog on stderr and returns the code to exit with.
// A usage error ends with the hint to run help: prog plus what helpTopic
// (which may be nil) names. The error is printed redacted and escaped
// (see printErr): its text can quote the network.
func Code(err error, stderr io.Writer, prog string, helpTopic func(error) string) int {
	if err == nil {
		return OK
	}
	var ee *Error
	if errors.As(err, &ee) {
		if ee.Err != nil {
			printErr(stderr, prog, ee.Err, ee.Code != Usage)
		}
		if ee.Code == Usage && ee.Err != nil {
			topic := ""
			if helpTopic != nil {
				topic = helpTopic(ee.Err)
			}
			fmt.Fprintf(stderr, "Run '%s %s--help' for usage.\n", prog, topic)
		}
		return ee.Code
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "%s: interrupted\n", prog)
		return Interrupted
	}
	printErr(stderr, prog, err, true)
	return Harness
}

// printErr prints err as "prog: text", one line per error that
// errors.Join joined (the one multi-line error the tool builds). Each text
// is escaped for the terminal: a close reason, a server's HTTP body or a
// message type in it must not drive the terminal or start a line. With
// scrub it is also redacted like the reports (a dial error quoting
// ws://h/?token=…); a usage error is not, being the tool's words about
// the command line just typed, whose placeholders ("--var password=…",
// 'Key: Value') read as credentials.
func printErr(w io.Writer, prog string, err error, scrub bool) {
	for _, line := range errLines(err) {
		if scrub {
			line = redact.Text(line)
		}
		fmt.Fprintf(w, "%s: %s\n", prog, console.Escape(line))
	}
}

// errLines splits what errors.Join joined, at any depth of joins; any
// other error is one line whatever its text holds.
func errLines(err error) []string {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []string{err.Error()}
	}
	var lines []string
	for _, e := range j.Unwrap() {
		if e != nil {
			lines = append(lines, errLines(e)...)
		}
	}
	// fmt.Errorf with several %w unwraps to a list too, but is one text.
	if joined := strings.Join(lines, "\n"); joined != err.Error() {
		return []string{err.Error()}
	}
	return lines
}
