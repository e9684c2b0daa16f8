package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/reports"
)

func TestParseSessionSetup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		out, url, header, err string
	}{
		{"ws://127.0.0.1:9/s/abc\nCookie: sid=1\n", "ws://127.0.0.1:9/s/abc", "sid=1", ""},
		{"\nws://127.0.0.1:9/ws\n", "ws://127.0.0.1:9/ws", "", ""},
		{"", "", "", "no URL"},
		{"127.0.0.1:9\n", "", "", "printed"},
		{"ws://127.0.0.1:9/ws\nno colon\n", "", "", "Key: Value"},
	}
	for _, tt := range tests {
		s, err := parseSessionSetup([]byte(tt.out))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.out, err, tt.err)
			}
			continue
		}
		if err != nil || s.URL != tt.url || s.Headers.Get("Cookie") != tt.header {
			t.Errorf("%q: %+v, %v", tt.out, s, err)
		}
	}
}

// TestSessionCmd runs scenarios against the reference server through a
// set-up command that prints the target it was given: they pass; a command
// that fails makes every scenario an error naming it.
func TestSessionCmd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, target, err := StartReference(ctx, []string{"mitto"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown(ctx)
	target.Reference = false // as a foreign target would be
	run := func(cmd string) []reports.Scenario {
		res, err := Run(ctx, Options{Dialects: []string{"mitto"}, Targets: []Target{target}, Vars: ReferenceVars(),
			Tags: "@id:mitto.connect.connected", SessionCmd: cmd})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, s := range run(`echo "$WSCONFORM_TARGET"; echo "X-Scenario: $WSCONFORM_SCENARIO"`) {
		if s.Verdict != reports.Passed {
			t.Errorf("%s: %s (%s)", s.ID, s.Verdict, s.Reason)
		}
	}
	for _, s := range run(`echo broken >&2; exit 3`) {
		if s.Verdict != reports.Error || !strings.Contains(s.Reason, "broken") {
			t.Errorf("%s: %s (%s), want an error naming the command's words", s.ID, s.Verdict, s.Reason)
		}
	}
}
