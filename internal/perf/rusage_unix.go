//go:build unix

package perf

import (
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
