package runner

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reports"
)

// budgetFeature is one scenario with the given tags and steps.
func budgetFeature(tags, steps string) fstest.MapFS {
	return fstest.MapFS{"minicodex/b.feature": {Data: []byte("@minicodex\nFeature: b\n  @id:t.b @must " + tags +
		"\n  Scenario: b\n    Given a client connects\n" + steps)}}
}

// TestTimeoutTag: @timeout:D is checked like the other tags: a duration,
// once, and every wait a step writes fits in the scenario's budget (the
// tag's, else the default 60 s).
func TestTimeoutTag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tags, steps string
		want              time.Duration
		err               string
	}{
		{"none", "", "    Then the client receives \"x\" within 58s\n", 0, ""},
		{"budget", "@timeout:75s", "    Then the client receives \"x\" within 70s\n", 75 * time.Second, ""},
		{"short", "@timeout:2s", "    Then the client stays connected for 500ms\n", 2 * time.Second, ""},
		{"not a duration", "@timeout:long", "", 0, "@timeout:long: write a positive duration"},
		{"no unit", "@timeout:75", "", 0, "@timeout:75: write a positive duration"},
		{"zero", "@timeout:0s", "", 0, "@timeout:0s: write a positive duration"},
		{"twice", "@timeout:75s @timeout:80s", "", 0, "two @timeout: tags"},
		{"wait past the default", "", "    Then the client receives \"x\" within 70s\n", 0, `waits 1m10s, which does not fit in the scenario's budget of 1m0s: tag it @timeout:<more>`},
		{"wait past the tag", "@timeout:75s", "    And I wait 80s\n", 0, "does not fit in the scenario's budget of 1m15s"},
		{"a counted wait", "", "    Then the client has received 1 \"x\" within 61s where \"a\" is \"b\"\n", 0, "waits 1m1s"},
		{"wait as long as the tag", "@timeout:75s", "    Then the client receives nothing within 75s\n", 0, "does not fit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cat, err := LoadCatalog(budgetFeature(tt.tags, tt.steps), []string{"."}, "")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := cat.Cases[0].Timeout; got != tt.want {
				t.Errorf("Timeout = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestTimeoutBudget: the tag is the scenario's budget at run time, and
// --timeout-scale multiplies it. A server that never answers: the
// receive step's own 5 s would fail the scenario; the 200 ms budget stops
// it first (a harness error, as at the default 60 s).
func TestTimeoutBudget(t *testing.T) {
	t.Parallel()
	s := httptest.NewServer(upgrader(func(c *websocket.Conn) {
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				return
			}
		}
	}))
	defer s.Close()
	fsys := budgetFeature("@timeout:200ms", "    Then the client receives \"welcome\"\n")
	res, err := Run(context.Background(), Options{Features: fsys, Targets: []Target{{Name: "t", URL: wsURL(s)}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Verdict != reports.Error || !strings.Contains(res[0].Reason, "scenario stopped") {
		t.Fatalf("want an error verdict, the scenario stopped by its budget: %s", describe(res[0]))
	}

	w := &World{to: Timeouts{Scenario: time.Minute, Scale: 2}, sc: &scenarioRun{c: &Case{Timeout: 75 * time.Second}}}
	if got := w.budget(); got != 150*time.Second {
		t.Errorf("budget of @timeout:75s at scale 2 = %s, want 2m30s", got)
	}
	w.sc.c.Timeout = 0
	if got := w.budget(); got != 2*time.Minute {
		t.Errorf("budget without a tag at scale 2 = %s, want 2m0s", got)
	}
}
