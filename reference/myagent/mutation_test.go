package myagent_test

import (
	"bytes"
	"regexp"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/reference/myagent"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// untilAll reads until every type in want has arrived (in any order).
func untilAll(t *testing.T, c *reftest.Client, want ...string) []reftest.Msg {
	t.Helper()
	left := map[string]bool{}
	for _, w := range want {
		left[w] = true
	}
	var out []reftest.Msg
	for len(left) > 0 {
		m := c.Next()
		out = append(out, m)
		delete(left, m.Type)
	}
	return out
}

// scenario exercises every place a mutation lives: connect, a confirmed
// tool call, a full pipeline, an ack, a replay after
// user.reconnect_with_state on a second connection, then a live run. It returns every message the
// clients read.
func scenario(t *testing.T, srv *reftest.Server) []reftest.Msg {
	t.Helper()
	c1 := srv.Dial(t, "/ws")
	all := []reftest.Msg{c1.Expect("system.connected")}
	c1.Send(ev("user.create_session"))
	created := c1.Expect("agent.session_created")
	id := created.Str("/session_id")
	all = append(all, created)

	c1.Send(ev("user.message", "session_id", id, "content", "/tool shell"))
	msgs := c1.Until("agent.user_confirm")
	all = append(all, msgs...)
	if step := msgs[len(msgs)-1].Str("/step_id"); step != "" {
		c1.Send(ev("user.response", "step_id", step, "content", map[string]any{"approved": true}))
		all = append(all, untilAll(t, c1, "agent.final_answer", "pipeline.completed")...)
	} else { // no step_id to answer with (a mutation): cancel instead
		c1.Send(ev("user.cancel"))
		all = append(all, c1.Until("agent.interrupted")...)
	}
	c1.Send(ev("user.message", "content", "/exec read"))
	all = append(all, untilAll(t, c1, "agent.final_answer", "pipeline.completed")...)
	c1.Send(ev("user.ack", "seq", 1))
	c1.Send(ev("user.request_state"))
	all = append(all, c1.Until("agent.state_exported")...)

	// A second connection resumes; c1 drops only after that, so the
	// snapshot's connection count does not depend on when the server
	// notices the drop (TestReconnectMidRun resumes after a real drop).
	c2 := srv.Dial(t, "/ws")
	all = append(all, c2.Expect("system.connected"))
	c2.Send(ev("user.reconnect_with_state", "session_id", id, "last_seq", 3))
	all = append(all, c2.Until("agent.state_restored")...)
	c1.Drop()
	c2.Send(ev("user.message", "content", "hello"))
	all = append(all, untilAll(t, c2, "agent.final_answer", "pipeline.completed")...)
	return all
}

// TestScenarioIsClean: without mutations the scenario draws no finding
// from any server frame (the cleanup of start checks that).
func TestScenarioIsClean(t *testing.T) {
	t.Parallel()
	scenario(t, start(t, server.Config{}))
}

// TestMutations: each mutation makes its rule fire in the same scenario.
func TestMutations(t *testing.T) {
	t.Parallel()
	kebab := regexp.MustCompile(`^myagent-[a-z0-9]+(-[a-z0-9]+)*$`)
	known := map[string]bool{}
	for _, r := range check.Rules("myagent") {
		known[r.ID] = true
	}
	if len(myagent.Mutations) < 3 {
		t.Fatalf("%d mutations, want at least 3", len(myagent.Mutations))
	}
	seen := map[string]bool{}
	for _, m := range myagent.Mutations {
		if !kebab.MatchString(m.Name) || seen[m.Name] || (m.Rule != "" && !known[m.Rule]) || m.Summary == "" {
			t.Errorf("mutation %+v: name not unique kebab-case with the dialect prefix, rule unknown or no summary", m)
		}
		seen[m.Name] = true
		if m.Rule == "" {
			continue // no frame shows it: the runner's TestMutationsAreCaught runs its scenarios
		}
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			srv := reftest.Start(t, "myagent", myagent.New, reftest.Options{ExpectFindings: true,
				Config: server.Config{Heartbeat: -1, Mutations: server.Mutations{m.Name: true}}})
			scenario(t, srv)
			srv.RequireFinding(t, m.Rule)
		})
	}
}

// TestDeterminism: the same scenario on two fresh servers with sequential
// ids and a fixed clock gives byte-identical frames.
func TestDeterminism(t *testing.T) {
	t.Parallel()
	fixed := time.Date(2025, 1, 15, 10, 30, 0, 0, time.UTC)
	frames := func() []reftest.Msg {
		return scenario(t, start(t, server.Config{IDs: server.Sequential(), Now: func() time.Time { return fixed }}))
	}
	a, b := frames(), frames()
	if len(a) != len(b) {
		t.Fatalf("%d frames vs %d", len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i].Raw, b[i].Raw) {
			t.Fatalf("frame %d differs:\n%s\n%s", i, a[i].Raw, b[i].Raw)
		}
	}
}
