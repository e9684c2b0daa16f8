package cputime

import (
	"runtime"
	"testing"
)

// TestProcessCountsWork: spinning on the CPU makes Process grow (on a
// system where it is measured at all).
func TestProcessCountsWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("not measured on", runtime.GOOS)
	}
	start := Process()
	if start <= 0 {
		t.Fatalf("Process() = %v at start, want the CPU the test binary already used", start)
	}
	x := 0
	for Process() == start {
		x++ // spins until the clock ticks (a few ms of CPU at most)
	}
	if got := Process(); got <= start {
		t.Errorf("Process() went from %v to %v after %d iterations", start, got, x)
	}
}
