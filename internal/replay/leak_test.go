package replay

import (
	"bytes"
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestNoGoroutineLeft: after replays that pass, that give up on answers,
// that are interrupted and that find no server, no reader or writer
// goroutine of a replayed connection is left.
func TestNoGoroutineLeft(t *testing.T) {
	rec, err := os.ReadFile(goldenPath("minicodex"))
	if err != nil {
		t.Fatal(err)
	}
	fresh := startReference(t, "minicodex")
	mutated := startReference(t, "minicodex", "minicodex-replay-skips-event")
	replayAgainst(t, rec, fresh.URL, Options{})
	replayAgainst(t, rec, mutated.URL, Options{AnswerTimeout: 200 * time.Millisecond})

	p, err := Read(bytes.NewReader(rec), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	// /slow 6 keeps the replay busy past the deadline: it is interrupted.
	if _, err := Run(ctx, p, Options{Against: fresh.URL, Pace: PaceOriginal}); err == nil {
		t.Log("the replay finished before its deadline; the interruption is not exercised")
	}
	if _, err := Run(context.Background(), p, Options{Against: "ws://127.0.0.1:1"}); !errors.Is(err, ErrUnreachable) {
		t.Errorf("dead target: %v, want ErrUnreachable", err)
	}
	deadline := time.Now().Add(testTimeout)
	for {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "internal/replay.(*live).read") && !strings.Contains(stacks, "internal/replay.(*live).write") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("replay goroutines left behind:\n%s", stacks)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
