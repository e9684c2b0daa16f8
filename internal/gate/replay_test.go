package gate

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/fixture"
	"github.com/wsconform/wsconform/internal/replay"
	"github.com/wsconform/wsconform/reports"
)

// TestGateReplay: a session recorded by a gate of the good client is
// replayed as the gate's upstream (gate --replay); the same client passes
// with every diff matched, a client that asks for another turn fails on a
// replay.client-mismatch naming /text, and a client that never connects
// fails on the recorded connection it never opened.
// Not parallel: t.Setenv hands the mode to the client process.
func TestGateReplay(t *testing.T) {
	plan := recordGood(t)
	tests := []struct {
		mode    string
		pass    bool
		pointer string // the mismatch's member ("" with want: a connection)
		want    string // in the mismatch's message
	}{
		{"good", true, "", ""},
		{"other-text", false, "/text", "differs from the recorded client's"},
		{"silent", false, "", "never opened"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			masks, err := replay.VolatileMasks(plan.Dialect, nil)
			if err != nil {
				t.Fatal(err)
			}
			fx, err := fixture.New(fixture.Options{Plan: plan, Masks: masks})
			if err != nil {
				t.Fatal(err)
			}
			t.Setenv(clientEnv, tt.mode)
			var out bytes.Buffer
			res, err := Run(context.Background(), Options{Dialect: plan.Dialect,
				Upstream: &Upstream{Name: "replay", Handler: fx, Path: fx.Paths()[0], Shutdown: fx.Shutdown, Judge: fx.Judge},
				Command:  []string{os.Args[0], "-test.run=^TestClientProcess$"},
				Stdout:   &out, Stderr: &out, Console: &out, Color: "never", Timeout: 30 * time.Second})
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if res.Passed() != tt.pass {
				t.Fatalf("passed = %v, want %v; command %v; findings %s\n%s", res.Passed(), tt.pass, res.CommandErr, rules(res.Report), out.String())
			}
			if len(res.Report.Replays) == 0 || res.Report.Replays[0].Side != "c2s" {
				t.Fatalf("report has no c2s replay diff: %+v", res.Report.Replays)
			}
			if v := res.Report.Verdict; (v == reports.Passed || v == reports.NonStrict) != tt.pass {
				t.Errorf("report verdict %s, gate passed %v", v, res.Passed())
			}
			if tt.pass {
				if res.UpstreamFailures != 0 || !res.Report.Replays[0].Matched {
					t.Errorf("good client mismatched: %+v", res.Report.Replays)
				}
				return
			}
			var found bool
			for _, s := range res.Report.Sessions {
				for _, f := range s.Findings {
					if f.Rule == fixture.RuleClientMismatch.ID && f.Pointer == tt.pointer && strings.Contains(f.Message, tt.want) {
						found = true
					}
				}
			}
			if !found {
				t.Errorf("no %s at %q saying %q: %s", fixture.RuleClientMismatch.ID, tt.pointer, tt.want, rules(res.Report))
			}
		})
	}
}

// recordGood records a gate of the good client, for a replay.
// Not parallel: t.Setenv hands the mode to the client process.
func recordGood(t *testing.T) *replay.Plan {
	t.Helper()
	var rec bytes.Buffer
	t.Setenv(clientEnv, "good")
	var out bytes.Buffer
	if res, err := Run(context.Background(), Options{Dialect: "minicodex", Record: &rec,
		Command: []string{os.Args[0], "-test.run=^TestClientProcess$"},
		Stdout:  &out, Stderr: &out, Console: &out, Color: "never", Timeout: 30 * time.Second}); err != nil || !res.Passed() {
		t.Fatalf("recording gate: %v %v\n%s", err, res.CommandErr, out.String())
	}
	plan, err := replay.Read(bytes.NewReader(rec.Bytes()), "")
	if err != nil {
		t.Fatal(err)
	}
	return plan
}
