package minicodex_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

func TestHelloWelcomeSnapshot(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c := srv.Dial(t, "/ws")
	c.Send(map[string]any{"type": "hello", "v": "1.0.0", "req_id": "r-1"})
	ms := c.ExpectSeq("welcome", "snapshot")
	w, s := ms[0], ms[1]
	if w.Str("/v") != "1.0.0" || w.Str("/req_id") != "r-1" || w.Str("/session_state/version") != "1.0.0" {
		t.Errorf("welcome: %s", w)
	}
	if !w.Has("/session_state/capabilities") || w.Int("/session_state/run_counter") != 0 {
		t.Errorf("welcome session_state lacks defaults: %s", w)
	}
	if v, _ := w.Get("/session_state/last_event_id"); v != nil {
		t.Errorf("fresh session has last_event_id %v", v)
	}
	if s.Int("/event_id") != 0 || s.Str("/session_state/session_id") != w.Str("/session_state/session_id") {
		t.Errorf("snapshot: %s", s)
	}
	if v, ok := s.Get("/run_state"); !ok || v != nil {
		t.Errorf("fresh snapshot run_state = %v, want null", v)
	}
	if tr, _ := s.Get("/transcript"); tr == nil || len(tr.([]any)) != 0 {
		t.Errorf("fresh snapshot transcript = %v, want []", tr)
	}
}

// TestRuns drives each script of the agent and checks the event sequence.
func TestRuns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		// want is the sequence after accepted, up to the end of the run;
		// assistant_text/reasoning runs are collapsed to one.
		want  string
		reply string
	}{
		{"echo", "hello world", "run_status:starting user_text run_status:running assistant_text run_status:finished turn_done", "Echo: hello world"},
		{"think", "/think a b", "run_status:starting user_text run_status:running reasoning assistant_text run_status:finished turn_done", "Done thinking."},
		{"exec", `/exec ls {"path":"."}`, "run_status:starting user_text run_status:running tool_call function_call_output assistant_text run_status:finished", "Tool ls finished."},
		{"ask", "/ask Ready?", "run_status:starting user_text run_status:running assistant_text run_status:finished turn_done", "Ready? (yes / no)"},
		{"fail", "/fail boom", "run_status:starting user_text run_status:running assistant_text error run_status:error turn_done", "Working on it."},
		{"stream", "/stream 5", "run_status:starting user_text run_status:running assistant_text run_status:finished turn_done", "chunk 1 of 5. chunk 2 of 5. chunk 3 of 5. chunk 4 of 5. chunk 5 of 5. "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := start(t, server.Config{})
			c, _, _ := hello(t, srv, "")
			runID := send(t, c, tt.text)
			ms := untilEnd(t, c)
			if got := collapse(ms); got != tt.want {
				t.Fatalf("events\n got %s\nwant %s", got, tt.want)
			}
			if got := text(ms, "assistant_text"); got != tt.reply {
				t.Errorf("reply %q, want %q", got, tt.reply)
			}
			requireIncreasing(t, 0, ms)
			for _, m := range ms {
				if m.Has("/event_id") && m.Str("/run_id") != runID {
					t.Errorf("event of another run: %s", m)
				}
			}
			last := ms[len(ms)-1]
			if last.Type == "run_status" && !last.Has("/run_state/finished_at") {
				t.Errorf("terminal run_status without finished_at: %s", last)
			}
			if tt.name == "fail" {
				for _, m := range ms {
					if m.Type == "error" && (m.Str("/code") != "RUN_FAILED" || m.Str("/message") != "boom") {
						t.Errorf("failure event: %s", m)
					}
				}
			}
		})
	}
}

