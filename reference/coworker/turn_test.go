package coworker_test

import (
	"testing"
)

func TestHandshake(t *testing.T) {
	t.Parallel()
	srv := start(t)
	c := srv.Dial(t, "/ws")
	msgs := c.ExpectSeq("server_hello", "session_settings", "observability_status")
	hello := msgs[0]
	if hello.Str("/protocolVersion") != "3.0" || hello.Str("/capabilities/modelStreamChunk") != "v1" {
		t.Fatalf("server_hello: %s", hello)
	}
	if hello.Str("/config/provider") != "openai" || hello.Str("/config/model") != "gpt-5.2" || hello.Str("/config/workingDirectory") == "" {
		t.Fatalf("server_hello config: %s", hello)
	}
	id := hello.Str("/sessionId")
	for _, m := range msgs[1:] {
		if m.Str("/sessionId") != id {
			t.Fatalf("%s carries another sessionId: %s", m.Type, m)
		}
	}
	if !isTrue(msgs[1], "/enableMcp") || !isTrue(msgs[2], "/enabled") {
		t.Fatalf("settings/observability: %s %s", msgs[1], msgs[2])
	}
	// client_hello is silently acknowledged: the next answer is the pong.
	s := session{Client: c, id: id}
	c.Send(map[string]any{"type": "client_hello", "client": "reftest", "version": "0.1.0"})
	s.alive(t)
}

func TestTurns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		text      string
		parts     []string
		reply     string
		reasoning string
		extra     []string // other types the turn must carry
	}{
		{name: "echo", text: "hello world",
			parts: []string{"start", "start_step", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "finish_step", "finish"},
			reply: "Echo: hello world"},
		{name: "stream", text: "/stream 3",
			parts: []string{"start", "start_step", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "finish_step", "finish"},
			reply: "chunk 1 of 3. chunk 2 of 3. chunk 3 of 3. "},
		{name: "think", text: "/think deep thought",
			parts: []string{"start", "start_step", "reasoning_start", "reasoning_delta", "reasoning_delta", "reasoning_end",
				"text_start", "text_delta", "text_delta", "text_end", "finish_step", "finish"},
			reply: "Done thinking.", reasoning: "deep thought", extra: []string{"reasoning"}},
		{name: "exec needs no approval", text: `/exec bash {"command":"ls"}`,
			parts: []string{"start", "start_step", "tool_input_start", "tool_input_delta", "tool_input_end", "tool_call",
				"tool_result", "finish_step", "start_step", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "finish_step", "finish"},
			reply: "Tool bash finished.", extra: []string{"todos", "log"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := connect(t, start(t))
			s.send("user_message", "text", tt.text, "clientMessageId", "cm-1")
			first := s.ExpectSeq("user_message", "session_busy")
			if first[0].Str("/text") != tt.text || first[0].Str("/clientMessageId") != "cm-1" || !isTrue(first[1], "/busy") {
				t.Fatalf("echo/busy: %s %s", first[0], first[1])
			}
			msgs := s.idle(t)
			requireIndexes(t, msgs)
			if _, parts := chunks(msgs); !equal(parts, tt.parts) {
				t.Fatalf("parts %v, want %v", parts, tt.parts)
			}
			if got := streamed(msgs, "text_delta"); got != tt.reply {
				t.Fatalf("streamed %q, want %q", got, tt.reply)
			}
			if got := streamed(msgs, "reasoning_delta"); got != tt.reasoning {
				t.Fatalf("reasoning %q, want %q", got, tt.reasoning)
			}
			am, ok := find(msgs, "assistant_message")
			if !ok || am.Str("/text") != tt.reply {
				t.Fatalf("assistant_message %s, want text %q", am, tt.reply)
			}
			if r, ok := find(msgs, "reasoning"); tt.reasoning != "" && (!ok || r.Str("/text") != tt.reasoning || r.Str("/kind") != "reasoning") {
				t.Fatalf("legacy reasoning: %s", r)
			}
			for _, typ := range append(tt.extra, "session_backup_state") {
				if _, ok := find(msgs, typ); !ok {
					t.Fatalf("no %s in %v", typ, types(msgs))
				}
			}
			cp, _ := find(msgs, "session_backup_state")
			if cp.Str("/reason") != "auto_checkpoint" || cp.Str("/backup/checkpoints/0/trigger") != "auto" {
				t.Fatalf("automatic checkpoint: %s", cp)
			}
			// The session takes the next message.
			s.send("user_message", "text", "again")
			s.Expect("user_message")
			s.idle(t)
		})
	}
}

