package perf

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// childRun is one run of a command, as a user runs it: its wall time, the
// CPU time it used (user and system) and its peak RSS.
type childRun struct {
	wall, cpu time.Duration
	peakRSS   int64 // bytes; 0 when not known
	output    string
}

// runChild runs bin with args in dir and waits for it, through
// cfg.MaxRSS when it is set, which reports the command's own peak RSS. A
// non-zero exit is an error that quotes the end of the command's output: a
// measure of a failed run is not a figure.
func runChild(ctx context.Context, cfg Config, bin string, args ...string) (childRun, error) {
	var out childTail
	name, argv := bin, args
	var usage string
	if cfg.MaxRSS != "" {
		f, err := os.CreateTemp(cfg.TempDir, "maxrss-*")
		if err != nil {
			return childRun{}, fmt.Errorf("maxrss: %w", err)
		}
		usage = f.Name()
		f.Close()
		defer os.Remove(usage)
		name, argv = cfg.MaxRSS, append([]string{usage, bin}, args...)
	}
	cmd := exec.CommandContext(ctx, name, argv...)
	cmd.Dir = cfg.TempDir
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	err := cmd.Run()
	r := childRun{wall: time.Since(t0), output: out.String()}
	if err != nil {
		return r, fmt.Errorf("%s %s: %w: %s", filepath.Base(bin), strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if usage != "" {
		b, err := os.ReadFile(usage)
		if err != nil {
			return r, fmt.Errorf("maxrss: %w", err)
		}
		var user, sys int64
		if _, err := fmt.Sscan(string(b), &r.peakRSS, &user, &sys); err != nil {
			return r, fmt.Errorf("maxrss: %q: %w", b, err)
		}
		r.cpu = time.Duration(user + sys)
	}
	return r, nil
}

// rssNote says why a command's peak RSS is missing.
const rssNote = "peak RSS needs ci/bench/maxrss (cfg.MaxRSS): wait4's maxrss of a direct child counts this process's RSS too"

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
