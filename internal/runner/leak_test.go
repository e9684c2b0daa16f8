package runner

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestNoGoroutineLeft: after a run (passing and failing scenarios, bad
// targets) and the reference server's shutdown, no goroutine of the
// runner's clients is left behind.
func TestNoGoroutineLeft(t *testing.T) {
	ctx := context.Background()
	srv, target, err := StartReference(ctx, []string{"minicodex"}, []string{"minicodex-replay-skips-event"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, Options{Dialects: []string{"minicodex"}, Targets: []Target{target,
		{Name: "dead", URL: "ws://127.0.0.1:1/ws"}}, Vars: ReferenceVars()}); err != nil {
		t.Fatal(err)
	}
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "internal/runner.(*client).readLoop") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("client reader goroutines left behind:\n%s", stacks)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
