//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestOwnPeakRSS: a small command started by a process holding 128 MB
// reports, through maxrss, its own few MB, where wait4's maxrss of the
// same command started directly reports the holder's 128 MB (the reason
// maxrss exists); and maxrss exits as the command did, its figures
// written either way.
// Not parallel: it holds 128 MB on purpose.
func TestOwnPeakRSS(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "maxrss")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}

	held := make([]byte, 128<<20)
	for i := range held {
		held[i] = byte(i)
	}
	direct := exec.Command(sh, "-c", ":")
	if err := direct.Run(); err != nil {
		t.Fatal(err)
	}
	directPeak := int64(direct.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) * 1024

	out := filepath.Join(dir, "usage")
	if err := exec.Command(bin, out, sh, "-c", ":").Run(); err != nil {
		t.Fatal(err)
	}
	peak := readPeak(t, out)
	runtime.KeepAlive(held)
	t.Logf("sh -c : started directly by a 128 MB process: wait4 maxrss %d MB; through maxrss: %d MB", directPeak>>20, peak>>20)
	if peak <= 0 || peak >= 64<<20 {
		t.Errorf("through maxrss: peak %d bytes, want the command's own (a few MB, under 64 MB)", peak)
	}

	err = exec.Command(bin, out, sh, "-c", "exit 3").Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Errorf("maxrss of a command exiting 3: %v, want exit status 3", err)
	}
	if readPeak(t, out) <= 0 {
		t.Error("no peak written for a failing command")
	}
}

func readPeak(t *testing.T, path string) int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	if len(f) != 3 {
		t.Fatalf("usage file %q: want three numbers", b)
	}
	n, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
