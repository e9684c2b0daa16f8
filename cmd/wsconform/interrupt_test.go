package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/exit"
)

// TestReplayInterrupted: a replay stopped before the recording was played
// to its end judged nothing: it says so, writes no report, and exits 130,
// never 1 (a diff) or 3 (an unreachable target).
func TestReplayInterrupted(t *testing.T) {
	t.Parallel()
	url := replayRef(t, "minicodex")
	js := filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	err := run(ctx, []string{"replay", "--color", "never", "--json", js, "--against", url, replayGolden("minicodex")}, &out, &errb)
	code := exitCode(err, &errb)
	if code != exit.Interrupted || !strings.Contains(errb.String(), "replay: interrupted by the user before the recording was played to its end: nothing was judged, no report written") {
		t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", code, exit.Interrupted, out.String(), errb.String())
	}
	if _, err := os.Stat(js); !os.IsNotExist(err) {
		t.Errorf("a report was written: %v", err)
	}
}
