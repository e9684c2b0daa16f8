package myagent_test

import (
	"bytes"
	"slices"
	"strconv"
	"testing"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// run sends text on c and reads the whole pipeline.
func run(t *testing.T, c *reftest.Client, text string) []reftest.Msg {
	t.Helper()
	c.Send(ev("user.message", "content", text))
	return c.Until("agent.final_answer")
}

// TestReconnectWithState: after a drop, a new connection replays the
// events after last_seq byte for byte, then gets agent.state_restored and
// the live events.
func TestReconnectWithState(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// last is the last_seq to send (-1: none, after an ack of ackSeq)
		last, ack int64
	}{
		{"from last_seq", 4, 0},
		{"from zero", 0, 0},
		{"without last_seq resumes after the last ack", -1, 5},
		{"nothing to replay", 999, 0}, // replaced by the last seq below
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := start(t, server.Config{})
			c1 := dial(t, srv)
			id := session(t, c1)
			all := run(t, c1, "/exec read")
			if tt.ack > 0 {
				c1.Send(ev("user.ack", "seq", tt.ack))
				c1.Send(ev("user.request_state"))
				if st := c1.Expect("agent.state_exported"); st.Int("/metadata/state/acked_seq") != tt.ack {
					t.Fatalf("state after ack = %s", st.Raw)
				}
			}
			c1.Drop()
			last := tt.last
			if last == 999 {
				last = lastSeq(all)
			}
			c2 := dial(t, srv)
			req := ev("user.reconnect_with_state", "session_id", id)
			from := last
			if last >= 0 {
				req["last_seq"] = last
			} else {
				from = tt.ack
			}
			c2.Send(req)
			notice := c2.Expect("system.notice")
			replayed := c2.Until("agent.state_restored")
			replayed = replayed[:len(replayed)-1]
			var want []reftest.Msg
			for _, m := range all {
				if m.Int("/seq") > from {
					want = append(want, m)
				}
			}
			// agent.session_created (seq 1) was read by session(), not kept
			// in all: a replay from 0 starts with it.
			if from < 1 {
				if len(replayed) == 0 || replayed[0].Type != "agent.session_created" {
					t.Fatalf("replay from 0 does not start with agent.session_created: %v", types(replayed))
				}
				replayed = replayed[1:]
			}
			if len(replayed) != len(want) || notice.Int("/content/replay_count") != int64(len(want))+boolInt(from < 1) {
				t.Fatalf("replayed %v, want %v (notice %s)", types(replayed), types(want), notice.Raw)
			}
			for i := range want {
				if !bytes.Equal(replayed[i].Raw, want[i].Raw) {
					t.Fatalf("replayed event differs:\n got %s\nwant %s", replayed[i].Raw, want[i].Raw)
				}
			}
			// The connection is in the session: live events follow.
			live := run(t, c2, "more")
			if live[0].Int("/seq") != lastSeq(all)+1 {
				t.Fatalf("live event after the replay: %s", live[0].Raw)
			}
		})
	}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// TestReconnectMidRun: a client dropped by a fault in the middle of a
// slow run resumes on a new connection and sees the rest of the run,
// nothing twice and nothing missing.
func TestReconnectMidRun(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c1 := dialPath(t, srv, "/ws?fault=drop-after=6")
	id := session(t, c1)
	c1.Send(ev("user.message", "content", "/slow 6"))
	var seen []reftest.Msg
	for range 4 { // system.connected and agent.session_created were messages 1 and 2
		seen = append(seen, c1.Next())
	}
	if code, _ := c1.Closed(); code != 1006 {
		t.Fatalf("close code %d, want 1006 (dropped)", code)
	}
	last := lastSeq(seen)
	c2 := dial(t, srv)
	c2.Send(ev("user.reconnect_with_state", "session_id", id, "content", map[string]any{"last_seq": last}))
	msgs := c2.Until("agent.final_answer")
	var got []int64
	for _, m := range msgs {
		if s := m.Int("/seq"); s > 0 {
			got = append(got, s)
		}
	}
	for i, s := range got {
		if s != last+int64(i)+1 {
			t.Fatalf("seqs after reconnect %v, want %d, %d, … without gaps", got, last+1, last+2)
		}
	}
	if !slices.Contains(types(msgs), "agent.state_restored") {
		t.Fatalf("no agent.state_restored: %v", types(msgs))
	}
}

