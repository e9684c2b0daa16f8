package runner

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/wsconform/wsconform/reports"
)

// LoadBaseline reads a baseline file: a JSON array of known failures,
// [{"id": "...", "target": "..." (optional), "reason": "..."}].
func LoadBaseline(path string) ([]reports.BaselineEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	var entries []reports.BaselineEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("baseline %s: %w (want a JSON array of {\"id\",\"reason\"})", path, err)
	}
	for i, e := range entries {
		if e.ID == "" || e.Reason == "" {
			return nil, fmt.Errorf("baseline %s: entry %d needs an id and a reason", path, i+1)
		}
	}
	return entries, nil
}

// ApplyBaseline marks the failures the baseline knows and returns the
// entries that are stale: their scenario ran and did not fail. An entry
// whose scenario did not run (filtered out, skipped, error) is neither.
func ApplyBaseline(results []reports.Scenario, entries []reports.BaselineEntry) []reports.BaselineEntry {
	var stale []reports.BaselineEntry
	for _, e := range entries {
		failed, passed := false, false
		for i := range results {
			s := &results[i]
			if s.ID != e.ID || (e.Target != "" && s.Target != e.Target) {
				continue
			}
			switch s.Verdict {
			case reports.Failed:
				s.Baselined = e.Reason
				failed = true
			case reports.Passed, reports.NonStrict:
				passed = true
			}
		}
		if passed && !failed {
			stale = append(stale, e)
		}
	}
	return stale
}
