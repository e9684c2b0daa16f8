package perf

import (
	"context"
	"errors"
	"fmt"
	"regexp"
)

// suiteSummary is the line `wsconform run` ends with: "PASS  399 scenarios in 9.3s".
var suiteSummary = regexp.MustCompile(`(?m)^\w+\s+(\d+) scenarios? in `)

// Suite measures `wsconform run` with no flags, as a user runs it
// (cfg.Wsconform): every scenario of every dialect against the embedded
// reference servers, wall time and peak RSS (through cfg.MaxRSS). With Quick it runs only
// minicodex's scenarios. The run's reports (none without flags) would land
// in cfg.TempDir.
func Suite(ctx context.Context, cfg Config) ([]Figure, error) {
	if cfg.Wsconform == "" {
		return nil, errors.New("suite: no wsconform binary to run")
	}
	args := []string{"run"}
	what := "run, full suite against the reference"
	if cfg.Quick {
		args = append(args, "--dialect", "minicodex")
		what = "run --dialect minicodex (--quick), against the reference"
	}
	const subject = "wsconform"
	wall := Figure{Name: what, Unit: "s", Goal: "≤ 5"}
	rss := Figure{Name: what + ": peak RSS", Unit: "MB"}
	scenarios := ""
	for r := 0; r < rounds(cfg); r++ {
		run, err := runChild(ctx, cfg, cfg.Wsconform, args...)
		if err != nil {
			return nil, fmt.Errorf("suite: %w", err)
		}
		wall.Add(subject, run.wall.Seconds())
		if run.peakRSS > 0 {
			rss.Add(subject, float64(run.peakRSS)/1e6)
		}
		if m := suiteSummary.FindStringSubmatch(run.output); m != nil {
			scenarios = m[1]
		}
	}
	if len(rss.Values) == 0 {
		rss.Note = rssNote
	}
	if scenarios != "" {
		wall.Note = scenarios + " scenarios"
	}
	return []Figure{wall, rss}, nil
}
