package proxy

import (
	"testing"
)

const stamp = "2025-01-15T10:30:00Z"

func myagentEvent(typ string, kv ...any) map[string]any {
	m := map[string]any{"event": typ, "timestamp": stamp}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// TestMyagentReconnectWithState: a myagent client reconnects with
// user.reconnect_with_state; the proxy ties the new connection to the
// session by the server's events, so an altered replay is caught.
func TestMyagentReconnectWithState(t *testing.T) {
	t.Parallel()
	for _, mutation := range []string{"", "myagent-replay-alters-payload"} {
		t.Run("mutation="+mutation, func(t *testing.T) {
			t.Parallel()
			var mutate []string
			if mutation != "" {
				mutate = []string{mutation}
			}
			ref := startRef(t, "myagent", mutate...)
			tp := startProxy(t, Config{Upstream: ref.URL})
			c1 := dial(t, tp.url+"/ws", nil)
			c1.until("event", "system.connected")
			c1.send(myagentEvent("user.create_session"))
			id := c1.until("event", "agent.session_created")[0].str("session_id")
			c1.send(myagentEvent("user.message", "content", "/exec read"))
			c1.until("event", "agent.final_answer")
			_ = c1.ws.NetConn().Close()
			c1.closed()
			c2 := dial(t, tp.url+"/ws", nil)
			c2.until("event", "system.connected")
			c2.send(myagentEvent("user.reconnect_with_state", "session_id", id, "last_seq", 2))
			c2.until("event", "agent.state_restored")
			c2.closeWith(1000, "")
			c2.closed()
			r := tp.Stop()
			if len(r.Sessions) != 1 || r.Sessions[0].ID != id || len(r.Sessions[0].Conns) != 2 || r.Sessions[0].Conns[1].Parent != "c1" {
				t.Fatalf("want one session %s of c1 and c2 (reconnecting c1), got %+v", id, r.Sessions)
			}
			errs := errorsOf(r)
			if mutation == "" && len(errs) > 0 {
				t.Errorf("faithful replay gave errors: %s", describeFindings(errs))
			}
			if mutation != "" && !hasRule(r, "myagent.replay-mismatch") {
				t.Errorf("altered replay not caught: %s", describeFindings(findings(r)))
			}
			sameOffline(t, tp, r)
		})
	}
}

// TestMittoTabsShareASession: two tabs of one mitto session (the server's
// connected names it) are judged together; a planted max_seq violation is
// caught.
func TestMittoTabsShareASession(t *testing.T) {
	t.Parallel()
	ref := startRef(t, "mitto", "mitto-max-seq-below-seq")
	tp := startProxy(t, Config{Upstream: ref.URL})
	a := dial(t, tp.url+"/ws?session_id=shared", nil)
	a.until("type", "connected")
	b := dial(t, tp.url+"/ws?session_id=shared", nil)
	b.until("type", "connected")
	a.send(map[string]any{"type": "prompt", "data": map[string]any{"message": "hello", "prompt_id": "p1"}})
	a.until("type", "prompt_complete")
	b.until("type", "prompt_complete")
	for _, c := range []*client{a, b} {
		c.closeWith(1000, "")
		c.closed()
	}
	r := tp.Stop()
	if len(r.Sessions) != 1 || r.Sessions[0].ID != "shared" || len(r.Sessions[0].Conns) != 2 {
		t.Fatalf("want the two tabs in session shared, got %+v", r.Sessions)
	}
	if !hasRule(r, "mitto.max-seq") {
		t.Errorf("planted max_seq violation not caught: %s", describeFindings(findings(r)))
	}
	sameOffline(t, tp, r)
}
