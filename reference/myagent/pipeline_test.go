package myagent_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/reference/server"
)

func TestConnected(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c := srv.Dial(t, "/ws")
	m := c.Next()
	if m.Type != "system.connected" || m.Str("/content/server_version") == "" || !m.Has("/content/capabilities/0") ||
		m.Str("/connection_id") == "" || m.Has("/seq") || m.Str("/timestamp") == "" {
		t.Fatalf("system.connected = %s", m.Raw)
	}
}

// TestPipeline drives user.message through plan → solve → aggregate for
// each kind of script that needs no answer.
func TestPipeline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text   string
		middle []string // events between solver.start and solver.completed
		final  string
	}{
		{"hello there", []string{"agent.thinking", "agent.partial_answer", "agent.partial_answer", "agent.partial_answer"}, "Echo: hello there"},
		{"/think step by step", []string{"agent.thinking", "agent.thinking", "agent.thinking", "agent.partial_answer", "agent.partial_answer"}, "Done thinking."},
		{"/exec read {\"path\":\"a\"}", []string{"agent.thinking", "agent.tool_call", "agent.tool_result", "agent.partial_answer", "agent.partial_answer", "agent.partial_answer"}, "Tool read finished."},
		{"/stream 3", []string{"agent.thinking", "agent.partial_answer", "agent.partial_answer", "agent.partial_answer"}, "chunk 1 of 3. chunk 2 of 3. chunk 3 of 3. "},
		{"/slow 2", []string{"agent.thinking", "agent.partial_answer", "agent.partial_answer"}, "chunk 1 of 2. chunk 2 of 2. "},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			srv := start(t, server.Config{})
			c := dial(t, srv)
			id := session(t, c)
			c.Send(ev("user.message", "session_id", id, "content", tt.text))
			msgs := c.Until("agent.final_answer")
			want := append([]string{"plan.start", "plan.completed", "solver.start"}, tt.middle...)
			want = append(want, "solver.completed", "aggregate.start", "aggregate.completed", "pipeline.completed", "agent.final_answer")
			sameTypes(t, msgs, want...)
			increasing(t, msgs)
			if msgs[0].Int("/seq") != 2 {
				t.Errorf("plan.start seq %d, want 2 (after agent.session_created)", msgs[0].Int("/seq"))
			}
			for _, m := range msgs {
				if m.Str("/session_id") != id || m.Has("/connection_id") {
					t.Errorf("session event without the session_id, or with a connection_id: %s", m.Raw)
				}
			}
			if got := msgs[len(msgs)-1].Str("/content"); got != tt.final {
				t.Errorf("final answer %q, want %q", got, tt.final)
			}
			if q := msgs[0].Str("/content/question"); q != tt.text {
				t.Errorf("plan.start question %q", q)
			}
			if n := msgs[1].Int("/metadata/task_count"); n != 1 {
				t.Errorf("plan.completed task_count %d", n)
			}
			var streamed strings.Builder
			for _, m := range msgs {
				if m.Type == "agent.partial_answer" {
					streamed.WriteString(m.Str("/content"))
				}
			}
			if streamed.String() != tt.final {
				t.Errorf("partial answers %q, want %q", streamed.String(), tt.final)
			}
		})
	}
}

// TestMessageStartsSession: user.message on a connection without a
// session creates one, announced first.
func TestMessageStartsSession(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c := dial(t, srv)
	c.Send(ev("user.message", "content", map[string]any{"text": "hi"}))
	msgs := c.Until("agent.final_answer")
	if msgs[0].Type != "agent.session_created" || msgs[0].Int("/seq") != 1 || msgs[1].Type != "plan.start" {
		t.Fatalf("events %v", types(msgs))
	}
	if msgs[len(msgs)-1].Str("/content") != "Echo: hi" {
		t.Fatalf("final %s", msgs[len(msgs)-1].Raw)
	}
}

