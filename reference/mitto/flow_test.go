package mitto_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

func TestConnected(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c := srv.Dial(t, "/ws")
	m := c.Expect("connected")
	if m.Str("/data/session_id") == "" || m.Str("/data/client_id") == "" || m.Str("/data/acp_server") == "" {
		t.Fatalf("connected lacks ids: %s", m)
	}
	if !boolAt(t, m, "/data/is_running") || m.Has("/data/last_user_prompt_id") {
		t.Fatalf("fresh session: want is_running and no last prompt: %s", m)
	}
	// A second connection to the same session joins it with its own client_id.
	c2, m2 := join(t, srv, m.Str("/data/session_id"))
	if m2.Str("/data/session_id") != m.Str("/data/session_id") || m2.Str("/data/client_id") == m.Str("/data/client_id") {
		t.Fatalf("second client: %s after %s", m2, m)
	}
	c2.Close()
	// Without session_id every connection is a new session.
	_, m3 := join(t, srv, "other")
	if m3.Str("/data/session_id") != "other" {
		t.Fatalf("session_id not taken from the query: %s", m3)
	}
}

func TestPromptEcho(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, conn := join(t, srv, "s")
	c.Send(prompt("p1", "hello <there> & you"))
	ack := c.Expect("prompt_received")
	if ack.Str("/data/prompt_id") != "p1" {
		t.Fatalf("prompt_received: %s", ack)
	}
	up := c.Next()
	if up.Type != "user_prompt" || up.Int("/data/seq") != 1 || up.Int("/data/max_seq") != 1 ||
		up.Str("/data/sender_id") != conn.Str("/data/client_id") || up.Str("/data/prompt_id") != "p1" ||
		up.Str("/data/message") != "hello <there> & you" || !boolAt(t, up, "/data/is_mine") {
		t.Fatalf("user_prompt: %s", up)
	}
	msgs := c.Until("prompt_complete")
	if got := reply(msgs); got != "Echo: hello <there> & you" {
		t.Fatalf("reply %q", got)
	}
	seqs := liveSeqs(msgs)
	for i, s := range seqs {
		m := msgs[i]
		if s != int64(i+2) || m.Int("/data/max_seq") != s || !boolAt(t, m, "/data/is_prompting") {
			t.Fatalf("event %d: %s", i, m)
		}
	}
	done := msgs[len(msgs)-1]
	last := seqs[len(seqs)-1]
	if done.Int("/data/max_seq") != last || done.Int("/data/event_count") != last {
		t.Fatalf("prompt_complete %s after seq %d", done, last)
	}
	// connected on a later connection names the last prompt.
	_, again := join(t, srv, "s")
	if again.Str("/data/last_user_prompt_id") != "p1" || again.Int("/data/last_user_prompt_seq") != 1 {
		t.Fatalf("connected after a prompt: %s", again)
	}
}

func TestThinkAndExec(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _ := join(t, srv, "s")
	msgs := ask(c, "p1", "/think step by step", "prompt_complete")
	want := []string{"prompt_received", "user_prompt", "agent_thought", "agent_thought", "agent_thought", "agent_message", "agent_message", "prompt_complete"}
	if !slices.Equal(types(msgs), want) {
		t.Fatalf("think: %v, want %v", types(msgs), want)
	}
	if msgs[2].Str("/data/text")+msgs[3].Str("/data/text")+msgs[4].Str("/data/text") != "step by step" {
		t.Fatalf("thoughts: %v", msgs[2:5])
	}
	msgs = ask(c, "p2", `/exec read {"path":"a.go"}`, "prompt_complete")
	want = []string{"prompt_received", "user_prompt", "tool_call", "tool_update", "tool_update", "agent_message", "agent_message", "agent_message", "prompt_complete"}
	if !slices.Equal(types(msgs), want) {
		t.Fatalf("exec: %v, want %v", types(msgs), want)
	}
	call, up1, up2 := msgs[2], msgs[3], msgs[4]
	id := call.Str("/data/id")
	if call.Str("/data/status") != "pending" || call.Str("/data/title") != `read {"path":"a.go"}` ||
		up1.Str("/data/id") != id || up1.Str("/data/status") != "in_progress" ||
		up2.Str("/data/id") != id || up2.Str("/data/status") != "completed" {
		t.Fatalf("tool events: %v", msgs[2:5])
	}
	if reply(msgs) != "Tool read finished." {
		t.Fatalf("reply %q", reply(msgs))
	}
}

