//go:build unix

// Command maxrss runs a command and writes its peak RSS and CPU time to a
// file, for ci/bench's measures of wsconform's own commands:
//
//	maxrss OUT CMD [ARG...]
//
// writes "PEAK_BYTES USER_NS SYSTEM_NS" to OUT and exits as CMD did.
//
// Why a program of its own: wait4's maxrss for a process counts the RSS of
// the process it was forked from, recorded when it executes its command
// (Linux keeps the old memory's high-water mark across exec). A command
// started by the benchmark, which holds the engine's streams and a
// recording's worth of garbage, would report the benchmark's peak, not its
// own. Started by this small program instead, it counts at most this
// program's few MB.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: maxrss OUT CMD [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(2)
	}
	ps := cmd.ProcessState
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		fmt.Fprintln(os.Stderr, "maxrss: no resource usage for", os.Args[2])
		os.Exit(2)
	}
	peak := int64(ru.Maxrss) * 1024 // KiB on Linux and the BSDs
	if runtime.GOOS == "darwin" {
		peak = int64(ru.Maxrss) // bytes on macOS
	}
	line := fmt.Sprintf("%d %d %d\n", peak, ps.UserTime().Nanoseconds(), ps.SystemTime().Nanoseconds())
	if err := os.WriteFile(os.Args[1], []byte(line), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(2)
	}
	if code := ps.ExitCode(); code != 0 {
		if code < 0 { // killed by a signal
			code = 1
		}
		os.Exit(code)
	}
}
