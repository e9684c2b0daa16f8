//go:build !unix

package cputime

import "time"

// Process is not measured here: 0, and callers report no per-CPU figure.
func Process() time.Duration { return 0 }
