package minicodex

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/reference/server"
)

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		code  string // "" = accepted
		check func(command) bool
	}{
		{in: `{"type":"hello","v":"1.0.0","client_capabilities":["a"],"ts":"2025-03-14T09:26:50Z"}`, check: func(c command) bool { return c.V == "1.0.0" && len(c.Capabilities) == 1 }},
		{in: `{"type":"resume","last_seen_event_id":41.0,"session_id":"s"}`, check: func(c command) bool { return c.LastSeen == 41 && c.SessionID == "s" }},
		{in: `{"type":"resume","last_seen_event_id":null}`, check: func(c command) bool { return c.LastSeen == 0 }},
		{in: `{"type":"send","text":"hi","client_msg_id":null,"req_id":"r"}`, check: func(c command) bool { return c.Text == "hi" && c.ReqID == "r" }},
		{in: `{"type":"abort","run_id":null}`, check: func(c command) bool { return !c.HasRunID }},
		{in: `{"type":"abort","run_id":"x"}`, check: func(c command) bool { return c.HasRunID && c.RunID == "x" }},
		{in: `{"type":"get_snapshot","include_transcript_window":true}`, check: func(c command) bool { return c.WithWindow }},
		{in: `{"type":"ping","nonce":"n","event_id":3}`, check: func(c command) bool { return c.Nonce == "n" }},
		{in: `{"type":"resume","last_seen_event_id":1e400}`, code: codeBadArgument},
		{in: `{"type":"resume","last_seen_event_id":"4"}`, code: codeBadArgument},
		{in: `{"type":"ping","event_id":1.5}`, code: codeBadArgument},
		{in: `{"type":"hello","v":null}`, code: codeBadArgument},
		{in: `{"type":"hello","v":"1","client_capabilities":null}`, code: codeBadArgument},
		{in: `{"type":"approve","call_id":"c","decision":"approve"}`, code: codeBadArgument},
		{in: `{"type":"send"}`, code: codeMissingField},
		{in: `{"type":"Send","text":"x"}`, code: codeInvalidCommand},
		{in: `{"type":null}`, code: codeInvalidCommand},
		{in: `"hello"`, code: codeInvalidCommand},
		{in: ``, code: codeInvalidCommand},
		{in: `{"type":"ping"} {}`, code: codeInvalidCommand},
	}
	for _, tt := range tests {
		cmd, _, err := decode(server.Inbound{Data: []byte(tt.in)}, 1<<20)
		switch {
		case tt.code == "" && err != nil:
			t.Errorf("decode(%s) refused: %v", tt.in, err)
		case tt.code == "" && !tt.check(cmd):
			t.Errorf("decode(%s) = %+v", tt.in, cmd)
		case tt.code != "" && (err == nil || err.Code != tt.code):
			t.Errorf("decode(%s) error %v, want %s", tt.in, err, tt.code)
		}
	}
}

func TestTranscriptWindow(t *testing.T) {
	t.Parallel()
	var tr transcript
	tr.add(item{kind: "user_text", run: "r1", text: "hi"})
	tr.add(item{kind: "assistant_text", run: "r1", text: "a "})
	tr.add(item{kind: "assistant_text", run: "r1", text: "b"})
	tr.add(item{kind: "tool_call", run: "r1", name: "ls", callID: "c"})
	tr.add(item{kind: "function_call_output", run: "r1", callID: "c", output: "ok"})
	got, _ := json.Marshal(tr.list())
	want := `[{"type":"user_text","text":"hi"},{"type":"assistant_text","text":"a b"},{"type":"tool_call","name":"ls","args":{},"call_id":"c"},` +
		`{"type":"function_call_output","call_id":"c","result":{"content":[{"text":"ok","type":"text"}],"isError":false},"output":"ok"}]`
	if string(got) != want {
		t.Errorf("transcript\n got %s\nwant %s", got, want)
	}
	// Bounded: long streams split into items of at most itemTextMax, and
	// only the newest transcriptWindow items stay.
	chunk := strings.Repeat("x", 1000)
	for i := 0; i < 5000; i++ {
		tr.add(item{kind: "assistant_text", run: "r2", text: chunk})
	}
	if n := len(tr.items); n != transcriptWindow {
		t.Errorf("%d items, want %d", n, transcriptWindow)
	}
	for _, it := range tr.items {
		if len(it.text) > itemTextMax {
			t.Fatalf("item of %d bytes", len(it.text))
		}
	}
}

// TestTrimIdleSessions: sessions without a connection are kept up to
// MaxSessions, the least recently left forgotten first; an attached one,
// or one whose run goes on, is never forgotten.
func TestTrimIdleSessions(t *testing.T) {
	t.Parallel()
	env := server.NewEnv(server.Config{IDs: server.Sequential(), MaxSessions: 10})
	t.Cleanup(func() { _ = env.Shutdown(t.Context()) })
	s := &service{env: env, sessions: map[string]*hub{}, lineage: map[string]string{}, detached: server.NewRetained[*hub](env)}
	var attached, left []*hub
	var busy *hub
	for i := range 40 {
		c := &client{}
		h := s.create(c)
		switch {
		case i%10 == 0:
			attached = append(attached, h) // stays attached
			continue
		case i == 1:
			busy = h
			h.active = &run{} // its run goes on
		}
		s.leave(h, c)
		left = append(left, h)
	}
	for _, h := range append(attached, busy) {
		if s.sessions[h.id] != h {
			t.Errorf("%s was forgotten", h.id)
		}
	}
	if n := len(s.sessions) - len(attached); n != 10 || s.detached.Len() != 10 {
		t.Errorf("%d sessions without a connection kept (%d listed), want 10", n, s.detached.Len())
	}
	for i, h := range left[1:] { // busy aside: the 9 left last are kept
		if kept := s.sessions[h.id] == h; kept != (i >= len(left)-10) {
			t.Errorf("%s (left %d of %d): kept %v", h.id, i+2, len(left), kept)
		}
	}
}

func TestRecent(t *testing.T) {
	t.Parallel()
	r := newRecent[int](2)
	r.put("a", 1)
	r.put("b", 2)
	r.put("a", 3)
	r.put("c", 4)
	if _, ok := r.get("a"); ok {
		t.Error("oldest key kept")
	}
	if v, _ := r.get("c"); v != 4 || len(r.m) != 2 {
		t.Errorf("recent = %v", r.m)
	}
}

// TestStreamStopsAtShutdown: a stream without a pause between chunks
// stops at a shutdown instead of emitting every chunk first.
func TestStreamStopsAtShutdown(t *testing.T) {
	t.Parallel()
	env := server.NewEnv(server.Config{IDs: server.Sequential()})
	t.Cleanup(func() { _ = env.Shutdown(t.Context()) })
	s := &service{env: env, sessions: map[string]*hub{}, lineage: map[string]string{}, detached: server.NewRetained[*hub](env)}
	h := newHub(s, "s")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	r := &run{id: "run_1", abort: make(chan struct{})}
	if err := h.stream(ctx, r, "assistant_text", make([]string, 1000)); err != errShutdown {
		t.Errorf("stream after shutdown: %v, want errShutdown", err)
	}
	if n := h.log.Len(); n > 1 {
		t.Errorf("%d chunks emitted after the shutdown, want at most the first", n)
	}
}
