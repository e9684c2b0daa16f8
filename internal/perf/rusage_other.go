//go:build !unix

package perf

import "time"

// selfCPU is not measured here: the engine reports no per-CPU figure.
func selfCPU() time.Duration { return 0 }