func TestToolApproval(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply func(req string) map[string]any
		allow bool
	}{
		{"ui_prompt_answer allow", func(r string) map[string]any { return answer(r, "allow_once") }, true},
		{"ui_prompt_answer deny", func(r string) map[string]any { return answer(r, "reject_once") }, false},
		{"legacy approved", func(r string) map[string]any {
			return frame("permission_answer", map[string]any{"request_id": r, "approved": true})
		}, true},
		{"legacy denied", func(r string) map[string]any {
			return frame("permission_answer", map[string]any{"request_id": r, "approved": false})
		}, false},
		{"real mitto option_id", func(r string) map[string]any {
			return frame("permission_answer", map[string]any{"request_id": r, "option_id": "allow_once"})
		}, true},
		{"real mitto cancel", func(r string) map[string]any {
			return frame("permission_answer", map[string]any{"request_id": r, "cancel": true})
		}, false},
	}
	srv := start(t, server.Config{})
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, _ := join(t, srv, "tool-"+string(rune('a'+i)))
			c.Send(prompt("p1", `/tool shell {"cmd":"ls"}`))
			call := c.Expect("tool_call")
			p := c.Expect("ui_prompt")
			if p.Str("/data/prompt_type") != "permission" || !boolAt(t, p, "/data/blocking") ||
				p.Str("/data/tool_call_id") != call.Str("/data/id") || p.Str("/data/options/0/id") != "allow_once" ||
				p.Str("/data/options/1/id") != "reject_once" || p.Int("/data/timeout_seconds") != 300 {
				t.Fatalf("permission prompt: %s", p)
			}
			c.Send(tt.reply(p.Str("/data/request_id")))
			msgs := c.Until("prompt_complete")
			got := types(msgs)
			want := []string{"tool_update", "agent_message"}
			status := "failed"
			if tt.allow {
				want = []string{"tool_update", "tool_update", "agent_message"}
				status = "completed"
			}
			if !slices.Equal(got[:len(want)], want) || msgs[len(want)-2].Str("/data/status") != status {
				t.Fatalf("after answer: %v", msgs)
			}
			if tt.allow != strings.HasSuffix(reply(msgs), "finished.") {
				t.Fatalf("reply %q", reply(msgs))
			}
		})
	}
}

func TestUIPromptTypes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, typ string
		options   int
		answer    map[string]any // data members besides request_id
		reply     string
	}{
		{"/ask Proceed?", "yes_no", 2, map[string]any{"option_id": "yes", "label": "Yes"}, "You answered: Yes"},
		{"/ask yes_no Sure?", "yes_no", 2, map[string]any{"option_id": "no", "label": "No"}, "You answered: No"},
		{"/ask select Pick a colour", "select", 3, map[string]any{"option_id": "green", "label": "Green"}, "You answered: Green"},
		{"/ask multiselect Which ones?", "options_buttons", 3, map[string]any{"option_id": "red", "label": "Red"}, "You answered: Red"},
		{"/ask options_buttons Which one?", "options_buttons", 3, map[string]any{"option_id": "blue", "label": "Blue"}, "You answered: Blue"},
		{"/ask text Your name?", "options_buttons", 2, map[string]any{"option_id": "submit", "label": "Submit", "free_text": "Ada"}, "You answered: Ada"},
		{"/ask permission Delete it?", "permission", 2, map[string]any{"option_id": "allow_once", "label": "Allow"}, "You answered: Allow"},
	}
	srv := start(t, server.Config{})
	for i, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			c, _ := join(t, srv, "ask-"+string(rune('a'+i)))
			c.Send(prompt("p1", tt.text))
			p := c.Expect("ui_prompt")
			opts, _ := p.Get("/data/options")
			if p.Str("/data/prompt_type") != tt.typ || len(opts.([]any)) != tt.options || !boolAt(t, p, "/data/blocking") || p.Str("/data/question") == "" {
				t.Fatalf("ui_prompt for %q: %s", tt.text, p)
			}
			data := map[string]any{"request_id": p.Str("/data/request_id")}
			for k, v := range tt.answer {
				data[k] = v
			}
			c.Send(frame("ui_prompt_answer", data))
			if got := reply(c.Until("prompt_complete")); got != tt.reply {
				t.Fatalf("reply %q, want %q", got, tt.reply)
			}
		})
	}
}

