package cli

import (
	"context"
	"fmt"
	"io"
)

// StopHint is what a command prints when the first SIGINT or SIGTERM
// arrives: it winds down (reports written, connections closed), and a
// second signal is not caught any more, so it ends the process at once.
func StopHint(program string) string {
	return program + ": stopping; press Ctrl-C again to quit at once"
}

// WatchSecondSignal waits for the first signal of ctx (made by
// signal.NotifyContext), then restores the signals' default action (stop)
// so that the next one ends the process at once, and says so on w. It does
// nothing when ctx ends because main called stop itself.
func WatchSecondSignal(ctx context.Context, stop func(), w io.Writer, program string) {
	<-ctx.Done()
	if context.Cause(ctx) == context.Canceled {
		return // main is done: no signal came
	}
	stop()
	fmt.Fprintln(w, "\n"+StopHint(program))
}
