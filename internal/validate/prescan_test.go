package validate

import (
	"context"
	"strings"
	"testing"
)

// count tallies findings by rule.
func countRules(fs []Finding) map[string]int {
	n := map[string]int{}
	for _, f := range fs {
		n[f.Rule]++
	}
	return n
}

// TestMyagentReconnectUnderNewSession: a recording of JasonDZS/myagent made
// before the sessionizer tied user.reconnect_with_state (testdata, modelled
// on the field trial's: per-connection numbering, the reconnect answered
// under a new session_id and filed as another session, the replay
// re-stamped with metadata.orig_seq). Judged as one session, the client is
// not blamed and agent.state_restored is not a replay; the re-stamping is
// one warning.
func TestMyagentReconnectUnderNewSession(t *testing.T) {
	t.Parallel()
	res, err := File(context.Background(), "testdata/myagent-reconnect-new-session.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sessions != 1 || res.Conns != 2 {
		t.Errorf("%d sessions of %d connections, want the reconnect in its session", res.Sessions, res.Conns)
	}
	n := countRules(res.Findings)
	for _, r := range []string{"myagent.reconnect-unseen", "myagent.replay-duplicate", "myagent.replay-mismatch", "myagent.replay-gap", "myagent.replay-truncated"} {
		if n[r] > 0 {
			t.Errorf("false alarm %s: %+v", r, res.Findings)
		}
	}
	if n["myagent.replay-restamped"] != 1 {
		t.Errorf("replay-restamped %d times, want once: %+v", n["myagent.replay-restamped"], res.Findings)
	}
	for _, f := range res.Findings {
		if f.Severity.String() == "error" {
			t.Errorf("error %s: %s", f.Rule, f.Message)
		}
		if f.Rule == "myagent.replay-restamped" && (f.Conn != "c2" || f.Expected != "6 (its seq when first delivered)" || f.Actual != "3") {
			t.Errorf("restamped %+v", f.Finding)
		}
	}
	// --one-session judges both connections as one too, and the same.
	one, err := File(context.Background(), "testdata/myagent-reconnect-new-session.jsonl", Options{OneSession: true})
	if err != nil {
		t.Fatal(err)
	}
	if m := countRules(one.Findings); m["myagent.replay-restamped"] != 1 || m["myagent.reconnect-unseen"] > 0 || m["myagent.replay-duplicate"] > 0 {
		t.Errorf("--one-session: %v", m)
	}
}

// TestCoworkerResumedSession: agent-coworker reattaches a session on a
// reconnect with ?resumeSessionId= (testdata, modelled on the field trial,
// recorded as a session per connection). Tied as one session, the server
// is named once (coworker.no-resumption on its server_hello, naming the
// earlier connection), and neither the client's answer to the ask pending
// on the old connection nor the turn's chunks going on at index 3 are
// blamed.
func TestCoworkerResumedSession(t *testing.T) {
	t.Parallel()
	res, err := File(context.Background(), "testdata/coworker-resume.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sessions != 1 || res.Conns != 2 {
		t.Errorf("%d sessions of %d connections, want one continued session", res.Sessions, res.Conns)
	}
	if len(res.Findings) != 1 {
		t.Fatalf("want exactly one finding, got %+v", res.Findings)
	}
	f := res.Findings[0]
	if f.Rule != "coworker.no-resumption" || f.Conn != "c2" || f.Type != "server_hello" || !strings.Contains(f.Message, "connection c1") {
		t.Errorf("finding %s on %s %s: %s", f.Rule, f.Conn, f.Type, f.Message)
	}
}

// TestUnjudgedConnections: wsproxy marks a notifications socket it relayed
// but did not judge; validate judges none of its frames (those before the
// mark included) and says so once per path in the notes.
func TestUnjudgedConnections(t *testing.T) {
	t.Parallel()
	for _, one := range []bool{false, true} {
		res, err := File(context.Background(), "testdata/myagent-unjudged-socket.jsonl", Options{OneSession: one})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Findings {
			if f.Conn == "c2" || f.Conn == "c3" || f.Severity.String() == "error" {
				t.Errorf("one-session %v: finding on an unjudged socket: %s %s", one, f.Rule, f.Message)
			}
		}
		if res.Conns != 1 || res.Frames != 4 {
			t.Errorf("one-session %v: %d connections, %d frames judged, want the agent's 1 and 4", one, res.Conns, res.Frames)
		}
		want := "not judged: not myagent traffic: /notify (c2, c3; its first 4 data frames are not myagent messages (notify))"
		if len(res.Notes) != 1 || res.Notes[0] != want {
			t.Errorf("one-session %v: notes %q\nwant %q", one, res.Notes, want)
		}
	}
}