// collapse renders types with runs of the same streamed type as one.
func collapse(ms []reftest.Msg) string {
	var out []string
	for _, w := range strings.Fields(types(ms)) {
		if len(out) > 0 && out[len(out)-1] == w && (w == "assistant_text" || w == "reasoning") {
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

func TestToolApproval(t *testing.T) {
	t.Parallel()
	for _, decision := range []string{"approve", "deny"} {
		t.Run(decision, func(t *testing.T) {
			t.Parallel()
			srv := start(t, server.Config{})
			c, _, _ := hello(t, srv, "")
			send(t, c, `/tool ls {"path":"."}`)
			ms := untilStatus(t, c, "awaiting_approval")
			if got := types(ms); got != "run_status:starting user_text run_status:running tool_call approval_pending run_status:awaiting_approval" {
				t.Fatalf("before approval: %s", got)
			}
			pend := ms[4]
			callID := pend.Str("/call_id")
			var args map[string]any
			if err := json.Unmarshal([]byte(pend.Str("/args_json")), &args); err != nil || args["path"] != "." || pend.Str("/tool_key") != "ls" {
				t.Errorf("approval_pending: %s", pend)
			}
			if ms[5].Str("/run_state/pending_approvals/0/call_id") != callID || !ms[5].Has("/run_state/pending_approvals/0/args") {
				t.Errorf("awaiting_approval without the pending call: %s", ms[5])
			}
			c.Send(map[string]any{"type": decision, "call_id": callID, "req_id": "r-d"})
			if m := c.Next(); m.Type != "accepted" || m.Str("/req_id") != "r-d" {
				t.Fatalf("decision answered %s", m)
			}
			rest := untilEnd(t, c)
			requireIncreasing(t, ms[len(ms)-1].Int("/event_id"), rest)
			want := map[string]string{
				"approve": "approval_decision run_status:running function_call_output assistant_text run_status:finished",
				"deny":    "approval_decision run_status:running assistant_text run_status:finished turn_done",
			}[decision]
			if got := collapse(rest); got != want {
				t.Fatalf("after %s\n got %s\nwant %s", decision, got, want)
			}
			wantDecision := map[string]string{"approve": "approve", "deny": "deny_continue"}[decision]
			if rest[0].Str("/decision") != wantDecision || rest[0].Str("/call_id") != callID {
				t.Errorf("decision: %s", rest[0])
			}
			if decision == "approve" {
				out := rest[2]
				if out.Str("/call_id") != callID || out.Str("/output") != "ls ran with 1 argument(s)" || !out.Has("/result/content") {
					t.Errorf("function_call_output: %s", out)
				}
			}
			// A second decision on the same call conflicts.
			c.Send(map[string]any{"type": "approve", "call_id": callID, "req_id": "r-again"})
			expectError(t, c, "APPROVAL_CONFLICT", "r-again")
		})
	}
}

func TestPromptTimeoutDenies(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{PromptTimeout: 30 * time.Millisecond})
	c, _, _ := hello(t, srv, "")
	send(t, c, "/tool rm")
	c.Expect("approval_pending")
	m := c.Expect("approval_decision")
	if m.Str("/decision") != "deny_continue" {
		t.Errorf("timeout decision: %s", m)
	}
	c.Until("turn_done")
}

func TestAbort(t *testing.T) {
	t.Parallel()
	t.Run("mid-stream", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		c, _, _ := hello(t, srv, "")
		runID := send(t, c, "/slow 50")
		c.Expect("assistant_text")
		c.Send(map[string]any{"type": "abort", "run_id": runID, "req_id": "r-abort"})
		if m := c.Expect("accepted"); m.Str("/req_id") != "r-abort" || m.Str("/run_id") != runID {
			t.Fatalf("abort answered %s", m)
		}
		ms := c.Until("turn_done")
		var statuses []string
		for _, m := range ms {
			if m.Type == "run_status" {
				statuses = append(statuses, m.Str("/run_state/status"))
			}
		}
		if strings.Join(statuses, " ") != "aborting finished" {
			t.Errorf("statuses after abort: %v (%s)", statuses, types(ms))
		}
		// The session is idle again: a new run starts.
		send(t, c, "again")
		c.Until("turn_done")
	})
	t.Run("awaiting approval", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		c, _, _ := hello(t, srv, "")
		send(t, c, "/tool ls")
		callID := c.Expect("approval_pending").Str("/call_id")
		untilStatus(t, c, "awaiting_approval")
		c.Send(map[string]any{"type": "abort"})
		c.Expect("accepted")
		ms := c.Until("turn_done")
		if got := types(ms); got != "run_status:aborting approval_decision run_status:finished turn_done" {
			t.Fatalf("abort while awaiting approval: %s", got)
		}
		if ms[1].Str("/decision") != "deny_abort" || ms[1].Str("/call_id") != callID {
			t.Errorf("decision: %s", ms[1])
		}
		c.Send(map[string]any{"type": "approve", "call_id": callID})
		expectError(t, c, "APPROVAL_CONFLICT", "")
	})
}

