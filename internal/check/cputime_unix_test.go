//go:build unix

package check

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the test process has used, every thread and
// the garbage collector included. A benchmark divided by it measures the
// engine, not how many other processes share the machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
