package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wsconform/wsconform/internal/perf"
)

// buildNeeded builds, from this checkout, the binaries the chosen groups
// run (and maxrss, which runs them), into cfg.TempDir, and sets their
// paths in cfg. The module's root is
// found with `go env GOMOD`, so the command works from any directory of
// the checkout.
func buildNeeded(ctx context.Context, chosen []group, cfg *perf.Config, stderr io.Writer) error {
	var need []string
	for _, g := range chosen {
		if g.measure == nil {
			continue
		}
		for _, n := range g.needs {
			if !slices.Contains(need, n) {
				need = append(need, n)
			}
		}
	}
	if len(need) == 0 {
		return nil
	}
	gomod := strings.TrimSpace(output(ctx, "go", "env", "GOMOD"))
	if gomod == "" || gomod == "/dev/null" {
		return errors.New("build: not inside the wsconform module (go env GOMOD is empty); run go run ./ci/bench from the checkout")
	}
	root := filepath.Dir(gomod)
	// Commands run as children are run through maxrss, so that their peak
	// RSS is their own (see ci/bench/maxrss).
	if slices.Contains(need, "wsconform") || slices.Contains(need, "wsproxy") {
		need = append(need, "maxrss")
	}
	for _, n := range need {
		bin := filepath.Join(cfg.TempDir, n)
		pkg := "./cmd/" + n
		if n == "maxrss" {
			pkg = "./ci/bench/maxrss"
		}
		fmt.Fprintf(stderr, "bench: building %s\n", n)
		cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: %w: %s", n, err, strings.TrimSpace(string(out)))
		}
		switch n {
		case "wsconform":
			cfg.Wsconform = bin
		case "wsproxy":
			cfg.Wsproxy = bin
		case "maxrss":
			cfg.MaxRSS = bin
		}
	}
	return nil
}
