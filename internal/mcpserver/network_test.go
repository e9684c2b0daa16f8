package mcpserver

import (
	"context"
	"github.com/wsconform/wsconform/internal/mcpserver/mcptest"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/reference"
)

// startRef starts a minicodex reference server with mutations.
func startRef(t *testing.T, mutate ...string) string {
	t.Helper()
	srv, err := reference.Start(context.Background(), "127.0.0.1:0", reference.Options{Config: runner.ReferenceConfig(),
		Dialects: []string{"minicodex"}, Mutate: mutate, NoScriptedHost: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv.URL
}

// TestLive: live_findings returns the proxy's finding once, then nothing
// new with the cursor it gave; live_sessions names the session and rule.
func TestLive(t *testing.T) {
	t.Parallel()
	stack := mcptest.StartLiveStack(t)
	cs := connect(t, Config{})
	mcptest.Turn(t, stack.ProxyURL)
	// The proxy judges frames on its own goroutine: poll as an agent
	// would until the finding is in (bounded by the test's timeout).
	var first liveFindingsResult
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for len(first.Findings) == 0 && ctx.Err() == nil {
		first = callOK[liveFindingsResult](t, cs, "live_findings", `{"proxy_url":"`+stack.WebURL+`"}`)
	}
	f := first.Findings[0]
	if f.Rule != "minicodex.event-id-order" || f.Severity != "error" || f.Session == "" || f.Expected == "" || len(f.Requirements) == 0 {
		t.Fatalf("finding %+v", f)
	}
	again := callOK[liveFindingsResult](t, cs, "live_findings", `{"proxy_url":"`+stack.WebURL+`","cursor":"`+first.Cursor+`"}`)
	if len(again.Findings) != 0 || again.More {
		t.Errorf("after the cursor: %+v", again)
	}
	mcptest.Turn(t, stack.ProxyURL) // a second session, a second finding
	var next liveFindingsResult
	for len(next.Findings) == 0 && ctx.Err() == nil {
		next = callOK[liveFindingsResult](t, cs, "live_findings", `{"proxy_url":"`+stack.WebURL+`","cursor":"`+first.Cursor+`","limit":1}`)
	}
	if next.Findings[0].Session == f.Session {
		t.Errorf("the second turn's finding is in the first session: %+v", next.Findings)
	}
	sessions := callOK[liveSessionsResult](t, cs, "live_sessions", `{"proxy_url":"`+stack.WebURL+`"}`)
	if len(sessions.Sessions) != 2 || sessions.Verdict != "failed" || problemOf(sessions.Problems, "minicodex.event-id-order") == nil {
		t.Fatalf("sessions: %+v", sessions)
	}
	s0 := sessions.Sessions[0]
	if s0.ID != f.Session || s0.Counts.Errors == 0 || len(s0.Connections) != 1 || s0.Rules[0] != "minicodex.event-id-order" {
		t.Errorf("session %+v", s0)
	}
}

// TestRunScenarios: the reference server with the replay-skips mutation
// fails the resume scenario's run with the replay gap as its problem;
// without the mutation it passes.
func TestRunScenarios(t *testing.T) {
	t.Parallel()
	cs := connect(t, Config{})
	res := callOK[runResult](t, cs, "run_scenarios", `{"dialect":"minicodex","tags":"@id:minicodex.resume.from-start","mutate":["minicodex-replay-skips-event"]}`)
	if res.Verdict != "failed" || len(res.Scenarios) != 1 || problemOf(res.Problems, "minicodex.replay-gap") == nil {
		t.Fatalf("mutated: %+v", res)
	}
	clean := callOK[runResult](t, cs, "run_scenarios", `{"dialect":"minicodex","target":"`+startRef(t)+`/ws","tags":"@id:minicodex.resume.from-start","scripted":true}`)
	if clean.Verdict != "passed" || clean.Scenarios[0].Verdict != "passed" || len(clean.Problems) != 0 {
		t.Errorf("clean target: %+v", clean)
	}
	bad := call(t, cs, "run_scenarios", `{"dialect":"minicodex","mutate":["no-such-mutation"],"tags":"@id:minicodex.resume.from-start"}`)
	if !bad.IsError || !strings.Contains(text(bad), "no-such-mutation") {
		t.Errorf("unknown mutation: %s", text(bad))
	}
}

// TestReplay: replaying the golden minicodex recording against a server
// that skips an event on resume shows the missing message and the gap.
func TestReplay(t *testing.T) {
	t.Parallel()
	cs := connect(t, Config{})
	res := callOK[replayResult](t, cs, "replay", `{"path":`+quoteAbs(t, replayGolden)+`,"against":"`+startRef(t, "minicodex-replay-skips-event")+`","answer_timeout_ms":500}`)
	if res.Verdict != "failed" || res.Matched != len(res.Connections)-1 || problemOf(res.Problems, "minicodex.replay-gap") == nil {
		t.Fatalf("replay: %+v", res)
	}
	missing := false
	for _, c := range res.Connections {
		for _, d := range c.Diffs {
			missing = missing || (d.Op == "missing" && d.Type == "user_text")
		}
	}
	if !missing {
		t.Errorf("no missing user_text: %+v", res.Connections)
	}
	clean := callOK[replayResult](t, cs, "replay", `{"path":`+quoteAbs(t, replayGolden)+`,"against":"`+startRef(t)+`"}`)
	if clean.Verdict != "passed" || clean.Matched != len(clean.Connections) {
		t.Errorf("clean: %+v", clean)
	}
}
