package minicodex_test

import (
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestRefusals sends every kind of bad or out-of-state command and checks
// the error code, the echoed req_id, and that the connection and the
// session's state are intact afterwards.
func TestRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// setup runs after hello unless handshake is false; it may start a
		// run. It returns values the message can use.
		handshake bool
		setup     func(t *testing.T, c *reftest.Client) map[string]string
		msg       func(v map[string]string) any
		code      string
		reqID     string
		field     string // details.field, when the error names one
	}{
		{name: "binary frame", handshake: true, msg: func(map[string]string) any { return binary("{}") }, code: "INVALID_COMMAND"},
		{name: "invalid JSON", handshake: true, msg: raw(`{"type":"ping"`), code: "INVALID_COMMAND"},
		{name: "not an object", handshake: true, msg: raw(`["ping"]`), code: "INVALID_COMMAND"},
		{name: "null", handshake: true, msg: raw(`null`), code: "INVALID_COMMAND"},
		{name: "no type", handshake: true, msg: obj(`{"req_id":"r"}`), code: "INVALID_COMMAND", reqID: "r"},
		{name: "type not a string", handshake: true, msg: obj(`{"type":7,"req_id":"r"}`), code: "INVALID_COMMAND", reqID: "r"},
		{name: "unknown type", handshake: true, msg: obj(`{"type":"hi","req_id":"r"}`), code: "INVALID_COMMAND", reqID: "r"},
		{name: "server type", handshake: true, msg: obj(`{"type":"welcome","req_id":"r"}`), code: "INVALID_COMMAND", reqID: "r"},
		{name: "send before hello", msg: obj(`{"type":"send","text":"x","req_id":"r"}`), code: "INVALID_COMMAND", reqID: "r"},
		{name: "get_snapshot before hello", msg: obj(`{"type":"get_snapshot"}`), code: "INVALID_COMMAND"},
		{name: "hello twice", handshake: true, msg: obj(`{"type":"hello","v":"1.0.0","req_id":"r"}`), code: "INVALID_COMMAND", reqID: "r"},
		{name: "resume after hello", handshake: true, msg: obj(`{"type":"resume","last_seen_event_id":0}`), code: "INVALID_COMMAND"},
		{name: "send without text", handshake: true, msg: obj(`{"type":"send","req_id":"r"}`), code: "MISSING_FIELD", reqID: "r", field: "text"},
		{name: "approve without call_id", handshake: true, msg: obj(`{"type":"approve"}`), code: "MISSING_FIELD", field: "call_id"},
		{name: "deny without call_id", handshake: true, msg: obj(`{"type":"deny"}`), code: "MISSING_FIELD", field: "call_id"},
		{name: "hello without v", msg: obj(`{"type":"hello","req_id":"r"}`), code: "MISSING_FIELD", reqID: "r", field: "v"},
		{name: "resume without session", msg: obj(`{"type":"resume","last_seen_event_id":0}`), code: "MISSING_FIELD", field: "session_id"},
		{name: "text not a string", handshake: true, msg: obj(`{"type":"send","text":5,"req_id":"r"}`), code: "BAD_ARGUMENT", reqID: "r", field: "text"},
		{name: "text null", handshake: true, msg: obj(`{"type":"send","text":null}`), code: "BAD_ARGUMENT", field: "text"},
		{name: "text empty", handshake: true, msg: obj(`{"type":"send","text":"  "}`), code: "BAD_ARGUMENT", field: "text"},
		{name: "client_msg_id not a string", handshake: true, msg: obj(`{"type":"send","text":"x","client_msg_id":17}`), code: "BAD_ARGUMENT", field: "client_msg_id"},
		{name: "unknown member", handshake: true, msg: obj(`{"type":"send","text":"x","extra":true}`), code: "BAD_ARGUMENT", field: "extra"},
		{name: "ts not RFC 3339", handshake: true, msg: obj(`{"type":"send","text":"x","ts":"yesterday"}`), code: "BAD_ARGUMENT", field: "ts"},
		{name: "req_id not a string", handshake: true, msg: obj(`{"type":"ping","req_id":2}`), code: "BAD_ARGUMENT", field: "req_id"},
		{name: "call_id not a string", handshake: true, msg: obj(`{"type":"deny","call_id":1}`), code: "BAD_ARGUMENT", field: "call_id"},
		{name: "include_transcript_window null", handshake: true, msg: obj(`{"type":"get_snapshot","include_transcript_window":null}`), code: "BAD_ARGUMENT", field: "include_transcript_window"},
		{name: "include_transcript_window string", handshake: true, msg: obj(`{"type":"get_snapshot","include_transcript_window":"yes"}`), code: "BAD_ARGUMENT", field: "include_transcript_window"},
		{name: "client_capabilities not strings", msg: obj(`{"type":"hello","v":"1.0.0","client_capabilities":[1]}`), code: "BAD_ARGUMENT", field: "client_capabilities"},
		{name: "unsupported version", msg: obj(`{"type":"hello","v":"2.0.0"}`), code: "BAD_ARGUMENT", field: "v"},
		{name: "hello unknown session", msg: obj(`{"type":"hello","v":"1.0.0","session_id":"sess_nope"}`), code: "BAD_ARGUMENT", field: "session_id"},
		{name: "resume unknown session", msg: obj(`{"type":"resume","session_id":"sess_nope","last_seen_event_id":0}`), code: "BAD_ARGUMENT", field: "session_id"},
		{name: "command for another session", handshake: true, msg: obj(`{"type":"get_snapshot","session_id":"sess_other","req_id":"r"}`), code: "BAD_ARGUMENT", reqID: "r", field: "session_id"},
		{name: "abort run_id not a string", handshake: true, msg: obj(`{"type":"abort","run_id":7}`), code: "BAD_ARGUMENT", field: "run_id"},
		{name: "abort while idle", handshake: true, msg: obj(`{"type":"abort","req_id":"r"}`), code: "NOT_RUNNING", reqID: "r"},
		{name: "abort with a run_id while idle", handshake: true, msg: obj(`{"type":"abort","run_id":"00000000-0000-4000-8000-0000000000ff"}`), code: "NOT_RUNNING"},
		{
			name: "send while running", handshake: true, setup: slowRun,
			msg: obj(`{"type":"send","text":"more","req_id":"r"}`), code: "BUSY", reqID: "r",
		},
		{
			name: "abort a stale run", handshake: true, setup: slowRun,
			msg: obj(`{"type":"abort","run_id":"00000000-0000-4000-8000-0000000000ff","req_id":"r"}`), code: "STALE_RUN_ID", reqID: "r",
		},
		{name: "approve unknown call", handshake: true, setup: slowRun, msg: obj(`{"type":"approve","call_id":"call_nope","req_id":"r"}`), code: "UNKNOWN_CALL_ID", reqID: "r"},
		{name: "deny unknown call while idle", handshake: true, msg: obj(`{"type":"deny","call_id":"call_1"}`), code: "UNKNOWN_CALL_ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := start(t, server.Config{})
			c := srv.Dial(t, "/ws")
			if tt.handshake {
				c.Send(map[string]any{"type": "hello", "v": "1.0.0"})
				c.ExpectSeq("welcome", "snapshot")
			}
			v := map[string]string{}
			if tt.setup != nil {
				v = tt.setup(t, c)
			}
			before := snapshotOf(t, c, tt.handshake)
			switch m := tt.msg(v).(type) {
			case binary:
				c.SendFrame(websocket.BinaryMessage, []byte(m))
			default:
				c.Send(m)
			}
			e := expectErrorSkipping(t, c, tt.code, tt.reqID)
			if tt.field != "" && e.Str("/details/field") != tt.field {
				t.Errorf("details.field = %q, want %q: %s", e.Str("/details/field"), tt.field, e)
			}
			// Nothing changed, and the connection still answers.
			if after := snapshotOf(t, c, tt.handshake); after != before {
				t.Errorf("state changed by a refused command:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

type binary string

// raw sends text as is; obj too (named apart for reading).
func raw(s string) func(map[string]string) any { return func(map[string]string) any { return s } }
func obj(s string) func(map[string]string) any { return raw(s) }

// slowRun starts a long run and waits until it streams.
func slowRun(t *testing.T, c *reftest.Client) map[string]string {
	t.Helper()
	id := send(t, c, "/slow 200")
	c.Expect("assistant_text")
	return map[string]string{"run": id}
}

// snapshotOf is the session state as get_snapshot reports it, without the
// members that move on their own (ts, event ids of a streaming run); before
// a handshake it is just a ping round trip.
func snapshotOf(t *testing.T, c *reftest.Client, attached bool) string {
	t.Helper()
	if !attached {
		barrier(t, c, "alive")
		return ""
	}
	c.Send(map[string]any{"type": "get_snapshot", "req_id": "state"})
	for {
		m := c.Next()
		if m.Type != "snapshot" || m.Str("/req_id") != "state" {
			continue
		}
		return strings.Join([]string{
			m.Str("/session_state/session_id"), m.Str("/session_state/active_run_id"),
			m.Str("/run_state/run_id"), m.Str("/run_state/status"),
		}, "|") + "|" + string(rune('0'+m.Int("/session_state/run_counter")))
	}
}

// expectErrorSkipping waits for the error, skipping the events of a run
// in progress.
func expectErrorSkipping(t *testing.T, c *reftest.Client, code, reqID string) reftest.Msg {
	t.Helper()
	for {
		m := c.Next()
		if m.Has("/event_id") && m.Type != "error" {
			continue
		}
		if m.Type != "error" || m.Str("/code") != code {
			t.Fatalf("got %s, want error %s", m, code)
		}
		if reqID != "" && m.Str("/req_id") != reqID {
			t.Fatalf("error does not echo req_id %q: %s", reqID, m)
		}
		if m.Has("/event_id") {
			t.Errorf("a refusal carries an event_id: %s", m)
		}
		return m
	}
}

func TestOversize(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{MaxFrame: 1024})
	c, _, _ := hello(t, srv, "")
	c.Send(`{"type":"send","text":"` + strings.Repeat("x", 4000) + `"}`)
	e := expectError(t, c, "INVALID_COMMAND", "")
	if e.Int("/details/max") != 1024 || e.Int("/details/size") < 4000 {
		t.Errorf("oversize details: %s", e)
	}
	send(t, c, "still here")
	c.Until("turn_done")
}

func TestLastSeenOutOfRange(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	_, sid, _ := hello(t, srv, "")
	for _, last := range []int{-1, 5} {
		c := srv.Dial(t, "/ws")
		c.Send(resume(sid, last))
		e := expectError(t, c, "BAD_ARGUMENT", "")
		if e.Str("/details/field") != "last_seen_event_id" {
			t.Errorf("resume %d: %s", last, e)
		}
		// Not attached: a retry with a good id works.
		c.Send(resume(sid, 0))
		c.Expect("welcome")
	}
	c := srv.Dial(t, "/ws")
	c.Send(`{"type":"resume","session_id":"` + sid + `","last_seen_event_id":1.5}`)
	expectError(t, c, "BAD_ARGUMENT", "")
	c = srv.Dial(t, "/ws?session_id=sess_other")
	c.Send(resume(sid, 0))
	expectError(t, c, "BAD_ARGUMENT", "")
}

func TestBadInputDuringRunKeepsRun(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _, _ := hello(t, srv, "")
	send(t, c, "/slow 10")
	c.Send(`{oops`)
	c.SendFrame(websocket.BinaryMessage, []byte{0xff, 0x00})
	c.Send(`{"type":"nope"}`)
	ms := c.Until("turn_done")
	errs := 0
	for _, m := range ms {
		if m.Type == "error" {
			errs++
		}
	}
	if errs != 3 || text(ms, "assistant_text") == "" {
		t.Errorf("want 3 errors and the run's reply, got %s", types(ms))
	}
}

func TestApprovalConflictAcrossClients(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	a, sid, _ := hello(t, srv, "")
	b, _, _ := hello(t, srv, "?session_id="+sid)
	send(t, a, "/tool ls")
	callID := a.Expect("approval_pending").Str("/call_id")
	b.Expect("approval_pending")
	a.Send(map[string]any{"type": "approve", "call_id": callID})
	a.Expect("accepted")
	b.Expect("approval_decision")
	b.Send(map[string]any{"type": "deny", "call_id": callID, "req_id": "late"})
	e := expectErrorSkipping(t, b, "APPROVAL_CONFLICT", "late")
	if e.Str("/details/decision") != "approve" {
		t.Errorf("conflict details: %s", e)
	}
	untilStatus(t, a, "finished")
}
