package reports

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// MergeShards puts the reports of a run split with --shard I/N back into
// one report: the scenarios of every part, the union of targets, dialects,
// notes and errors, the baseline entries no part used. It refuses parts
// that do not make one run (another kind, another N, a shard given twice or
// missing, a scenario in two parts). The caller sorts the scenarios,
// recomputes coverage and tallies (root causes, counts, verdict).
func MergeShards(parts []*Report) (*Report, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge: no report given")
	}
	if err := checkShards(parts); err != nil {
		return nil, err
	}
	first := parts[0]
	out := New(first.Kind, first.Tool, first.Started)
	out.Finished = first.Finished
	out.Command = dropShardFlag(first.Command)
	seenTarget, seenDialect, seenScenario := map[string]bool{}, map[string]bool{}, map[string]string{}
	staleIn := map[string]int{}
	var staleOrder []BaselineEntry
	var interrupted []string
	for _, p := range parts {
		if p.Started.Before(out.Started) {
			out.Started = p.Started
		}
		if p.Finished.After(out.Finished) {
			out.Finished = p.Finished
		}
		for _, t := range p.Targets {
			if !seenTarget[t.Name] {
				seenTarget[t.Name] = true
				out.Targets = append(out.Targets, t)
			}
		}
		for _, d := range p.Dialects {
			if !seenDialect[d] {
				seenDialect[d] = true
				out.Dialects = append(out.Dialects, d)
			}
		}
		for _, s := range p.Scenarios {
			key := s.Target + "\x00" + s.ID
			if where, dup := seenScenario[key]; dup {
				return nil, fmt.Errorf("merge: scenario %s (target %s) is in shard %s and shard %s: were both cut from the same features with the same N?", s.ID, s.Target, where, p.Shard)
			}
			seenScenario[key] = p.Shard
			out.Scenarios = append(out.Scenarios, s)
		}
		out.Errors = appendNew(out.Errors, p.Errors...)
		out.Notes = appendNew(out.Notes, p.Notes...)
		for _, e := range p.Stale {
			k := e.ID + "\x00" + e.Target
			if staleIn[k] == 0 {
				staleOrder = append(staleOrder, e)
			}
			staleIn[k]++
		}
		if p.Interrupted != "" {
			interrupted = append(interrupted, "shard "+p.Shard+": "+p.Interrupted)
		}
	}
	// A baseline entry is stale when no part used it: every part has it.
	for _, e := range staleOrder {
		if staleIn[e.ID+"\x00"+e.Target] == len(parts) {
			out.Stale = append(out.Stale, e)
		}
	}
	out.Dialects = sortedLike(out.Dialects, first.Dialects)
	out.Interrupted = strings.Join(interrupted, "; ")
	if len(parts) > 1 {
		out.Notes = append(out.Notes, fmt.Sprintf("merged from %d shards of one run (run --shard I/%d, then wsconform merge)", len(parts), len(parts)))
	}
	return out, nil
}

// checkShards accepts the parts 1..N of one N, each once, or a single
// unsharded report (merging one report is a copy).
func checkShards(parts []*Report) error {
	n := -1
	got := map[int]bool{}
	for _, p := range parts {
		if p.Kind != KindRun {
			return fmt.Errorf("merge: a %s report cannot be merged: only the reports of `wsconform run --shard I/N` can", p.Kind)
		}
		if p.Shard == "" {
			if len(parts) == 1 {
				return nil
			}
			return fmt.Errorf("merge: a report without a shard (not from run --shard I/N) among %d reports", len(parts))
		}
		i, k, err := ParseShard(p.Shard)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if n == -1 {
			n = k
		} else if k != n {
			return fmt.Errorf("merge: shard %s and shard %d/%d come from runs split differently", p.Shard, i, n)
		}
		if got[i] {
			return fmt.Errorf("merge: shard %d/%d is given twice", i, n)
		}
		got[i] = true
	}
	var missing []string
	for i := 1; i <= n; i++ {
		if !got[i] {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("merge: shard %s missing: a merged report would leave its scenarios out", strings.Join(missing, ", "))
	}
	return nil
}

// ParseShard reads "I/N" (1 ≤ I ≤ N ≤ 1000): run --shard and merge read
// it the same way.
func ParseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, e1 := strconv.Atoi(a)
	n, e2 := strconv.Atoi(b)
	if !ok || e1 != nil || e2 != nil || n < 1 || n > 1000 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("shard %q: want I/N with 1 ≤ I ≤ N ≤ 1000, e.g. 2/4", s)
	}
	return i, n, nil
}

// dropShardFlag turns a shard's command into the unsharded run's.
func dropShardFlag(cmd string) string {
	f := strings.Fields(cmd)
	out := f[:0]
	for i := 0; i < len(f); i++ {
		switch {
		case f[i] == "--shard" || f[i] == "--shard-timings":
			i++
		case strings.HasPrefix(f[i], "--shard=") || strings.HasPrefix(f[i], "--shard-timings="):
		default:
			out = append(out, f[i])
		}
	}
	return strings.Join(out, " ")
}

func appendNew(list []string, more ...string) []string {
	for _, m := range more {
		found := false
		for _, l := range list {
			if l == m {
				found = true
				break
			}
		}
		if !found {
			list = append(list, m)
		}
	}
	return list
}

// sortedLike orders names as they first appeared in ref, others after, by name.
func sortedLike(names, ref []string) []string {
	rank := map[string]int{}
	for i, r := range ref {
		rank[r] = i + 1
	}
	sort.SliceStable(names, func(i, j int) bool {
		ri, rj := rank[names[i]], rank[names[j]]
		switch {
		case ri != 0 && rj != 0:
			return ri < rj
		case ri != 0 || rj != 0:
			return ri != 0
		}
		return names[i] < names[j]
	})
	return names
}
