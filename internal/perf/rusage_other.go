//go:build !unix

package perf

import (
	"os"
	"time"
)

// selfCPU is not measured here: the engine reports no per-CPU figure.
func selfCPU() time.Duration { return 0 }

// childPeakRSS is not known here.
func childPeakRSS(*os.ProcessState) (int64, bool) { return 0, false }