func TestToolConfirmation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		approved bool
		middle   []string
		final    string
	}{
		{"approved", true, []string{"agent.tool_call", "agent.tool_result", "agent.partial_answer", "agent.partial_answer", "agent.partial_answer"}, "Tool shell finished."},
		{"denied", false, []string{"agent.partial_answer", "agent.partial_answer", "agent.partial_answer", "agent.partial_answer", "agent.partial_answer", "agent.partial_answer", "agent.partial_answer"}, "Tool shell was denied; continuing without it."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := start(t, server.Config{})
			c := dial(t, srv)
			id := session(t, c)
			c.Send(ev("user.message", "session_id", id, "content", `/tool shell {"cmd":"ls"}`))
			msgs := c.Until("agent.user_confirm")
			sameTypes(t, msgs, "plan.start", "plan.completed", "solver.start", "agent.thinking", "agent.user_confirm")
			confirm := msgs[len(msgs)-1]
			step := confirm.Str("/step_id")
			if step == "" || confirm.Str("/metadata/scope") != "tool" || confirm.Str("/metadata/tool") != "shell" ||
				confirm.Str("/metadata/params/cmd") != "ls" {
				t.Fatalf("agent.user_confirm = %s", confirm.Raw)
			}
			c.Send(ev("user.response", "session_id", id, "step_id", step, "content", map[string]any{"approved": tt.approved}))
			rest := c.Until("agent.final_answer")
			want := append(tt.middle, "solver.completed", "aggregate.start", "aggregate.completed", "pipeline.completed", "agent.final_answer")
			sameTypes(t, rest, want...)
			increasing(t, append(msgs, rest...))
			if got := rest[len(rest)-1].Str("/content"); got != tt.final {
				t.Errorf("final %q, want %q", got, tt.final)
			}
			// The step is answered: answering again is refused.
			c.Send(ev("user.response", "session_id", id, "step_id", step, "content", map[string]any{"approved": true}))
			expectError(t, c, "error.validation", "STEP_CLOSED")
		})
	}
}

func TestAskConfirmation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text    string
		content map[string]any
		final   string
	}{
		{"/ask Proceed?", map[string]any{"approved": true}, "You answered: yes"},
		{"/ask Proceed?", map[string]any{"approved": false}, "You answered: no"},
		{"/ask select Pick a colour", map[string]any{"answer": "blue"}, "You answered: blue"},
		{"/ask multiselect Pick colours", map[string]any{"answer": []string{"red", "green"}}, "You answered: red, green"},
	}
	for _, tt := range tests {
		t.Run(tt.final, func(t *testing.T) {
			t.Parallel()
			srv := start(t, server.Config{})
			c := dial(t, srv)
			id := session(t, c)
			c.Send(ev("user.message", "session_id", id, "content", tt.text))
			q := c.Expect("agent.user_confirm")
			if q.Str("/metadata/scope") != "question" || q.Str("/content") == "" {
				t.Fatalf("question = %s", q.Raw)
			}
			c.Send(ev("user.response", "step_id", q.Str("/step_id"), "content", tt.content))
			rest := c.Until("agent.final_answer")
			if got := rest[len(rest)-1].Str("/content"); got != tt.final {
				t.Errorf("final %q, want %q", got, tt.final)
			}
		})
	}
}

