package reports

import (
	"fmt"
	"testing"
	"time"
)

// TestNormaliseFailure: ids, counts, timestamps and numbers do not split a
// group; the shape and the server's words stay.
func TestNormaliseFailure(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"received no message", "received no message"},
		{`received error("unknown session 3f2a9c1e-7b4d-4e8a-9c0f-1a2b3c4d5e6f")`, `received error("unknown session <id>")`},
		{`received error("request req-17 failed")`, `received error("request req-<id> failed")`},
		{`received error("request r_42 failed")`, `received error("request r_<id> failed")`},
		{"received …3 more, a, b", "received a, b"},
		{"received …14 more, a, b", "received a, b"},
		{`error("seq 12 ahead of 9")`, `error("seq N ahead of N")`},
		{`error("at 2026-11-27T10:00:00.123Z")`, `error("at <time>")`},
		{`error("event 5f3e9a0b12 not found")`, `error("event <id> not found")`},
		{`error("prompt already in progress")`, `error("prompt already in progress")`},
		{"face beef", "face beef"},
	}
	for _, tt := range tests {
		if got := NormaliseFailure(tt.in); got != tt.want {
			t.Errorf("NormaliseFailure(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNormaliseStep: the step's quoted values and numbers become
// placeholders; its words stay.
func TestNormaliseStep(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`Then the client receives "answer" within 10s`, `Then the client receives "…" within Ns`},
		{`And client "b" has received 2 "turn_done"`, `And client "…" has received N "…"`},
		{`When the client sends:`, `When the client sends:`},
	}
	for _, tt := range tests {
		if got := normaliseStep(tt.in); got != tt.want {
			t.Errorf("normaliseStep(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestStepCauseKeys: a failure that comes from a finding is no step cause;
// inconclusive scenarios group by the server's words, which become the
// hypothesis; a failure seen once is no step cause.
func TestStepCauseKeys(t *testing.T) {
	t.Parallel()
	step := func(text, err, exp, act string) []Step {
		return []Step{{Keyword: "Then", Text: text, Status: "failed", Error: err, Expected: exp, Actual: act}}
	}
	sc := func(id string, v Verdict, reason string, steps []Step) Scenario {
		return Scenario{ID: id, Dialect: "d", Target: "t", Verdict: v, Reason: reason, Steps: steps}
	}
	recv := `the client receives "answer"`
	miss := step(recv, "client \"default\" did not receive the expected message", `"answer" within 10s`, "received no message")
	failReason := "Then " + recv + ": " + miss[0].Error
	envReason := func(n int) string {
		return fmt.Sprintf("no model key: the server said \"no key for run %d\" (then %s)", n, failReason)
	}
	r := New(KindRun, "test", time.Now())
	r.Scenarios = []Scenario{
		sc("a", Inconclusive, envReason(1), miss),
		sc("b", Inconclusive, envReason(2), miss),
		sc("c", Failed, "frame.schema: bad", miss), // the verdict came from a finding
		sc("d", Failed, failReason, miss),          // alone: no group
	}
	r.Tally()
	var causes []RootCause
	for _, rc := range r.RootCauses {
		if rc.Step != nil {
			causes = append(causes, rc)
		}
	}
	if len(causes) != 1 {
		t.Fatalf("%d step causes, want 1: %+v", len(causes), causes)
	}
	rc := causes[0]
	if rc.Count != 2 || rc.Step.Verdict != Inconclusive || rc.Step.Hypothesis != `no model key: the server said "no key for run 1"` {
		t.Errorf("inconclusive cause: %d %+v", rc.Count, rc.Step)
	}
}

// TestCodeSpans: a hypothesis's `quoted` types become code, everything
// else is escaped, an unpaired backquote stays as it is.
func TestCodeSpans(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"after `prompt`, nothing", "after <code>prompt</code>, nothing"},
		{"<b> `a&b`", "&lt;b&gt; <code>a&amp;b</code>"},
		{"odd ` one", "odd ` one"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := string(codeSpans(tt.in)); got != tt.want {
			t.Errorf("codeSpans(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
