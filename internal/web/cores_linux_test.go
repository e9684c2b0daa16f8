//go:build linux

package web

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/wsconform/wsconform/internal/cdp"
)

// splitCores puts this process (the client, the proxy and the upstream
// of the relay benchmark) on one processor and the browser on another,
// and returns what puts them back. With the two on separate processors,
// what is left of a slowdown comes from the proxy itself (the live view's
// ring and its event stream), not from a browser that takes a share of a
// processor the relay needed. It reports false when this process may run
// on fewer than two processors.
func splitCores(b *testing.B, br *cdp.Browser) (restore func(), ok bool) {
	b.Helper()
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil || all.Count() < 2 {
		return nil, false
	}
	var cpus []int
	for c := 0; len(cpus) < 2 && c < 1024; c++ {
		if all.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	var mine, its unix.CPUSet
	mine.Set(cpus[0])
	its.Set(cpus[1])
	procs := runtime.GOMAXPROCS(1)
	pin := func(set *unix.CPUSet) {
		// Twice: a thread started while the first pass ran inherits
		// the mask of the thread that started it, which may not have
		// been set yet.
		for range 2 {
			setThreads(b, os.Getpid(), set)
		}
	}
	pinBrowser := func(set *unix.CPUSet) {
		for _, pid := range br.Pids() {
			setThreads(b, pid, set)
		}
	}
	pin(&mine)
	pinBrowser(&its)
	return func() {
		pinBrowser(&all)
		pin(&all)
		runtime.GOMAXPROCS(procs)
	}, true
}

// setThreads sets the processor mask of every thread of process pid.
func setThreads(b *testing.B, pid int, set *unix.CPUSet) {
	b.Helper()
	tasks, err := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "task"))
	if err != nil {
		b.Fatalf("list the threads of %d: %v", pid, err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		// A thread that ended since the listing is no longer there.
		if err := unix.SchedSetaffinity(tid, set); err != nil && err != unix.ESRCH {
			b.Fatalf("set the processors of thread %d: %v", tid, err)
		}
	}
}