// TestCancel: user.cancel stops the running pipeline with the stage's
// cancellation event and agent.interrupted, whether it streams or waits
// for a confirmation; the session is idle afterwards.
func TestCancel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, waitFor string
	}{
		{"/slow 200", "agent.partial_answer"},
		{"/tool rm", "agent.user_confirm"},
		{"/ask Sure?", "agent.user_confirm"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			srv := start(t, server.Config{})
			c := dial(t, srv)
			id := session(t, c)
			c.Send(ev("user.message", "session_id", id, "content", tt.text))
			w := c.Expect(tt.waitFor)
			c.Send(ev("user.cancel", "session_id", id))
			msgs := c.Until("agent.interrupted")
			tail := types(msgs[len(msgs)-2:])
			if !slices.Equal(tail, []string{"solver.cancelled", "agent.interrupted"}) || slices.Contains(types(msgs), "agent.final_answer") {
				t.Fatalf("events after cancel %v", types(msgs))
			}
			if msgs[len(msgs)-2].Int("/content/task/id") != 1 {
				t.Errorf("solver.cancelled = %s", msgs[len(msgs)-2].Raw)
			}
			c.Send(ev("user.request_state"))
			st := c.Expect("agent.state_exported")
			if st.Str("/metadata/state/status") != "idle" || st.Str("/metadata/state/tasks/0/status") != "cancelled" {
				t.Errorf("state after cancel = %s", st.Raw)
			}
			if step := w.Str("/step_id"); step != "" {
				c.Send(ev("user.response", "step_id", step, "content", map[string]any{"approved": true}))
				m := expectError(t, c, "error.validation", "STEP_CLOSED")
				if m.Str("/metadata/step_status") != "cancelled" {
					t.Errorf("late answer = %s", m.Raw)
				}
			}
			c.Send(ev("user.cancel"))
			expectError(t, c, "error.validation", "NO_ACTIVE_RUN")
			// The session goes on.
			c.Send(ev("user.message", "content", "again"))
			if got := c.Until("agent.final_answer"); got[len(got)-1].Str("/content") != "Echo: again" {
				t.Fatalf("after cancel: %v", types(got))
			}
		})
	}
}

// TestSolveTasks: user.solve_tasks skips planning and solves each task in
// order; user.cancel_task cancels a running or a pending task.
func TestSolveTasks(t *testing.T) {
	t.Parallel()
	t.Run("all tasks", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		c := dial(t, srv)
		c.Send(ev("user.solve_tasks", "content", map[string]any{"tasks": []any{
			"hello", map[string]any{"id": 9, "title": "Read", "description": "/exec read"}}}))
		msgs := c.Until("agent.final_answer")
		sameTypes(t, msgs, "agent.session_created",
			"solver.start", "agent.thinking", "agent.partial_answer", "agent.partial_answer", "solver.completed",
			"solver.start", "agent.thinking", "agent.tool_call", "agent.tool_result", "agent.partial_answer", "agent.partial_answer", "agent.partial_answer", "solver.completed",
			"aggregate.start", "aggregate.completed", "pipeline.completed", "agent.final_answer")
		if msgs[6].Int("/content/task/id") != 2 || msgs[6].Str("/content/task/title") != "Read" {
			t.Errorf("second solver.start = %s", msgs[6].Raw)
		}
		if got := msgs[len(msgs)-1].Str("/content"); got != "Echo: hello\n\nTool read finished." {
			t.Errorf("final %q", got)
		}
	})
	t.Run("cancel the running task", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		c := dial(t, srv)
		c.Send(ev("user.solve_tasks", "content", map[string]any{"tasks": []any{"/slow 200", "hello"}}))
		c.Expect("agent.partial_answer")
		c.Send(ev("user.cancel_task", "content", map[string]any{"task_id": 1}))
		c.Expect("solver.cancelled")
		msgs := c.Until("agent.final_answer")
		if msgs[0].Type != "solver.start" || msgs[0].Int("/content/task/id") != 2 {
			t.Fatalf("after cancel_task: %v", types(msgs))
		}
		if got := msgs[len(msgs)-1].Str("/content"); got != "Echo: hello" {
			t.Errorf("final %q", got)
		}
		c.Send(ev("user.cancel_task", "task_id", 1))
		expectError(t, c, "error.validation", "NO_ACTIVE_RUN")
	})
	t.Run("cancel a pending task", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		c := dial(t, srv)
		c.Send(ev("user.solve_tasks", "content", map[string]any{"tasks": []any{"/tool x", "hello"}}))
		q := c.Expect("agent.user_confirm")
		c.Send(ev("user.cancel_task", "task_id", "task_2"))
		c.Send(ev("user.cancel_task", "task_id", 7))
		expectError(t, c, "error.validation", "UNKNOWN_TASK")
		c.Send(ev("user.cancel_task", "task_id", 2))
		expectError(t, c, "error.validation", "TASK_STATE")
		c.Send(ev("user.response", "step_id", q.Str("/step_id"), "content", map[string]any{"approved": true}))
		msgs := c.Until("agent.final_answer")
		i := slices.Index(types(msgs), "solver.cancelled")
		if i < 0 || msgs[i].Int("/content/task/id") != 2 || msgs[i-1].Type != "solver.completed" || msgs[i+1].Type != "aggregate.start" {
			t.Fatalf("events %v", types(msgs))
		}
	})
}

