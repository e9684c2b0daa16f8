package perf

import (
	"context"
	"sort"
)

// Figure is one row of the table: one measure taken on several subjects
// (for example "wsproxy", "tcp-relay", "direct", "mitmproxy"), one value
// per subject and round. Rounds interleave the subjects, so a machine
// shared with other work slows each subject alike; the table shows medians.
type Figure struct {
	Name   string               // what is measured, e.g. "burst, 50,000 server→client frames"
	Unit   string               // e.g. "frames/s", "MB", "s"
	Goal   string               // the goal, in words, e.g. "≥ 0.8× tcp-relay"
	Values map[string][]float64 // subject → one value per round
	Note   string               // why a subject is missing, or what the figure includes
}

// Add records one round's value for a subject.
func (f *Figure) Add(subject string, v float64) {
	if f.Values == nil {
		f.Values = map[string][]float64{}
	}
	f.Values[subject] = append(f.Values[subject], v)
}

// Median is the median of a subject's rounds, and false when it has none.
func (f *Figure) Median(subject string) (float64, bool) {
	vs := append([]float64(nil), f.Values[subject]...)
	if len(vs) == 0 {
		return 0, false
	}
	sort.Float64s(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2], true
	}
	return (vs[n/2-1] + vs[n/2]) / 2, true
}

// Config is what every measure is given.
type Config struct {
	Rounds int  // interleaved rounds per figure (medians are taken over them)
	Quick  bool // smaller sizes, for a check that the command works, not for figures
	// Mitmproxy is the path of mitmdump, empty when it is not installed.
	Mitmproxy string
	// Binaries built from this checkout (wsconform, wsproxy), for measures
	// that run the commands as a user does (RSS of a process, validate).
	Wsconform, Wsproxy string
	// TempDir holds recordings and generated files.
	TempDir string
	// MaxRSS is ci/bench/maxrss, which runs a command and reports its own
	// peak RSS: wait4's maxrss for a direct child of this process counts
	// this process's RSS too. Empty: no peak RSS figure for commands.
	MaxRSS string
}

// Measure takes one group of figures.
type Measure func(ctx context.Context, cfg Config) ([]Figure, error)
