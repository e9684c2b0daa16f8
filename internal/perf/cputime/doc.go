// Package cputime reads the CPU time this process has used, every thread
// and the garbage collector included. Frames per CPU-second, unlike
// frames per second, measure the code and not how many other processes
// share the machine: the check engine's benchmark (internal/check) and
// ci/bench's engine figure (internal/perf) divide by it.
package cputime