// action_buttons are non-blocking hints: the turn does not wait, an answer
// closes them, and the next turn dismisses one left open.
func TestActionButtons(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	a, _ := join(t, srv, "hints")
	b, _ := join(t, srv, "hints")
	msgs := ask(a, "p1", "/ask action_buttons What next?", "prompt_complete")
	p := msgs[2]
	if p.Type != "ui_prompt" || p.Str("/data/prompt_type") != "action_buttons" || boolAt(t, p, "/data/blocking") || p.Has("/data/timeout_seconds") {
		t.Fatalf("hint prompt: %v", msgs)
	}
	b.Until("prompt_complete")
	a.Send(answer(p.Str("/data/request_id"), "continue"))
	a.Send(keepalive())
	a.ExpectSeq("keepalive_ack") // no error, nothing else
	if d := b.Expect("ui_prompt_dismiss"); d.Str("/data/request_id") != p.Str("/data/request_id") {
		t.Fatalf("dismiss on the other client: %s", d)
	}
	// An unanswered hint is dismissed when the next turn starts.
	msgs = ask(a, "p2", "/ask action_buttons Again?", "prompt_complete")
	hint := msgs[2].Str("/data/request_id")
	a.Send(prompt("p3", "hi"))
	got := a.ExpectSeq("prompt_received", "ui_prompt_dismiss", "user_prompt")
	if got[1].Str("/data/request_id") != hint {
		t.Fatalf("dismissed %s, want %s", got[1], hint)
	}
	a.Until("prompt_complete")
}

func TestPromptTimeout(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{PromptTimeout: 30 * time.Millisecond})
	c, _ := join(t, srv, "s")
	msgs := ask(c, "p1", "/ask Still there?", "prompt_complete")
	p := msgs[2]
	if p.Type != "ui_prompt" || p.Int("/data/timeout_seconds") != 1 || msgs[3].Type != "ui_prompt_dismiss" ||
		msgs[3].Str("/data/request_id") != p.Str("/data/request_id") {
		t.Fatalf("question timeout: %v", msgs)
	}
	if reply(msgs) != "You answered: nothing (the question timed out)" {
		t.Fatalf("reply %q", reply(msgs))
	}
	msgs = ask(c, "p2", "/tool shell", "prompt_complete")
	want := []string{"prompt_received", "user_prompt", "tool_call", "ui_prompt", "ui_prompt_dismiss", "tool_update"}
	if !slices.Equal(types(msgs)[:len(want)], want) || msgs[5].Str("/data/status") != "failed" {
		t.Fatalf("permission timeout: %v", msgs)
	}
	// An answer after the timeout names no open prompt.
	c.Send(answer(msgs[3].Str("/data/request_id"), "allow_once"))
	expectError(t, c, "unknown_request")
}

