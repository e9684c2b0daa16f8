package mitto_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// Bad input is answered with an error and changes nothing: the connection
// and the session go on.
func TestBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		send   any // string: raw text frame; []byte: binary frame; else JSON
		code   string
		binary bool
	}{
		{"binary frame", []byte(`{"type":"keepalive","data":{"client_time":1}}`), "binary_not_supported", true},
		{"oversize", `{"type":"prompt","data":{"message":"` + strings.Repeat("x", 2000) + `","prompt_id":"big"}}`, "message_too_large", false},
		{"invalid JSON", `{"type":"keepalive",`, "invalid_json", false},
		{"trailing garbage", `{"type":"keepalive","data":{"client_time":1}} x`, "invalid_json", false},
		{"invalid UTF-8", "{\"type\":\"rename_session\",\"data\":{\"name\":\"\xff\"}}", "invalid_json", false},
		{"array", `[1,2]`, "invalid_message", false},
		{"string", `"hello"`, "invalid_message", false},
		{"missing type", `{"data":{}}`, "invalid_message", false},
		{"numeric type", `{"type":5,"data":{}}`, "invalid_message", false},
		{"unknown type", `{"type":"nope","data":{}}`, "unknown_type", false},
		{"server type from the client", `{"type":"connected","data":{}}`, "unknown_type", false},
		{"unknown type without data", `{"type":"nope"}`, "unknown_type", false},
		{"missing data", `{"type":"prompt"}`, "invalid_message", false},
		{"data not an object", `{"type":"prompt","data":[]}`, "invalid_message", false},
		{"prompt without message", frame("prompt", map[string]any{"prompt_id": "x"}), "invalid_message", false},
		{"prompt message not a string", frame("prompt", map[string]any{"prompt_id": "x", "message": 5}), "invalid_message", false},
		{"prompt without prompt_id", frame("prompt", map[string]any{"message": "hi"}), "invalid_message", false},
		{"prompt with empty prompt_id", frame("prompt", map[string]any{"message": "hi", "prompt_id": ""}), "invalid_message", false},
		{"prompt image_ids not strings", frame("prompt", map[string]any{"message": "hi", "prompt_id": "x", "image_ids": []any{1}}), "invalid_message", false},
		{"keepalive without client_time", frame("keepalive", map[string]any{}), "invalid_message", false},
		{"keepalive client_time a string", frame("keepalive", map[string]any{"client_time": "now"}), "invalid_message", false},
		{"rename name a number", frame("rename_session", map[string]any{"name": 5}), "invalid_message", false},
		{"answer without request_id", frame("ui_prompt_answer", map[string]any{"option_id": "yes", "label": "Yes"}), "invalid_message", false},
		{"answer without option_id", frame("ui_prompt_answer", map[string]any{"request_id": "r", "label": "Yes"}), "invalid_message", false},
		{"answer to no prompt", frame("ui_prompt_answer", map[string]any{"request_id": "req-1", "option_id": "yes", "label": "Yes"}), "unknown_request", false},
		{"legacy answer to no prompt", frame("permission_answer", map[string]any{"request_id": "req-1", "approved": true}), "unknown_request", false},
		{"legacy answer without approved", frame("permission_answer", map[string]any{"request_id": "req-1"}), "invalid_message", false},
		{"legacy approved not a boolean", frame("permission_answer", map[string]any{"request_id": "req-1", "approved": "yes"}), "invalid_message", false},
		{"cancel while idle", frame("cancel", map[string]any{}), "not_prompting", false},
		{"cancel without data", `{"type":"cancel"}`, "not_prompting", false},
	}
	srv := start(t, server.Config{MaxFrame: 1024})
	c, _ := join(t, srv, "s")
	ask(c, "p0", "hi", "prompt_complete")
	for _, tt := range tests {
		switch v := tt.send.(type) {
		case []byte:
			c.SendFrame(websocket.BinaryMessage, v)
		default:
			c.Send(v)
		}
		expectError(t, c, tt.code)
		// The connection and the session are intact.
		c.Send(keepalive())
		if ack := c.Next(); ack.Type != "keepalive_ack" || ack.Int("/data/max_seq") != 3 {
			t.Fatalf("%s: after the error got %s", tt.name, ack)
		}
	}
	if got := reply(ask(c, "p1", "still here", "prompt_complete")); got != "Echo: still here" {
		t.Fatalf("after bad input: %q", got)
	}
}

