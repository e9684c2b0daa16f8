package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/perf"
)

// notInstalledMitmproxy is what the table says where mitmproxy is missing.
const notInstalledMitmproxy = "not installed: apt-get install mitmproxy"

// readMachine describes this machine and checkout; what it cannot read is
// "unknown", never an error: the figures are still worth printing.
func readMachine(ctx context.Context) perf.Machine {
	m := perf.Machine{Cores: runtime.NumCPU(), CPU: cpuModel(), LoadBefore: loadAverage()}
	m.Go = strings.TrimSpace(output(ctx, "go", "env", "GOVERSION"))
	if m.Go == "" {
		m.Go = runtime.Version()
	}
	m.Commit = strings.TrimSpace(output(ctx, "git", "rev-parse", "--short", "HEAD"))
	if m.Commit == "" {
		m.Commit = "unknown"
	} else if strings.TrimSpace(output(ctx, "git", "status", "--porcelain", "--untracked-files=no")) != "" {
		m.Commit += " + uncommitted changes"
	}
	return m
}

// loadAverage is /proc/loadavg's 1, 5 and 15 minute averages.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// cpuModel is /proc/cpuinfo's first model name, "" elsewhere.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// findMitmproxy is mitmdump's path (empty when it is not on PATH) and how
// the header names it: its path and version, or how to install it.
func findMitmproxy(ctx context.Context) (path, desc string) {
	path, err := exec.LookPath("mitmdump")
	if err != nil {
		return "", notInstalledMitmproxy
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	// mitmdump --version starts Python: seconds, not minutes.
	vctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	first, _, _ := strings.Cut(output(vctx, path, "--version"), "\n")
	desc = path
	if v := strings.TrimSpace(first); v != "" {
		desc += " (" + v + ")"
	}
	return path, desc
}

// output is a command's standard output, "" when it fails.
func output(ctx context.Context, name string, args ...string) string {
	b, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return ""
	}
	return string(b)
}
