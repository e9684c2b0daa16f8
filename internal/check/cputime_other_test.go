//go:build !unix

package check

import "time"

// processCPU is not measured here; the benchmark reports no CPU figure.
func processCPU() time.Duration { return 0 }
