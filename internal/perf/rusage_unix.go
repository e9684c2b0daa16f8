//go:build unix

package perf

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// selfCPU is the CPU time this process has used, every thread and the
// garbage collector included: frames per CPU-second measure the engine,
// not how many other processes share the machine.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// childPeakRSS is an exited child's peak resident set in bytes, as wait4
// reported it (ru_maxrss is in KiB on Linux and the BSDs, in bytes on
// macOS), and false where it is not known.
func childPeakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil || ru.Maxrss <= 0 {
		return 0, false
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss), true
	}
	return int64(ru.Maxrss) * 1024, true
}
