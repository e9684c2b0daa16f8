package coworker_test

import (
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

func TestBadInput(t *testing.T) {
	t.Parallel()
	srv := start(t, func(o *reftest.Options) { o.Config.MaxFrame = 1024 })
	s := connect(t, srv)
	other := "00000000-0000-4000-8000-0000000000ff"
	tests := []struct {
		name         string
		frame        any // string: raw text; map: JSON
		binary       bool
		code, source string
		mentions     string
	}{
		{name: "binary frame", frame: `{"type":"ping"}`, binary: true, code: "invalid_payload", source: "protocol"},
		{name: "oversize", frame: `{"type":"user_message","text":"` + strings.Repeat("x", 2000) + `"}`, code: "invalid_payload", source: "protocol", mentions: "1024"},
		{name: "invalid JSON", frame: `{"type":`, code: "invalid_json", source: "protocol"},
		{name: "trailing data", frame: `{"type":"ping"} {}`, code: "invalid_json", source: "protocol"},
		{name: "invalid UTF-8", frame: "{\"type\":\"ping\",\"x\":\"\xff\"}", code: "invalid_json", source: "protocol"},
		{name: "array", frame: `[1,2]`, code: "invalid_payload", source: "protocol"},
		{name: "number", frame: `42`, code: "invalid_payload", source: "protocol"},
		{name: "null", frame: `null`, code: "invalid_payload", source: "protocol"},
		{name: "missing type", frame: map[string]any{"sessionId": s.id}, code: "missing_type", source: "protocol"},
		{name: "type not a string", frame: map[string]any{"type": 7, "sessionId": s.id}, code: "missing_type", source: "protocol"},
		{name: "unknown type", frame: map[string]any{"type": "teleport", "sessionId": s.id}, code: "unknown_type", source: "protocol", mentions: "teleport"},
		{name: "server type", frame: map[string]any{"type": "server_hello", "sessionId": s.id}, code: "unknown_type", source: "protocol"},
		{name: "removed type", frame: map[string]any{"type": "connect_provider", "sessionId": s.id, "provider": "openai"}, code: "unknown_type", source: "protocol", mentions: "provider_auth_authorize"},
		{name: "missing sessionId", frame: map[string]any{"type": "ping"}, code: "validation_failed", source: "protocol", mentions: "sessionId"},
		{name: "sessionId not a string", frame: map[string]any{"type": "ping", "sessionId": 1}, code: "validation_failed", source: "protocol"},
		{name: "wrong sessionId", frame: map[string]any{"type": "ping", "sessionId": other}, code: "unknown_session", source: "protocol", mentions: other},
		{name: "wrong sessionId wins over payload", frame: map[string]any{"type": "user_message", "sessionId": other}, code: "unknown_session", source: "protocol"},
		{name: "missing field", frame: map[string]any{"type": "user_message", "sessionId": s.id}, code: "validation_failed", source: "protocol", mentions: "text"},
		{name: "wrong type", frame: map[string]any{"type": "user_message", "sessionId": s.id, "text": 5}, code: "validation_failed", source: "protocol", mentions: "text"},
		{name: "optional field of wrong type", frame: map[string]any{"type": "user_message", "sessionId": s.id, "text": "x", "clientMessageId": 1}, code: "validation_failed", source: "protocol", mentions: "clientMessageId"},
		{name: "nested field", frame: map[string]any{"type": "observability_query", "sessionId": s.id, "query": map[string]any{"queryType": "promql"}}, code: "validation_failed", source: "protocol", mentions: "query.query"},
		{name: "client_hello without client", frame: map[string]any{"type": "client_hello"}, code: "validation_failed", source: "protocol", mentions: "client"},
		{name: "ask_response with no ask", frame: map[string]any{"type": "ask_response", "sessionId": s.id, "requestId": "req-ask-9", "answer": "x"}, code: "validation_failed", source: "session", mentions: "req-ask-9"},
		{name: "approval_response with no approval", frame: map[string]any{"type": "approval_response", "sessionId": s.id, "requestId": "r1", "approved": true}, code: "validation_failed", source: "tool"},
		{name: "approval_response approved not boolean", frame: map[string]any{"type": "approval_response", "sessionId": s.id, "requestId": "r1", "approved": "yes"}, code: "validation_failed", source: "protocol"},
	}
	for _, tt := range tests {
		op := websocket.TextMessage
		if tt.binary {
			op = websocket.BinaryMessage
		}
		var data []byte
		if raw, ok := tt.frame.(string); ok {
			data = []byte(raw)
		} else {
			data, _ = server.Marshal(tt.frame)
		}
		s.SendFrame(op, data)
		m := s.expectError(t, tt.code, tt.source)
		if !strings.Contains(m.Str("/message"), tt.mentions) {
			t.Errorf("%s: message %q does not mention %q", tt.name, m.Str("/message"), tt.mentions)
		}
	}
	// State intact: the session still runs a turn.
	s.send("user_message", "text", "still here")
	s.Expect("user_message")
	s.idle(t)
}

// Wrong ids while a request is pending: the turn keeps waiting.
func TestWrongRequestIDs(t *testing.T) {
	t.Parallel()
	s := connect(t, start(t))
	s.send("user_message", "text", "/ask Sure?")
	ask := s.Expect("ask")
	id := ask.Str("/requestId")
	s.send("approval_response", "requestId", id, "approved", true) // an ask's id
	s.expectError(t, "validation_failed", "tool")
	s.send("ask_response", "requestId", "req-ask-404", "answer", "x")
	s.expectError(t, "validation_failed", "session")
	s.send("ask_response", "requestId", id, "answer", "ok")
	msgs := s.idle(t)
	if am, _ := find(msgs, "assistant_message"); am.Str("/text") != "You answered: ok" {
		t.Fatalf("reply %s", am)
	}
}

// A client that floods without reading: the server survives, and the
// connection either delivers every pong or is closed with 1013.
func TestFlood(t *testing.T) {
	t.Parallel()
	s := connect(t, start(t))
	const n = 2000
	ping, _ := server.Marshal(s.req("ping"))
	for i := 0; i < n; i++ {
		s.SendFrame(websocket.TextMessage, ping)
	}
	for i := 0; i < n; i++ {
		m := s.Next()
		if m.Type != "pong" {
			t.Fatalf("message %d: %s", i, m)
		}
	}
	s.alive(t)
}

func TestOtherPathsAreNotFound(t *testing.T) {
	t.Parallel()
	srv := start(t)
	_, resp, err := srv.TryDial(t, "/ws/app")
	if err == nil || resp == nil || resp.StatusCode != 404 {
		t.Fatalf("dial /ws/app: %v %v", err, resp)
	}
}