func TestGetSnapshot(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _, _ := hello(t, srv, "")
	runID := send(t, c, "hi there")
	c.Until("turn_done")
	c.Send(map[string]any{"type": "get_snapshot", "req_id": "r-s"})
	bare := c.Expect("snapshot")
	if tr, _ := bare.Get("/transcript"); len(tr.([]any)) != 0 {
		t.Errorf("snapshot without include_transcript_window has a transcript: %s", bare)
	}
	if bare.Str("/req_id") != "r-s" || bare.Str("/run_state/run_id") != runID || bare.Str("/run_state/status") != "finished" {
		t.Errorf("snapshot: %s", bare)
	}
	if bare.Int("/event_id") != bare.Int("/session_state/last_event_id") || bare.Int("/event_id") != bare.Int("/run_state/last_event_id") {
		t.Errorf("snapshot event ids disagree: %s", bare)
	}
	if v, _ := bare.Get("/session_state/active_run_id"); v != nil || bare.Int("/session_state/run_counter") != 1 {
		t.Errorf("idle session state: %s", bare)
	}
	c.Send(map[string]any{"type": "get_snapshot", "include_transcript_window": true})
	full := c.Expect("snapshot")
	tr, _ := full.Get("/transcript")
	got, _ := json.Marshal(tr)
	if want := `[{"text":"hi there","type":"user_text"},{"text":"Echo: hi there","type":"assistant_text"}]`; string(got) != want {
		t.Errorf("transcript %s, want %s", got, want)
	}
}

func TestSnapshotDuringRun(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _, _ := hello(t, srv, "")
	runID := send(t, c, "/tool ls")
	untilStatus(t, c, "awaiting_approval")
	c.Send(map[string]any{"type": "get_snapshot", "include_transcript_window": true})
	s := c.Expect("snapshot")
	if s.Str("/session_state/active_run_id") != runID || s.Str("/run_state/status") != "awaiting_approval" || !s.Has("/run_state/pending_approvals/0/call_id") {
		t.Errorf("snapshot during approval: %s", s)
	}
	if s.Str("/transcript/1/type") != "tool_call" || s.Str("/transcript/1/name") != "ls" {
		t.Errorf("transcript: %s", s)
	}
}

func TestPing(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c := srv.Dial(t, "/ws")
	c.Send(map[string]any{"type": "ping", "nonce": "n-1"})
	if m := c.Next(); m.Type != "accepted" || m.Str("/req_id") != "n-1" {
		t.Errorf("ping before hello with nonce: %s", m)
	}
	hello(t, srv, "")
	c.Send(map[string]any{"type": "ping", "nonce": "n-2", "req_id": "r-2"})
	if m := c.Next(); m.Type != "accepted" || m.Str("/req_id") != "r-2" {
		t.Errorf("ping with req_id: %s", m)
	}
	c.Send(map[string]any{"type": "ping"})
	if m := c.Next(); m.Type != "accepted" || m.Has("/req_id") {
		t.Errorf("bare ping: %s", m)
	}
}

func TestHeartbeat(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{Heartbeat: 10 * time.Millisecond})
	// Not hello(), which wants welcome first: heartbeats start with the
	// connection, and under load one can come before the welcome.
	c := srv.Dial(t, "/ws")
	c.Send(map[string]any{"type": "hello", "v": "1.0.0"})
	c.Expect("welcome")
	for i := 0; i < 2; i++ {
		if m := c.Expect("heartbeat"); m.Int("/interval_ms") != 10 {
			t.Errorf("heartbeat: %s", m)
		}
	}
}

func TestDuplicateClientMsgID(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _, _ := hello(t, srv, "")
	msg := map[string]any{"type": "send", "text": "/slow 5", "client_msg_id": "m-1", "req_id": "a"}
	c.Send(msg)
	runID := c.Expect("accepted").Str("/run_id")
	c.Expect("user_text")
	// The same client_msg_id within the run: acknowledged, not BUSY, no new run.
	msg["req_id"] = "b"
	c.Send(msg)
	if m := c.Expect("accepted"); m.Str("/req_id") != "b" || m.Str("/run_id") != runID {
		t.Errorf("duplicate send answered %s", m)
	}
	ms := c.Until("turn_done")
	for _, m := range ms {
		if m.Type == "user_text" || m.Type == "error" {
			t.Errorf("duplicate send produced %s", m)
		}
	}
	// After the run, too: a late retry starts nothing.
	msg["req_id"] = "c"
	c.Send(msg)
	if m := c.Next(); m.Type != "accepted" || m.Str("/run_id") != runID {
		t.Errorf("late duplicate answered %s", m)
	}
	if ms := barrier(t, c, "p"); len(ms) != 0 {
		t.Errorf("late duplicate produced %s", types(ms))
	}
	// A send that is not BUSY with another client_msg_id still starts runs.
	c.Send(map[string]any{"type": "send", "text": "x", "client_msg_id": "m-2"})
	if m := c.Expect("accepted"); m.Str("/run_id") == runID {
		t.Errorf("new client_msg_id reused the run: %s", m)
	}
	c.Until("turn_done")
}
