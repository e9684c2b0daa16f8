package myagent_test

import (
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reference/myagent"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// clientStamp is the timestamp of every test event: the EventProtocol
// interface declares it required, so tests send it (no ambiguity warning).
const clientStamp = "2025-01-15T10:30:00Z"

// start runs a myagent server for a test: slow chunks short, no
// heartbeat, unless cfg says otherwise. Cleanup fails the test on any
// server warning too (the reference server should not need excuses).
func start(t *testing.T, cfg server.Config) *reftest.Server {
	t.Helper()
	if cfg.Slow == 0 {
		cfg.Slow = 20 * time.Millisecond
	}
	if cfg.Heartbeat == 0 {
		cfg.Heartbeat = -1
	}
	srv := reftest.Start(t, "myagent", myagent.New, reftest.Options{Config: cfg})
	t.Cleanup(func() { noServerWarnings(t, srv) })
	return srv
}

// noServerWarnings fails on any finding in a frame the server sent.
func noServerWarnings(t *testing.T, srv *reftest.Server) {
	t.Helper()
	for _, f := range srv.Findings() {
		if f.Dir == wire.ServerToClient {
			t.Errorf("server finding: %s", reftest.Describe(f))
		}
	}
}

// ev is a client event with its timestamp; kv are member/value pairs.
func ev(typ string, kv ...any) map[string]any {
	m := map[string]any{"event": typ, "timestamp": clientStamp}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// dial connects and reads system.connected.
func dial(t *testing.T, srv *reftest.Server, opts ...reftest.DialOption) *reftest.Client {
	t.Helper()
	return dialPath(t, srv, "/ws", opts...)
}

func dialPath(t *testing.T, srv *reftest.Server, path string, opts ...reftest.DialOption) *reftest.Client {
	t.Helper()
	c := srv.Dial(t, path, opts...)
	m := c.Next()
	if m.Type != "system.connected" {
		t.Fatalf("first event is %s, want system.connected", m.Raw)
	}
	return c
}

// session creates a session on c and returns its id.
func session(t *testing.T, c *reftest.Client) string {
	t.Helper()
	c.Send(ev("user.create_session"))
	m := c.Expect("agent.session_created")
	id := m.Str("/session_id")
	if id == "" || m.Int("/seq") != 1 {
		t.Fatalf("agent.session_created without session_id or with seq other than 1: %s", m.Raw)
	}
	return id
}

// types lists the event types of msgs.
func types(msgs []reftest.Msg) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Type
	}
	return out
}

// sameTypes fails unless msgs have exactly the types want.
func sameTypes(t *testing.T, msgs []reftest.Msg, want ...string) {
	t.Helper()
	got := types(msgs)
	if len(got) != len(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("events %v, want %v", got, want)
		}
	}
}

// increasing fails unless every message with a seq has a higher one than
// the message before it.
func increasing(t *testing.T, msgs []reftest.Msg) {
	t.Helper()
	last := int64(0)
	for _, m := range msgs {
		s := m.Int("/seq")
		if s < 0 {
			continue
		}
		if s <= last {
			t.Fatalf("seq %d after %d: %s", s, last, m.Raw)
		}
		last = s
	}
}

// expectError reads until an error event of kind and checks its code.
func expectError(t *testing.T, c *reftest.Client, kind, code string) reftest.Msg {
	t.Helper()
	m := c.Expect(kind)
	if got := m.Str("/metadata/error_code"); got != code {
		t.Fatalf("%s error_code %q, want %q: %s", kind, got, code, m.Raw)
	}
	if m.Has("/seq") {
		t.Fatalf("a reply to one connection carries a seq: %s", m.Raw)
	}
	return m
}

// lastSeq is the highest seq among msgs.
func lastSeq(msgs []reftest.Msg) int64 {
	var n int64
	for _, m := range msgs {
		if s := m.Int("/seq"); s > n {
			n = s
		}
	}
	return n
}