// A client that sends 2000 keepalives without reading gets every ack: the
// server stops reading while its send queue is full (a client that never
// read at all would be closed with 1013), never hangs or crashes.
func TestFlood(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{QueueSize: 64})
	c, _ := join(t, srv, "s")
	const n = 2000
	for range n {
		c.Send(keepalive())
	}
	for i := range n {
		if m := c.Next(); m.Type != "keepalive_ack" {
			t.Fatalf("message %d: %s", i, m)
		}
	}
	c.Send(prompt("p1", "hi"))
	c.Until("prompt_complete")
}

func TestFaults(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	t.Run("drop-after", func(t *testing.T) {
		t.Parallel()
		c := srv.Dial(t, "/ws?session_id=f1&fault=drop-after=3", reftest.Group("f1"))
		c.Send(prompt("p1", "hello"))
		c.ExpectSeq("connected", "prompt_received", "user_prompt")
		if code, _ := c.Closed(); code != 1006 {
			t.Fatalf("close code %d, want 1006", code)
		}
	})
	t.Run("close", func(t *testing.T) {
		t.Parallel()
		c := srv.Dial(t, "/ws?session_id=f2&fault=close=4000", reftest.Group("f2"))
		if code, _ := c.Closed(); code != 4000 {
			t.Fatalf("close code %d, want 4000", code)
		}
	})
	t.Run("duplicate", func(t *testing.T) {
		t.Parallel()
		c := srv.Dial(t, "/ws?session_id=f3&fault=duplicate=2", reftest.Group("f3"))
		c.Send(prompt("p1", "hello"))
		got := c.ExpectSeq("connected", "prompt_received", "prompt_received", "user_prompt")
		if string(got[1].Raw) != string(got[2].Raw) {
			t.Fatalf("duplicate differs: %s vs %s", got[1], got[2])
		}
		c.Until("prompt_complete")
	})
}

func TestHandshake(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	for _, tt := range []struct {
		path   string
		status int
	}{
		{"/ws?session_id=", http.StatusBadRequest},
		{"/ws?session_id=a%20b", http.StatusBadRequest},
		{"/ws?session_id=" + strings.Repeat("a", 129), http.StatusBadRequest},
		{"/ws?fault=bogus", http.StatusBadRequest},
		{"/other", http.StatusNotFound},
	} {
		_, resp, err := srv.TryDial(t, tt.path)
		if err == nil || resp == nil || resp.StatusCode != tt.status {
			t.Fatalf("%s: err %v, response %v; want status %d", tt.path, err, resp, tt.status)
		}
	}
	// Without session_id each connection starts its own session.
	a, b := srv.Dial(t, "/ws", reftest.Group("a")), srv.Dial(t, "/ws", reftest.Group("b"))
	ia, ib := a.Expect("connected").Str("/data/session_id"), b.Expect("connected").Str("/data/session_id")
	if ia == "" || ia == ib {
		t.Fatalf("sessions %q and %q", ia, ib)
	}
}

// Turns and prompts still waiting when the server shuts down end with it
// (reftest's cleanup fails the test on a leaked goroutine).
func TestShutdownMidTurn(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	a, _ := join(t, srv, "a")
	a.Send(prompt("p1", "/tool shell"))
	a.Expect("ui_prompt")
	b, _ := join(t, srv, "b")
	b.Send(prompt("p1", "/slow 1000"))
	b.Expect("agent_message")
	b.Send(prompt("p2", "queued"))
	b.Expect("prompt_received")
	// A session whose clients left keeps its turn running.
	c, _ := join(t, srv, "c")
	c.Send(prompt("p1", "/slow 1000"))
	c.Expect("agent_message")
	c.Drop()
}