func TestCancel(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	t.Run("mid-stream", func(t *testing.T) {
		t.Parallel()
		c, _ := join(t, srv, "cancel-stream")
		c.Send(prompt("p1", "/slow 50"))
		c.Expect("agent_message")
		c.Send(frame("cancel", map[string]any{}))
		msgs := c.Until("prompt_complete")
		if n := strings.Count(strings.Join(types(msgs), " "), "agent_message"); n > 48 {
			t.Fatalf("%d chunks after cancel", n)
		}
		c.Send(keepalive())
		if ack := c.Expect("keepalive_ack"); boolAt(t, ack, "/data/is_prompting") {
			t.Fatalf("still prompting after cancel: %s", ack)
		}
	})
	t.Run("question", func(t *testing.T) {
		t.Parallel()
		c, _ := join(t, srv, "cancel-ask")
		c.Send(prompt("p1", "/ask Sure?"))
		p := c.Expect("ui_prompt")
		c.Send(frame("cancel", map[string]any{}))
		got := c.ExpectSeq("ui_prompt_dismiss", "prompt_complete")
		if got[0].Str("/data/request_id") != p.Str("/data/request_id") {
			t.Fatalf("dismissed %s", got[0])
		}
	})
	t.Run("permission", func(t *testing.T) {
		t.Parallel()
		c, _ := join(t, srv, "cancel-tool")
		c.Send(prompt("p1", "/tool rm"))
		call := c.Expect("tool_call")
		c.Expect("ui_prompt")
		c.Send(frame("cancel", nil))
		got := c.ExpectSeq("ui_prompt_dismiss", "tool_update", "prompt_complete")
		if got[1].Str("/data/id") != call.Str("/data/id") || got[1].Str("/data/status") != "failed" {
			t.Fatalf("tool after cancel: %s", got[1])
		}
	})
	t.Run("idle", func(t *testing.T) {
		t.Parallel()
		c, _ := join(t, srv, "cancel-idle")
		c.Send(frame("cancel", map[string]any{}))
		expectError(t, c, "not_prompting")
	})
}

func TestFail(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _ := join(t, srv, "s")
	msgs := ask(c, "p1", "/fail boom", "prompt_complete")
	e := msgs[len(msgs)-2]
	if e.Type != "error" || e.Str("/data/code") != "agent_error" || e.Str("/data/message") != "boom" {
		t.Fatalf("failed turn: %v", msgs)
	}
	c.Send(keepalive())
	if ack := c.Expect("keepalive_ack"); ack.Str("/data/status") != "error" {
		t.Fatalf("status after failure: %s", ack)
	}
	ask(c, "p2", "hi", "prompt_complete")
	c.Send(keepalive())
	if ack := c.Expect("keepalive_ack"); ack.Str("/data/status") != "active" {
		t.Fatalf("status after success: %s", ack)
	}
}

func TestQueue(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _ := join(t, srv, "s")
	c.Send(prompt("p1", "/slow 100"))
	c.Expect("agent_message")
	for i := range 10 {
		id := "q" + string(rune('0'+i))
		c.Send(prompt(id, "queued "+id))
		if ack := c.Expect("prompt_received"); ack.Str("/data/prompt_id") != id {
			t.Fatalf("ack %s", ack)
		}
	}
	c.Send(prompt("q10", "one too many"))
	expectError(t, c, "queue_full")
	c.Send(keepalive())
	ack := c.Expect("keepalive_ack")
	if ack.Int("/data/queue_length") != 10 || !boolAt(t, ack, "/data/is_prompting") {
		t.Fatalf("keepalive_ack with a queue: %s", ack)
	}
	c.Send(frame("cancel", map[string]any{}))
	c.Expect("prompt_complete")
	// The queued prompts run in order, each with its user_prompt.
	for i := range 10 {
		up := c.Expect("user_prompt")
		if want := "q" + string(rune('0'+i)); up.Str("/data/prompt_id") != want || !boolAt(t, up, "/data/is_mine") {
			t.Fatalf("queued prompt %d: %s", i, up)
		}
		msgs := c.Until("prompt_complete")
		if reply(msgs) != "Echo: queued "+up.Str("/data/prompt_id") {
			t.Fatalf("reply %q", reply(msgs))
		}
	}
	c.Send(keepalive())
	if ack := c.Expect("keepalive_ack"); ack.Int("/data/queue_length") != 0 || boolAt(t, ack, "/data/is_prompting") {
		t.Fatalf("keepalive_ack after the queue: %s", ack)
	}
}

func TestDuplicatePromptID(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _ := join(t, srv, "s")
	ask(c, "p1", "hello", "prompt_complete")
	c.Send(prompt("p1", "hello"))
	c.Send(keepalive())
	got := c.ExpectSeq("prompt_received", "keepalive_ack")
	if got[0].Str("/data/prompt_id") != "p1" || got[1].Int("/data/max_seq") != 3 {
		t.Fatalf("resent prompt: %v", got)
	}
}

