package perf

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// childRun is one run of a command, as a user runs it: its wall time, the
// CPU time it used (user and system) and its peak RSS, from wait4.
type childRun struct {
	wall, cpu time.Duration
	peakRSS   int64 // bytes; 0 when not known
	output    string
}

// runChild runs bin with args in dir and waits for it. A non-zero exit is
// an error that quotes the end of the command's output: a measure of a
// failed run is not a figure.
func runChild(ctx context.Context, dir, bin string, args ...string) (childRun, error) {
	var out childTail
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	err := cmd.Run()
	r := childRun{wall: time.Since(t0), output: out.String()}
	if err != nil {
		return r, fmt.Errorf("%s %s: %w: %s", bin, strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if rss, ok := childPeakRSS(cmd.ProcessState); ok {
		r.peakRSS = rss
	}
	return r, nil
}

// childTail keeps the first and last few KiB a command writes: enough to
// quote an error or read a summary, bounded however much it prints.
type childTail struct {
	head, tail []byte
	cut        bool // bytes between head and tail were dropped
}

const childKeep = 4 << 10

func (t *childTail) Write(p []byte) (int, error) {
	n := len(p)
	if room := childKeep - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.tail = append(t.tail, p...)
	if len(t.tail) > 2*childKeep {
		t.tail = append(t.tail[:0], t.tail[len(t.tail)-childKeep:]...)
		t.cut = true
	}
	return n, nil
}

func (t *childTail) String() string {
	if t.cut || len(t.tail) > childKeep {
		return string(t.head) + "\n…\n" + string(t.tail[max(0, len(t.tail)-childKeep):])
	}
	return string(t.head) + string(t.tail)
}
