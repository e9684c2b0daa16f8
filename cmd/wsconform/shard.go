package main

import (
	"fmt"
	"os"
	"time"

	"github.com/wsconform/wsconform/reports"
)

// shardTimings reads the scenario durations of a previous run's JSON
// report, for balancing --shard by time. With --repeat or several targets
// a scenario's durations add up: that is the time it costs the shard.
func shardTimings(path string) (map[string]time.Duration, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := reports.ReadJSON(f)
	if err != nil {
		return nil, err
	}
	if rep.Kind != reports.KindRun {
		return nil, fmt.Errorf("%s is a %s report, not a run's", path, rep.Kind)
	}
	out := map[string]time.Duration{}
	for _, s := range rep.Scenarios {
		out[s.ID] += s.Duration
	}
	return out, nil
}
