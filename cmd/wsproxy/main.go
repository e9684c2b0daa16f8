// Command wsproxy sits between a UI and an AI-agent server: it relays every
// WebSocket frame (and every plain HTTP request) to the upstream untouched,
// judges each frame against the dialect's spec off the relay path, prints a
// colored live log with violations, records the traffic to disk as it
// passes, and writes reports on exit.
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
	go cli.WatchSecondSignal(ctx, stop, os.Stderr, "wsproxy")
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}