func TestKeepalive(t *testing.T) {
	t.Parallel()
	fixed := time.Date(2024, 6, 10, 6, 13, 20, 0, time.UTC)
	srv := start(t, server.Config{Now: func() time.Time { return fixed }})
	c, _ := join(t, srv, "s")
	c.Send(keepalive())
	ack := c.Expect("keepalive_ack")
	want := `{"type":"keepalive_ack","data":{"client_time":1718000000123,"server_time":1717999999999,"max_seq":0,"is_prompting":false,"is_running":true,"queue_length":0,"status":"active"}}`
	want = strings.Replace(want, "1717999999999", itoa(fixed.UnixMilli()), 1)
	if string(ack.Raw) != want {
		t.Fatalf("keepalive_ack\n got %s\nwant %s", ack.Raw, want)
	}
	c.Send(prompt("p1", "/slow 3"))
	c.Expect("agent_message")
	c.Send(frame("keepalive", map[string]any{"client_time": 1.5}))
	ack = c.Expect("keepalive_ack")
	if !boolAt(t, ack, "/data/is_prompting") || ack.Int("/data/max_seq") < 2 || mustGet(t, ack, "/data/client_time") != "1.5" {
		t.Fatalf("keepalive_ack while prompting: %s", ack)
	}
	c.Until("prompt_complete")
}

func TestRename(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _ := join(t, srv, "s")
	c.Send(frame("rename_session", map[string]any{"name": "  Parser tests  "}))
	c.Send(keepalive())
	if ack := c.Expect("keepalive_ack"); ack.Str("/data/name") != "Parser tests" {
		t.Fatalf("name after rename: %s", ack)
	}
	if _, m := join(t, srv, "s"); m.Str("/data/name") != "Parser tests" {
		t.Fatalf("connected after rename: %s", m)
	}
	c.Send(frame("rename_session", map[string]any{"name": "   "}))
	expectError(t, c, "invalid_message")
	c.Send(frame("rename_session", map[string]any{"name": strings.Repeat("x", 257)}))
	expectError(t, c, "invalid_message")
}

// A legacy client gets permission requests as the legacy permission
// message and answers with permission_answer; a modern client of the same
// session sees the ui_prompt and its dismissal.
func TestLegacyPermission(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	old := srv.Dial(t, "/ws?session_id=s&legacy=1", reftest.Group("s"))
	old.Expect("connected")
	modern, _ := join(t, srv, "s")
	old.Send(prompt("p1", "/tool shell"))
	perm := old.Expect("permission")
	up := modern.Expect("ui_prompt")
	req := perm.Str("/data/request_id")
	if up.Str("/data/request_id") != req || perm.Str("/data/title") == "" || perm.Str("/data/description") == "" || perm.Str("/data/options/0/id") != "allow_once" {
		t.Fatalf("legacy %s vs modern %s", perm, up)
	}
	old.Send(frame("permission_answer", map[string]any{"request_id": req, "approved": true}))
	if d := modern.Expect("ui_prompt_dismiss"); d.Str("/data/request_id") != req {
		t.Fatalf("dismiss %s", d)
	}
	msgs := old.Until("prompt_complete")
	if reply(msgs) != "Tool shell finished." {
		t.Fatalf("reply %q", reply(msgs))
	}
	modern.Until("prompt_complete")
}

func TestWrongAnswers(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _ := join(t, srv, "s")
	c.Send(prompt("p1", "/ask select Pick"))
	p := c.Expect("ui_prompt")
	req := p.Str("/data/request_id")
	c.Send(answer(req, "purple"))
	expectError(t, c, "invalid_option")
	c.Send(frame("permission_answer", map[string]any{"request_id": req, "approved": true}))
	expectError(t, c, "invalid_message")
	c.Send(answer("req-999", "red"))
	expectError(t, c, "unknown_request")
	// The prompt is still open and answerable.
	c.Send(answer(req, "red"))
	if got := reply(c.Until("prompt_complete")); got != "You answered: Red" {
		t.Fatalf("reply %q", got)
	}
	c.Send(answer(req, "red"))
	expectError(t, c, "unknown_request")
}
