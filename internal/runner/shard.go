package runner

import (
	"fmt"
	"sort"
	"time"

	"github.com/wsconform/wsconform/reports"
)

// Shard is one part of a run split across CI jobs (run --shard I/N): the
// scenarios are dealt to N shards the same way on every machine, so that
// the N parts together run each scenario exactly once and `wsconform
// merge` can put their reports back together.
type Shard struct {
	Index, Count int // 1-based: shard Index of Count
	// Durations are a previous run's scenario durations by id: with them
	// the shards are balanced by time (the longest first to the least
	// loaded shard), without them by count.
	Durations map[string]time.Duration
}

// ParseShard reads "I/N" (reports.ParseShard: merge reads it too).
func ParseShard(s string) (Shard, error) {
	i, n, err := reports.ParseShard(s)
	if err != nil {
		return Shard{}, err
	}
	return Shard{Index: i, Count: n}, nil
}

// String is "I/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// pick keeps the cases dealt to this shard, in catalog order. Without
// durations the cases, in id order, are dealt round-robin; with them,
// longest first (ties by id) to the shard with the least time so far
// (ties to the lowest shard), a scenario the previous run did not have
// counting as that run's median.
func (s Shard) pick(cases []*Case) []*Case {
	if s.Count <= 1 {
		return cases
	}
	order := append([]*Case(nil), cases...)
	sort.SliceStable(order, func(i, j int) bool { return order[i].ID < order[j].ID })
	mine := map[*Case]bool{}
	if len(s.Durations) == 0 {
		for i, c := range order {
			if i%s.Count == s.Index-1 {
				mine[c] = true
			}
		}
	} else {
		cost := func(c *Case) time.Duration {
			if d, ok := s.Durations[c.ID]; ok {
				return d
			}
			return median(s.Durations)
		}
		sort.SliceStable(order, func(i, j int) bool { return cost(order[i]) > cost(order[j]) })
		load := make([]time.Duration, s.Count)
		for _, c := range order {
			best := 0
			for k := 1; k < s.Count; k++ {
				if load[k] < load[best] {
					best = k
				}
			}
			load[best] += cost(c)
			if best == s.Index-1 {
				mine[c] = true
			}
		}
	}
	kept := make([]*Case, 0, len(mine))
	for _, c := range cases {
		if mine[c] {
			kept = append(kept, c)
		}
	}
	return kept
}

func median(m map[string]time.Duration) time.Duration {
	ds := make([]time.Duration, 0, len(m))
	for _, d := range m {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	if len(ds) == 0 {
		return time.Second
	}
	return ds[len(ds)/2]
}