// TestFailAndRestart: /fail ends the run with error.execution; the failed
// task can be restarted (solver.restarted) and fails again, as scripted.
func TestFailAndRestart(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c := dial(t, srv)
	id := session(t, c)
	c.Send(ev("user.message", "session_id", id, "content", "/fail boom"))
	msgs := c.Until("error.execution")
	sameTypes(t, msgs, "plan.start", "plan.completed", "solver.start", "agent.thinking", "agent.partial_answer", "agent.partial_answer", "agent.partial_answer", "error.execution")
	if e := msgs[len(msgs)-1]; e.Str("/content") != "boom" || e.Int("/metadata/task_id") != 1 || !e.Has("/seq") {
		t.Fatalf("error.execution = %s", e.Raw)
	}
	c.Send(ev("user.restart_task", "task_id", 1))
	again := c.Until("error.execution")
	if again[0].Type != "solver.restarted" || again[0].Int("/metadata/retry_count") != 1 || again[1].Type != "solver.start" {
		t.Fatalf("restart: %v", types(again))
	}
	c.Send(ev("user.message", "content", "ok"))
	c.Until("agent.final_answer")
	c.Send(ev("user.restart_task", "task_id", 1))
	expectError(t, c, "error.validation", "TASK_STATE")
	c.Send(ev("user.message", "content", "/slow 200"))
	c.Expect("agent.partial_answer")
	c.Send(ev("user.restart_task", "task_id", 1))
	expectError(t, c, "error.validation", "RUN_IN_PROGRESS")
	c.Send(ev("user.message", "content", "two at once"))
	expectError(t, c, "error.validation", "RUN_IN_PROGRESS")
	c.Send(ev("user.cancel"))
	c.Until("agent.interrupted")
}

// TestConfirmationTimeout: an unanswered confirmation ends the task with
// error.timeout after Config.PromptTimeout.
func TestConfirmationTimeout(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{PromptTimeout: 30 * time.Millisecond})
	c := dial(t, srv)
	c.Send(ev("user.message", "content", "/tool slow"))
	q := c.Expect("agent.user_confirm")
	m := c.Expect("error.timeout")
	if m.Str("/metadata/step_id") != q.Str("/step_id") || !m.Has("/seq") {
		t.Fatalf("error.timeout = %s", m.Raw)
	}
	c.Send(ev("user.response", "step_id", q.Str("/step_id"), "content", map[string]any{"approved": true}))
	if e := expectError(t, c, "error.validation", "STEP_CLOSED"); e.Str("/metadata/step_status") != "timed_out" {
		t.Fatalf("late answer = %s", e.Raw)
	}
	c.Send(ev("user.restart_task", "task_id", 1))
	c.Expect("solver.restarted")
	c.Expect("agent.user_confirm")
	c.Expect("error.timeout")
}

func TestHeartbeat(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{Heartbeat: 10 * time.Millisecond})
	c := dial(t, srv)
	m := c.Expect("system.heartbeat")
	if m.Str("/content/timestamp") == "" || m.Has("/seq") || m.Str("/connection_id") == "" {
		t.Fatalf("heartbeat = %s", m.Raw)
	}
	c.Expect("system.heartbeat")
}
