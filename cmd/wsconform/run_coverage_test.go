package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/reports"
)

const coverageFeatures = "testdata/reqfeatures"

// TestRunCoverage: a run of features citing their registry prints the
// observation apart and the requirements line, exits 0 (an observation
// never fails), and its JSON and JUnit reports carry the coverage; with
// --strict-coverage the stated MUST no scenario cites fails it, named.
func TestRunCoverage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		flags []string
		code  int
		wants []string
	}{
		{"default", nil, 0, []string{
			"◇ observation", "req.pong", "the spec does not say; this server:",
			"requirement: minicodex.t.pong (interpretation should) §Envelope",
			"Observations (the spec does not say; reported, never judged)",
			"requirements: 2 stated — 1 passed, 0 failed, 1 not tested (1 no scenario)",
			"PASS",
		}},
		{"strict", []string{"--strict-coverage"}, exitFail, []string{
			"--strict-coverage: 1 stated MUST or type requirement not tested: minicodex.t.uncited",
		}},
		{"section", []string{"--section", "§handshake", "--strict-coverage"}, exitFail, []string{
			"req.hello", "requirements: 2 stated — 1 passed, 0 failed, 1 not tested (1 no scenario)",
		}},
		{"req tag", []string{"--tags", "@req:minicodex.t.pong"}, 0, []string{"◇ observation", "req.pong",
			"requirements: 2 stated — 0 passed, 0 failed, 2 not tested (1 not selected, 1 no scenario)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			jsonPath, junitPath := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml")
			args := append([]string{"run", "--features", coverageFeatures, "--color", "never", "--json", jsonPath, "--junit", junitPath}, tt.flags...)
			code, out, errs := wsconform(t, args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tt.code, out, errs)
			}
			for _, want := range tt.wants {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			var rep reports.Report
			data, err := os.ReadFile(jsonPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Coverage == nil || len(rep.Coverage.Requirements) != 3 || rep.Coverage.Counts[0].Stated != 2 {
				t.Fatalf("json coverage: %+v", rep.Coverage)
			}
			junit, err := os.ReadFile(junitPath)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(junit), `<testsuite name="requirements"`) ||
				!strings.Contains(string(junit), `<skipped message="not tested: no scenario cites it">`) {
				t.Errorf("junit lacks the requirements suite:\n%s", junit)
			}
		})
	}
}