// TestReconnectErrors: unknown session, last_seq ahead, a pruned buffer.
func TestReconnectErrors(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c1 := dial(t, srv, reftest.Group("a"))
	id := session(t, c1)
	msgs := run(t, c1, "hi")

	c2 := dial(t, srv, reftest.Group("b"))
	c2.Send(ev("user.reconnect_with_state", "session_id", "sess_nope", "last_seq", 1))
	expectError(t, c2, "error.recovery_failed", "SESSION_NOT_FOUND")
	c2.Send(ev("user.reconnect", "session_id", "sess_nope"))
	expectError(t, c2, "error.recovery_failed", "SESSION_NOT_FOUND")
	c2.Send(ev("user.reconnect_with_state"))
	expectError(t, c2, "error.validation", "MISSING_FIELD")

	// last_seq ahead of the session: refused, the connection stays out
	// of the session or leaves it.
	for _, inSession := range []bool{false, true} {
		c3 := dial(t, srv, reftest.Group("c"+strconv.FormatBool(inSession)))
		if inSession {
			c3.Send(ev("user.reconnect", "session_id", id))
			c3.Expect("agent.state_restored")
		}
		c3.Send(ev("user.reconnect_with_state", "session_id", id, "last_seq", 500))
		expectError(t, c3, "error.recovery_failed", "LAST_SEQ_AHEAD")
		c3.Send(ev("user.request_state"))
		expectError(t, c3, "error.validation", "NO_SESSION")
	}

	// Everything acknowledged is pruned: a replay from before cannot be
	// complete, and the server says so.
	top := lastSeq(msgs)
	c1.Send(ev("user.ack", "seq", top))
	c1.Send(ev("user.request_state"))
	if st := c1.Expect("agent.state_exported"); st.Int("/metadata/state/buffered_events") != 0 {
		t.Fatalf("buffer not pruned by the ack: %s", st.Raw)
	}
	c4 := dial(t, srv, reftest.Group("a"))
	c4.Send(ev("user.reconnect_with_state", "session_id", id, "last_seq", 2))
	m := expectError(t, c4, "error.recovery_failed", "REPLAY_UNAVAILABLE")
	if m.Str("/metadata/recovery_action") != "request_state" {
		t.Fatalf("recovery_failed = %s", m.Raw)
	}
	// ... and the connection is in the session anyway.
	live := run(t, c4, "after")
	if live[0].Int("/seq") != top+1 {
		t.Fatalf("live after failed recovery: %s", live[0].Raw)
	}
	c1.Until("agent.final_answer")
}

// TestReconnectPlain: user.reconnect joins without replay.
func TestReconnectPlain(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c1 := dial(t, srv)
	id := session(t, c1)
	run(t, c1, "hi")
	c1.Close()
	c2 := dial(t, srv)
	c2.Send(ev("user.reconnect", "session_id", id))
	m := c2.Expect("agent.state_restored")
	if m.Str("/session_id") != id || m.Int("/metadata/replayed") != 0 || m.Has("/seq") ||
		m.Str("/metadata/state/transcript/1/text") != "Echo: hi" {
		t.Fatalf("state_restored = %s", m.Raw)
	}
	run(t, c2, "again")
	c2.Send(ev("user.reconnect", "session_id", "sess_other"))
	expectError(t, c2, "error.validation", "SESSION_MISMATCH")
}

// TestFanOut: every client of a session gets the same bytes for every
// event; an answer from one client unblocks the run for all.
func TestFanOut(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	a := dial(t, srv)
	id := session(t, a)
	b := dial(t, srv)
	b.Send(ev("user.reconnect", "session_id", id))
	b.Expect("agent.state_restored")
	a.Send(ev("user.message", "content", "/tool deploy"))
	qa, qb := a.Expect("agent.user_confirm"), b.Expect("agent.user_confirm")
	b.Send(ev("user.response", "step_id", qb.Str("/step_id"), "content", map[string]any{"approved": true}))
	ma, mb := a.Until("agent.final_answer"), b.Until("agent.final_answer")
	if !bytes.Equal(qa.Raw, qb.Raw) || len(ma) != len(mb) {
		t.Fatalf("clients differ: %v vs %v", types(ma), types(mb))
	}
	for i := range ma {
		if !bytes.Equal(ma[i].Raw, mb[i].Raw) {
			t.Fatalf("event %d differs:\n%s\n%s", i, ma[i].Raw, mb[i].Raw)
		}
	}
	a.Send(ev("user.response", "step_id", qa.Str("/step_id"), "content", map[string]any{"approved": true}))
	expectError(t, a, "error.validation", "STEP_CLOSED")
	// A third client joins by naming the session in any event.
	c := dial(t, srv)
	c.Send(ev("user.request_state", "session_id", id))
	if st := c.Expect("agent.state_exported"); st.Int("/metadata/state/connections") != 3 {
		t.Fatalf("state = %s", st.Raw)
	}
}

