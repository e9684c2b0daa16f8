// Command wsconform tests WebSocket servers and clients of AI-agent
// protocols against their specs: it validates recordings offline, lists
// its rule catalogue, and (in later commands) runs conformance suites and
// gates client implementations in CI.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/wsconform/wsconform/cmd/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go cli.WatchSecondSignal(ctx, stop, os.Stderr, "wsconform")
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}
