package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/features"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/reports"
)

// TestOpeningAgainstHeldLiveEvents is issue 24's acceptance: against a
// reference server that holds live events until a connection's first
// load_events (as the real mitto server does), every mitto scenario
// passes except the one that skips the opening on purpose, which is an
// observation naming the cause. Without the opening 16 of 75 passed
// (11 failed, 33 inconclusive, 15 observations).
func TestOpeningAgainstHeldLiveEvents(t *testing.T) {
	t.Parallel()
	res := runReference(t, "mitto", []string{"mitto-live-after-load"}, "")
	if len(res) < 70 {
		t.Fatalf("%d mitto scenarios ran, want the whole suite", len(res))
	}
	for _, s := range res {
		if s.ID == "mitto.connect.live-before-load" {
			if s.Verdict != reports.Observation || !strings.Contains(describe(s), "sent no load_events") {
				t.Errorf("the @opening scenario does not name the missing opening: %s", describe(s))
			}
			continue
		}
		if s.Verdict != reports.Passed {
			t.Errorf("%s", describe(s))
		}
	}
}

// TestOpeningOverride: --opening none (an empty Options.Opening) sends no
// opening, so the held live events make a prompt scenario fail, naming
// the opening it did not send; a file with the dialect's own opening
// makes it pass again.
func TestOpeningOverride(t *testing.T) {
	t.Parallel()
	own := []OpeningStep{{Send: json.RawMessage(`{"type": "load_events", "data": {"limit": 5}}`), Await: "events_loaded"}}
	for _, tt := range []struct {
		name    string
		opening []OpeningStep
		want    reports.Verdict
	}{
		{"none", []OpeningStep{}, reports.Failed},
		{"file", own, reports.Passed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			srv, target, err := StartReference(ctx, []string{"mitto"}, []string{"mitto-live-after-load"})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Shutdown(ctx)
			res, err := Run(ctx, Options{Dialects: []string{"mitto"}, Targets: []Target{target}, Vars: ReferenceVars(),
				Tags: "@id:mitto.prompt.user-prompt-echo", Opening: tt.opening})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 1 || res[0].Verdict != tt.want {
				t.Fatalf("got %d results, want one %s: %v", len(res), tt.want, res)
			}
			if tt.want == reports.Failed && !strings.Contains(describe(res[0]), "sent no load_events") {
				t.Errorf("the failure does not name the missing opening: %s", describe(res[0]))
			}
		})
	}
}

func TestParseOpening(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tt := range []struct {
		name, text string
		steps      int
		err        string
	}{
		{"list", `[{"send": {"type": "hello"}, "await": "welcome"}]`, 1, ""},
		{"client.json", `{"about": "x", "opening": [{"send": {"type": "a"}}, {"send": {"type": "b"}}]}`, 2, ""},
		{"empty", `[]`, 0, ""},
		{"send not an object", `[{"send": "hello"}]`, 0, "must be a JSON object"},
		{"no send", `[{"await": "x"}]`, 0, "must be a JSON object"},
		{"object without opening", `{"answers": []}`, 0, "want a JSON list"},
		{"not JSON", `load_events`, 0, "want a JSON list"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".json")
			if err := os.WriteFile(path, []byte(tt.text), 0o600); err != nil {
				t.Fatal(err)
			}
			steps, err := ParseOpening(path)
			switch {
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("err %v, want one containing %q", err, tt.err)
			case tt.err == "" && err != nil:
				t.Fatal(err)
			case tt.err == "" && (steps == nil || len(steps) != tt.steps):
				t.Fatalf("%d steps (nil %v), want %d", len(steps), steps == nil, tt.steps)
			}
		})
	}
	if steps, err := ParseOpening("none"); err != nil || steps == nil || len(steps) != 0 {
		t.Errorf("none: %v %v, want an empty non-nil list", steps, err)
	}
	if _, err := ParseOpening(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing file is accepted")
	}
}

// TestOpeningNotSentTwice: a scenario that sends the dialect's opening
// message itself before anything else tests the opening and must say so
// (@opening); otherwise the runner would send it twice.
func TestOpeningNotSentTwice(t *testing.T) {
	t.Parallel()
	for _, d := range dialect.Names() {
		spec, err := loadClientSpec(features.FS, d)
		if err != nil {
			t.Fatal(err)
		}
		if len(spec.Opening) == 0 {
			continue
		}
		var want any
		if err := json.Unmarshal(spec.Opening[0].Send, &want); err != nil {
			t.Fatal(err)
		}
		cat, err := Load(Options{Dialects: []string{d}})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cat.Cases {
			tagged := false
			for _, tag := range c.Tags {
				tagged = tagged || tag == openingTag
			}
			for _, st := range c.pickle.Steps {
				if st.Argument == nil || st.Argument.DocString == nil || !strings.Contains(st.Text, "sends:") {
					continue
				}
				var got any
				if json.Unmarshal([]byte(st.Argument.DocString.Content), &got) == nil && equal(got, want) && !tagged {
					t.Errorf("%s sends the opening %s first but is not tagged %s", c.ID, spec.Opening[0].Send, openingTag)
				}
				break // only the first message sent
			}
		}
	}
}
