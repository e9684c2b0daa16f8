package runner

import (
	"context"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reports"
)

// interruptFeature: two quick scenarios, one that waits on the hold
// server until the run is stopped, and one after it.
var interruptFeature = fstest.MapFS{"minicodex/interrupt.feature": {Data: []byte(`@minicodex
Feature: interruption
  @id:int.first @must
  Scenario: first
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"

  @id:int.second @must
  Scenario: second
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"

  @id:int.hold @must
  Scenario: holds until the run is stopped
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"
    When the client sends:
      """
      {"type": "send", "text": "hold"}
      """
    Then the client receives "assistant_text" within 50s

  @id:int.last @must
  Scenario: last
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"
`)}}

// TestInterruptedRun: the run's context ends while a scenario waits on
// the target (the hold server cancels it when that scenario's frame
// arrives, so it is in flight by construction). The scenarios that
// finished keep their verdicts; the one in flight and the one never
// started are not-run, never error or failed, and Run returns no error.
func TestInterruptedRun(t *testing.T) {
	t.Parallel()
	for _, repeat := range []int{1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		url := reftest.HoldUpstream(t, cancel)
		res, err := Run(ctx, Options{Features: interruptFeature, Targets: []Target{{Name: "hold", URL: url + "/ws"}},
			Concurrency: 1, Repeat: repeat})
		if err != nil {
			t.Fatalf("repeat %d: an interrupted run is not an error: %v", repeat, err)
		}
		want := map[string]struct {
			v      reports.Verdict
			reason string
		}{
			"int.first":  {reports.Passed, ""},
			"int.second": {reports.Passed, ""},
			"int.hold":   {reports.NotRun, Stopped},
			"int.last":   {reports.NotRun, NotStarted},
		}
		if repeat > 1 {
			// the second round never ran: every scenario has one run of two
			for id, w := range want {
				if w.v == reports.Passed {
					want[id] = struct {
						v      reports.Verdict
						reason string
					}{reports.NotRun, NotStarted + "; 1 of 2 runs finished (run 1: passed)"}
				}
			}
		}
		if len(res) != len(want) {
			t.Fatalf("repeat %d: %d results, want %d", repeat, len(res), len(want))
		}
		for _, s := range res {
			w := want[s.ID]
			if s.Verdict != w.v || !strings.HasPrefix(s.Reason, w.reason) {
				t.Errorf("repeat %d: %s", repeat, describe(s))
			}
			if s.ID == "int.hold" && (len(s.Steps) != 5 || s.Steps[2].Status != "passed" || len(s.Findings) != 0) {
				t.Errorf("repeat %d: the scenario in flight keeps its steps (3 passed) and no finding: %+v", repeat, s)
			}
		}
	}
}

// TestInterruptedBeforeAnything: a run whose context ended before it
// started (preflight included) marks every scenario not-run, quietly.
func TestInterruptedBeforeAnything(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var mu sync.Mutex
	heard := 0
	res, err := Run(ctx, Options{Features: interruptFeature, Targets: []Target{{Name: "dead", URL: "ws://127.0.0.1:1/ws"}},
		Progress: func(reports.Scenario) { mu.Lock(); heard++; mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 4 {
		t.Fatalf("%d results, want 4", len(res))
	}
	for _, s := range res {
		if s.Verdict != reports.NotRun || s.Reason != NotStarted {
			t.Errorf("%s", describe(s))
		}
	}
	if heard != 0 {
		t.Errorf("Progress heard of %d scenarios that never ran", heard)
	}
}