// TestAck: acks prune only what every attached client acknowledged; an
// ack of an unsent seq is refused.
func TestAck(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	a := dial(t, srv)
	id := session(t, a)
	b := dial(t, srv)
	b.Send(ev("user.reconnect", "session_id", id))
	b.Expect("agent.state_restored")
	msgs := run(t, a, "hi")
	b.Until("agent.final_answer")
	top := lastSeq(msgs)
	// state asks on the client that acknowledged last: its messages are
	// handled in order, the other client's are not ordered with them.
	state := func(c *reftest.Client) reftest.Msg {
		c.Send(ev("user.request_state"))
		return c.Expect("agent.state_exported")
	}
	a.Send(ev("user.ack", "seq", top))
	if n := state(a).Int("/metadata/state/buffered_events"); n != top {
		t.Fatalf("buffer holds %d events after one client's ack, want %d", n, top)
	}
	b.Send(ev("user.ack", "seq", 3))
	if n := state(b).Int("/metadata/state/buffered_events"); n != top-3 {
		t.Fatalf("buffer holds %d events, want %d", n, top-3)
	}
	b.Close()
	// The server notices the close after the client does: ask until it has.
	st := state(a)
	for i := 0; i < 1000 && st.Int("/metadata/state/connections") != 1; i++ {
		st = state(a)
	}
	if st.Int("/metadata/state/buffered_events") != 0 || st.Int("/metadata/state/connections") != 1 {
		t.Fatalf("after the slower client left: %s", st.Raw)
	}
	a.Send(ev("user.ack", "seq", top+1))
	expectError(t, a, "error.validation", "ACK_UNSENT")
}

func TestRequestState(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c := dial(t, srv)
	id := session(t, c)
	c.Send(ev("user.message", "content", "/ask Ready?"))
	q := c.Expect("agent.user_confirm")
	c.Send(ev("user.request_state", "session_id", id))
	m := c.Expect("agent.state_exported")
	checks := map[string]string{
		"/metadata/state/session_id":                   id,
		"/metadata/state/status":                       "awaiting_confirmation",
		"/metadata/state/pending_confirmation/step_id": q.Str("/step_id"),
		"/metadata/state/tasks/0/status":               "running",
		"/metadata/state/transcript/0/text":            "/ask Ready?",
	}
	for ptr, want := range checks {
		if got := m.Str(ptr); got != want {
			t.Errorf("%s = %q, want %q", ptr, got, want)
		}
	}
	if m.Has("/seq") || m.Int("/metadata/state/last_seq") != q.Int("/seq") {
		t.Errorf("state_exported = %s", m.Raw)
	}
	c.Send(ev("user.cancel"))
	c.Until("agent.interrupted")
}

// TestReplayOnSameConnection: a client may rewind on its own connection.
func TestReplayOnSameConnection(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c := dial(t, srv)
	id := session(t, c)
	msgs := run(t, c, "hi")
	c.Send(ev("user.ack", "seq", lastSeq(msgs)))
	c.Send(ev("user.reconnect_with_state", "metadata", map[string]any{"last_seq": 3}))
	expectError(t, c, "error.recovery_failed", "REPLAY_UNAVAILABLE")
	more := run(t, c, "again")
	c.Send(ev("user.reconnect_with_state", "session_id", id, "last_seq", lastSeq(more)-2))
	c.Expect("system.notice")
	replayed := c.Until("agent.state_restored")
	if len(replayed) != 3 || !bytes.Equal(replayed[0].Raw, more[len(more)-2].Raw) || !bytes.Equal(replayed[1].Raw, more[len(more)-1].Raw) {
		t.Fatalf("replay on the same connection: %v", types(replayed))
	}
}
