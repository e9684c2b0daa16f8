package minicodex_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reference/minicodex"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// start serves minicodex with test defaults (slow chunks 20ms, no
// heartbeat) overridden by cfg's non-zero fields, and fails the test on any
// finding about a server frame, warnings included: the reference server
// satisfies every reading of the spec's ambiguities.
func start(t *testing.T, cfg server.Config) *reftest.Server {
	t.Helper()
	if cfg.Slow == 0 {
		cfg.Slow = 20 * time.Millisecond
	}
	if cfg.Heartbeat == 0 {
		cfg.Heartbeat = -1
	}
	srv := reftest.Start(t, "minicodex", minicodex.New, reftest.Options{Config: cfg})
	t.Cleanup(func() { noServerFindings(t, srv) })
	return srv
}

// noServerFindings fails on any finding, of any severity, about a frame
// the server sent.
func noServerFindings(t *testing.T, srv *reftest.Server) {
	t.Helper()
	for _, f := range srv.Findings() {
		if f.Dir == wire.ServerToClient {
			t.Errorf("server frame finding: %s", reftest.Describe(f))
		}
	}
}

// hello dials /ws (plus query) and starts a session; it returns the
// client, the session id and the snapshot.
func hello(t *testing.T, srv *reftest.Server, query string, opts ...reftest.DialOption) (*reftest.Client, string, reftest.Msg) {
	t.Helper()
	c := srv.Dial(t, "/ws"+query, opts...)
	c.Send(map[string]any{"type": "hello", "v": "1.0.0", "client_capabilities": []string{"approvals"}})
	ms := c.ExpectSeq("welcome", "snapshot")
	sid := ms[0].Str("/session_state/session_id")
	if sid == "" {
		t.Fatalf("welcome without session id: %s", ms[0])
	}
	return c, sid, ms[1]
}

// send starts a run and returns its run id from accepted.
func send(t *testing.T, c *reftest.Client, text string) string {
	t.Helper()
	c.Send(map[string]any{"type": "send", "text": text, "req_id": "r-send"})
	m := c.Expect("accepted")
	if m.Str("/req_id") != "r-send" || m.Str("/run_id") == "" {
		t.Fatalf("accepted does not echo req_id or name the run: %s", m)
	}
	return m.Str("/run_id")
}

// types lists the message types of ms.
func types(ms []reftest.Msg) string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Type
		if m.Type == "run_status" {
			out[i] += ":" + m.Str("/run_state/status")
		}
	}
	return strings.Join(out, " ")
}

// until collects messages up to and including the run_status with status.
func untilStatus(t *testing.T, c *reftest.Client, status string) []reftest.Msg {
	t.Helper()
	var out []reftest.Msg
	for {
		m := c.Next()
		out = append(out, m)
		if m.Type == "run_status" && m.Str("/run_state/status") == status {
			return out
		}
	}
}

// text joins the text of the messages of type typ.
func text(ms []reftest.Msg, typ string) string {
	var b strings.Builder
	for _, m := range ms {
		if m.Type == typ {
			b.WriteString(m.Str("/text"))
		}
	}
	return b.String()
}

// requireIncreasing fails unless the events of ms have event ids that
// follow each other by one, starting after prev; it returns the last.
func requireIncreasing(t *testing.T, prev int64, ms []reftest.Msg) int64 {
	t.Helper()
	for _, m := range ms {
		if !m.Has("/event_id") {
			continue
		}
		id := m.Int("/event_id")
		if prev >= 0 && id != prev+1 {
			t.Fatalf("event_id %d after %d: %s", id, prev, m)
		}
		prev = id
	}
	return prev
}

// barrier sends a ping and waits for its accepted: everything the server
// queued before is read by then. It returns the messages before it.
func barrier(t *testing.T, c *reftest.Client, tag string) []reftest.Msg {
	t.Helper()
	c.Send(map[string]any{"type": "ping", "req_id": tag})
	var out []reftest.Msg
	for {
		m := c.Next()
		if m.Type == "accepted" && m.Str("/req_id") == tag {
			return out
		}
		out = append(out, m)
	}
}

// expectError reads the next message and requires an error with code (and
// req_id when the command had one).
func expectError(t *testing.T, c *reftest.Client, code, reqID string) reftest.Msg {
	t.Helper()
	m := c.Next()
	if m.Type != "error" || m.Str("/code") != code {
		t.Fatalf("got %s, want error %s", m, code)
	}
	if reqID != "" && m.Str("/req_id") != reqID {
		t.Fatalf("error %s does not echo req_id %q: %s", code, reqID, m)
	}
	if m.Str("/message") == "" {
		t.Fatalf("error %s without message: %s", code, m)
	}
	return m
}

func resume(sid string, last any) map[string]any {
	return map[string]any{"type": "resume", "session_id": sid, "last_seen_event_id": last, "req_id": fmt.Sprintf("resume-%v", last)}
}

// untilEnd collects a run's messages up to its terminal run_status
// (finished or error) and the turn_done that may follow it: turn_done is
// queued with the terminal status, so a ping answered after it proves
// nothing else belongs to the run.
func untilEnd(t *testing.T, c *reftest.Client) []reftest.Msg {
	t.Helper()
	var out []reftest.Msg
	for {
		m := c.Next()
		out = append(out, m)
		if m.Type == "run_status" {
			if s := m.Str("/run_state/status"); s == "finished" || s == "error" {
				return append(out, barrier(t, c, "end")...)
			}
		}
	}
}