func TestApproval(t *testing.T) {
	t.Parallel()
	for _, approve := range []bool{true, false} {
		name := map[bool]string{true: "approved", false: "denied"}[approve]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := connect(t, start(t))
			s.send("user_message", "text", `/tool bash {"command":"rm -rf /tmp/old-builds"}`)
			ap := s.Expect("approval")
			if ap.Str("/command") != "rm -rf /tmp/old-builds" || !isTrue(ap, "/dangerous") || ap.Str("/reasonCode") != "matches_dangerous_pattern" {
				t.Fatalf("approval: %s", ap)
			}
			s.send("approval_response", "requestId", ap.Str("/requestId"), "approved", approve)
			msgs := s.idle(t)
			requireIndexes(t, msgs)
			_, parts := chunks(msgs)
			want, reply := "tool_result", "Tool bash finished."
			if !approve {
				want, reply = "tool_output_denied", "Tool bash was denied; continuing without it."
			}
			if !equal(parts[:1], []string{want}) {
				t.Fatalf("after the approval: parts %v, want %s first", parts, want)
			}
			if am, _ := find(msgs, "assistant_message"); am.Str("/text") != reply {
				t.Fatalf("reply %s, want %q", am, reply)
			}
			// Answered once: a second answer names no pending approval.
			s.send("approval_response", "requestId", ap.Str("/requestId"), "approved", true)
			s.expectError(t, "validation_failed", "tool")
		})
	}
}

func TestAsk(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, answer string
		options      []string
	}{
		{"/ask select Which colour?", "green", []string{"red", "green", "blue"}},
		{"/ask text What is your name?", "Ada", nil},
		{"/ask Continue?", "yes", []string{"yes", "no"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			s := connect(t, start(t))
			s.send("user_message", "text", tt.text)
			ask := s.Expect("ask")
			var opts []string
			if v, ok := ask.Get("/options"); ok {
				for _, o := range v.([]any) {
					opts = append(opts, o.(string))
				}
			}
			if !equal(opts, tt.options) || ask.Str("/question") == "" {
				t.Fatalf("ask %s, want options %v", ask, tt.options)
			}
			s.send("ask_response", "requestId", ask.Str("/requestId"), "answer", tt.answer)
			msgs := s.idle(t)
			if am, _ := find(msgs, "assistant_message"); am.Str("/text") != "You answered: "+tt.answer {
				t.Fatalf("reply %s", am)
			}
		})
	}
}

func TestFail(t *testing.T) {
	t.Parallel()
	s := connect(t, start(t))
	s.send("user_message", "text", "/fail disk full")
	msgs := s.idle(t)
	requireIndexes(t, msgs)
	_, parts := chunks(msgs)
	if parts[len(parts)-2] != "error" || parts[len(parts)-1] != "finish" {
		t.Fatalf("parts %v: want error then finish last", parts)
	}
	e, ok := find(msgs, "error")
	if !ok || e.Str("/code") != "internal_error" || e.Str("/source") != "session" {
		t.Fatalf("error: %s", e)
	}
	if _, ok := find(msgs, "assistant_message"); ok {
		t.Fatalf("a failed turn sent assistant_message: %v", types(msgs))
	}
	s.alive(t)
}

func TestCancel(t *testing.T) {
	t.Parallel()
	t.Run("mid-stream", func(t *testing.T) {
		t.Parallel()
		s := connect(t, start(t))
		s.send("user_message", "text", "/slow 1000")
		for m := s.Next(); m.Str("/partType") != "text_delta"; m = s.Next() {
		}
		s.send("cancel")
		msgs := s.idle(t)
		cs, _ := chunks(msgs)
		last := cs[len(cs)-1]
		if last.Str("/partType") != "abort" {
			t.Fatalf("last chunk %s, want abort", last)
		}
		if _, ok := find(msgs, "assistant_message"); ok {
			t.Fatal("a cancelled turn sent assistant_message")
		}
		s.alive(t)
	})
	t.Run("pending ask is rejected", func(t *testing.T) {
		t.Parallel()
		s := connect(t, start(t))
		s.send("user_message", "text", "/ask Sure?")
		ask := s.Expect("ask")
		s.send("cancel")
		s.idle(t)
		s.send("ask_response", "requestId", ask.Str("/requestId"), "answer", "yes")
		s.expectError(t, "validation_failed", "session")
	})
	t.Run("while idle is ignored", func(t *testing.T) {
		t.Parallel()
		s := connect(t, start(t))
		s.send("cancel")
		s.alive(t)
	})
}

func TestBusy(t *testing.T) {
	t.Parallel()
	// The ask holds the turn, so the session is busy for sure.
	tests := []struct {
		typ string
		kv  []any
	}{
		{"user_message", []any{"text", "second"}},
		{"execute_command", []any{"name", "review"}},
		{"reset", nil},
		{"set_model", []any{"model", "gpt-5-mini"}},
		{"session_backup_checkpoint", nil},
		{"session_backup_restore", nil},
		{"session_backup_delete_checkpoint", []any{"checkpointId", "cp-0001"}},
	}
	s := connect(t, start(t))
	s.send("user_message", "text", "/ask Wait?")
	ask := s.Expect("ask")
	for _, tt := range tests {
		s.send(tt.typ, tt.kv...)
		if m := s.expectError(t, "busy", "session"); m.Str("/message") != "Agent is busy" {
			t.Fatalf("%s: busy message %s", tt.typ, m)
		}
	}
	// Requests that do not touch the turn are answered while busy.
	s.send("list_tools")
	s.Expect("tools")
	s.alive(t)
	s.send("ask_response", "requestId", ask.Str("/requestId"), "answer", "yes")
	s.idle(t)
	s.send("user_message", "text", "now")
	if m := s.Next(); m.Type != "user_message" {
		t.Fatalf("after the turn: %s", m)
	}
	s.idle(t)
}
