package myagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestBadInput: every malformed, mistyped or out-of-state message gets its
// error event on the same connection, which stays usable with its session
// intact.
func TestBadInput(t *testing.T) {
	t.Parallel()
	big := `{"event":"user.message","content":"` + strings.Repeat("x", 2000) + `"}`
	tests := []struct {
		name string
		send any // string: raw text; []byte: binary frame; map: JSON
		kind string
		code string
	}{
		{"binary frame", []byte(`{"event":"user.request_state"}`), "error.validation", "BINARY_FRAME"},
		{"oversize frame", big, "error.validation", "FRAME_TOO_LARGE"},
		{"invalid JSON", `{"event":`, "error.validation", "INVALID_JSON"},
		{"trailing data", `{"event":"user.cancel"} {}`, "error.validation", "INVALID_JSON"},
		{"array", `[{"event":"user.cancel"}]`, "error.validation", "NOT_AN_OBJECT"},
		{"string", `"user.cancel"`, "error.validation", "NOT_AN_OBJECT"},
		{"no event", map[string]any{"content": "hi"}, "error.validation", "MISSING_EVENT"},
		{"event not a string", map[string]any{"event": 7}, "error.validation", "INVALID_FIELD"},
		{"unknown event", ev("user.dance"), "error.validation", "UNKNOWN_EVENT"},
		{"server event from the client", ev("agent.final_answer", "content", "x"), "error.validation", "UNKNOWN_EVENT"},
		{"session_id not a string", ev("user.request_state", "session_id", 5), "error.validation", "INVALID_FIELD"},
		{"timestamp not ISO 8601", ev("user.request_state", "timestamp", "yesterday"), "error.validation", "INVALID_FIELD"},
		{"metadata not an object", ev("user.request_state", "metadata", "x"), "error.validation", "INVALID_FIELD"},
		{"content a number", ev("user.message", "content", 5), "error.validation", "INVALID_FIELD"},
		{"message without content", ev("user.message"), "error.validation", "MISSING_FIELD"},
		{"message with empty content", ev("user.message", "content", "  "), "error.validation", "INVALID_FIELD"},
		{"message content object without text", ev("user.message", "content", map[string]any{"x": 1}), "error.validation", "INVALID_FIELD"},
		{"response without step_id", ev("user.response", "content", map[string]any{"approved": true}), "error.validation", "MISSING_FIELD"},
		{"response without content", ev("user.response", "step_id", "s"), "error.validation", "MISSING_FIELD"},
		{"response content a string", ev("user.response", "step_id", "s", "content", "yes"), "error.validation", "INVALID_FIELD"},
		{"response to an unknown step", ev("user.response", "step_id", "nope", "content", map[string]any{"approved": true}), "error.validation", "UNKNOWN_STEP_ID"},
		{"ack without seq", ev("user.ack"), "error.validation", "MISSING_FIELD"},
		{"ack with a negative seq", ev("user.ack", "seq", -1), "error.validation", "INVALID_FIELD"},
		{"ack with a fractional seq", ev("user.ack", "seq", 1.5), "error.validation", "INVALID_FIELD"},
		{"ack of an unsent seq", ev("user.ack", "seq", 99), "error.validation", "ACK_UNSENT"},
		{"cancel while idle", ev("user.cancel"), "error.validation", "NO_ACTIVE_RUN"},
		{"cancel_task without task", ev("user.cancel_task"), "error.validation", "MISSING_FIELD"},
		{"cancel_task while idle", ev("user.cancel_task", "task_id", 1), "error.validation", "NO_ACTIVE_RUN"},
		{"restart an unknown task", ev("user.restart_task", "task_id", 3), "error.validation", "UNKNOWN_TASK"},
		{"another session's id", ev("user.request_state", "session_id", "sess_other"), "error.validation", "SESSION_MISMATCH"},
		{"create a second session", ev("user.create_session"), "error.validation", "ALREADY_IN_SESSION"},
		{"reconnect with a string last_seq", ev("user.reconnect_with_state", "last_seq", "3"), "error.validation", "INVALID_FIELD"},
		{"solve_tasks without content", ev("user.solve_tasks"), "error.validation", "MISSING_FIELD"},
		{"solve_tasks without tasks", ev("user.solve_tasks", "content", map[string]any{"x": 1}), "plan.coercion_error", "TASK_COERCION_FAILED"},
		{"solve_tasks with an empty list", ev("user.solve_tasks", "content", map[string]any{"tasks": []any{}}), "plan.coercion_error", "TASK_COERCION_FAILED"},
		{"solve_tasks with a bad task", ev("user.solve_tasks", "content", map[string]any{"tasks": []any{"ok", 5}}), "plan.coercion_error", "TASK_COERCION_FAILED"},
		{"solve_tasks with too many tasks", ev("user.solve_tasks", "content", map[string]any{"tasks": make([]any, 21)}), "plan.coercion_error", "TASK_COERCION_FAILED"},
	}
	srv := start(t, server.Config{MaxFrame: 1024})
	c := dial(t, srv)
	id := session(t, c)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			switch v := tt.send.(type) {
			case []byte:
				c.SendFrame(websocket.BinaryMessage, v)
			default:
				c.Send(v)
			}
			m := expectError(t, c, tt.kind, tt.code)
			if m.Str("/content") == "" || m.Str("/session_id") != id || m.Str("/timestamp") == "" {
				t.Errorf("error event = %s", m.Raw)
			}
		})
	}
	// Still the same session, still working.
	msgs := run(t, c, "still here")
	if msgs[0].Int("/seq") != 2 || msgs[len(msgs)-1].Str("/content") != "Echo: still here" {
		t.Fatalf("after bad input: %v", types(msgs))
	}
}

// TestNoSession: events that need a session are refused on a connection
// that has none, and naming an unknown session is refused.
func TestNoSession(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c := dial(t, srv)
	for _, typ := range []string{"user.response", "user.cancel", "user.cancel_task", "user.restart_task", "user.ack", "user.request_state"} {
		c.Send(ev(typ, "step_id", "s", "content", map[string]any{"approved": true}, "seq", 1, "task_id", 1))
		expectError(t, c, "error.validation", "NO_SESSION")
		c.Send(ev(typ, "session_id", "sess_404", "step_id", "s", "content", map[string]any{"approved": true}, "seq", 1, "task_id", 1))
		expectError(t, c, "error.validation", "SESSION_NOT_FOUND")
	}
	c.Send(ev("user.message", "session_id", "sess_404", "content", "hi"))
	expectError(t, c, "error.validation", "SESSION_NOT_FOUND")
	c.Send(ev("user.reconnect"))
	expectError(t, c, "error.validation", "MISSING_FIELD")
}

// TestResponseValidation: a malformed answer leaves the step open.
func TestResponseValidation(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c := dial(t, srv)
	c.Send(ev("user.message", "content", "/tool x"))
	q := c.Expect("agent.user_confirm")
	step := q.Str("/step_id")
	c.Send(ev("user.response", "step_id", step, "content", map[string]any{"answer": "yes"}))
	expectError(t, c, "error.validation", "MISSING_FIELD")
	c.Send(ev("user.response", "step_id", step, "content", map[string]any{"approved": "yes"}))
	expectError(t, c, "error.validation", "INVALID_FIELD")
	c.Send(ev("user.response", "step_id", step, "content", map[string]any{"approved": true}))
	c.Until("agent.final_answer")

	c.Send(ev("user.message", "content", "/ask select Colour?"))
	q = c.Expect("agent.user_confirm")
	c.Send(ev("user.response", "step_id", q.Str("/step_id"), "content", map[string]any{"answer": 3}))
	expectError(t, c, "error.validation", "INVALID_FIELD")
	c.Send(ev("user.response", "step_id", q.Str("/step_id"), "content", map[string]any{"answer": []any{"red", 1}}))
	expectError(t, c, "error.validation", "INVALID_FIELD")
	c.Send(ev("user.response", "step_id", q.Str("/step_id"), "content", map[string]any{}))
	expectError(t, c, "error.validation", "MISSING_FIELD")
	c.Send(ev("user.response", "step_id", q.Str("/step_id"), "content", map[string]any{"answer": "red"}))
	if got := c.Until("agent.final_answer"); got[len(got)-1].Str("/content") != "You answered: red" {
		t.Fatalf("final %s", got[len(got)-1].Raw)
	}
}

// TestFlood: a client that sends thousands of events without waiting gets
// an answer to each, or is closed with 1013 if it stops reading; the
// server neither panics nor deadlocks.
func TestFlood(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{QueueSize: 64})
	c := dial(t, srv)
	session(t, c)
	const n = 2000
	for range n {
		c.Send(ev("user.cancel"))
	}
	got := 0
	for got < n {
		m := c.Next()
		if m.Type != "error.validation" {
			t.Fatalf("unexpected %s", m.Raw)
		}
		got++
	}
	run(t, c, "alive")
}

// TestFaults: the per-connection fault query reaches the client exactly.
func TestFaults(t *testing.T) {
	t.Parallel()
	t.Run("drop-after=3", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		c := srv.Dial(t, "/ws?fault=drop-after=3")
		c.Send(ev("user.message", "content", "hello"))
		msgs := []reftest.Msg{c.Next(), c.Next(), c.Next()}
		sameTypes(t, msgs, "system.connected", "agent.session_created", "plan.start")
		if code, _ := c.Closed(); code != 1006 {
			t.Fatalf("close code %d, want 1006", code)
		}
	})
	t.Run("close=4000", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		c := srv.Dial(t, "/ws?fault=close=4000")
		if code, _ := c.Closed(); code != 4000 {
			t.Fatalf("close code %d, want 4000", code)
		}
	})
	t.Run("duplicate=2", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		c := srv.Dial(t, "/ws?fault=duplicate=2")
		c.Send(ev("user.create_session"))
		msgs := []reftest.Msg{c.Next(), c.Next(), c.Next()}
		sameTypes(t, msgs, "system.connected", "agent.session_created", "agent.session_created")
		if string(msgs[1].Raw) != string(msgs[2].Raw) {
			t.Fatalf("duplicate differs:\n%s\n%s", msgs[1].Raw, msgs[2].Raw)
		}
		run(t, c, "hi")
	})
	t.Run("bad fault", func(t *testing.T) {
		t.Parallel()
		srv := start(t, server.Config{})
		_, resp, err := srv.TryDial(t, "/ws?fault=explode")
		if err == nil || resp == nil || resp.StatusCode != 400 {
			t.Fatalf("dial with a bad fault: %v %v", err, resp)
		}
	})
}

// TestSlowClient: the stream goes as fast as the clients read (a full
// send queue holds the run back), but a client that stops reading holds
// it back for at most WriteTimeout: then the server finds it stalled
// (to be closed with 1013, or dropped if it does not read within
// CloseGrace either) and it leaves the session, and the other client gets
// the whole run.
//
// Both clients are bare gorilla connections outside the check engine: a
// reftest.Client checks every frame on its reader goroutine, which under
// the race detector on a loaded machine falls behind a 60000-event stream
// and is then found stalled itself. The fast client drains and counts; the
// slow one has a tiny receive buffer and reads nothing during the run. No
// wait is a fixed window: each is derived from the server's configuration
// and what the test waits for, and the test waits for what the server
// logs rather than for time to pass.
func TestSlowClient(t *testing.T) {
	t.Parallel()
	// 60000 events of ~200 bytes (12 MB) overflow the slow client's socket
	// buffers even when the kernel grows the server's send buffer to its
	// 4 MB maximum (20000 events once did, then stopped on this machine).
	const events = 60000
	// WriteTimeout is how long the run waits for its slowest client, and
	// how long a blocked write takes to count as stalled: the fast client,
	// which does nothing but read, only looks stalled if it is starved for
	// that long. CloseGrace is how much longer the slow client's blocked
	// write may take before the server drops it. Under -race on two busy
	// cores the fast client was starved for over 2.5 s (the old
	// WriteTimeout) in 3 of 8 runs, and the run left it behind: 10 s.
	cfg := server.Config{QueueSize: 16, WriteTimeout: 2 * reftest.Timeout, CloseGrace: reftest.Timeout / 4}
	stalls := &stallLog{ch: map[string]chan struct{}{}}
	cfg.Log = slog.New(stalls)
	srv := start(t, cfg)
	// The fast client waits for its next event while the run waits for the
	// slow client (WriteTimeout at most), with reftest.Timeout to spare for
	// a loaded machine.
	fastWait := cfg.WriteTimeout + reftest.Timeout

	fast, fastID := rawDial(t, srv.URL, nil)
	if _, err := readUntil(fast, "system.connected", reftest.Timeout); err != nil {
		t.Fatal(err)
	}
	if err := fast.WriteJSON(ev("user.create_session")); err != nil {
		t.Fatal(err)
	}
	created, err := readUntil(fast, "agent.session_created", reftest.Timeout)
	if err != nil {
		t.Fatal(err)
	}
	if created.Seq == nil {
		t.Fatalf("agent.session_created without seq")
	}
	slow, slowID := rawDial(t, srv.URL, func(tc *net.TCPConn) { _ = tc.SetReadBuffer(4096) })
	stalled := stalls.watch(slowID)
	if err := slow.WriteJSON(ev("user.reconnect", "session_id", created.SessionID)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"system.connected", "agent.state_restored"} {
		if m, err := rawRead(slow, reftest.Timeout); err != nil || m.Event != want {
			t.Fatalf("slow client read %+v, %v; want %s", m, err, want)
		}
	}
	// slow reads nothing from here on.

	if err := fast.WriteJSON(ev("user.message", "content", fmt.Sprintf("/stream %d", events))); err != nil {
		t.Fatal(err)
	}
	// Every event of the run, numbered without a gap, up to its answer.
	n, last := 0, *created.Seq
	for {
		m, err := rawRead(fast, fastWait)
		if err != nil {
			t.Fatalf("fast client after %d events (seq %d): %v", n, last, err)
		}
		if m.Seq != nil {
			if *m.Seq != last+1 {
				t.Fatalf("fast client got seq %d after %d (%s)", *m.Seq, last, m.Event)
			}
			last = *m.Seq
			n++
		}
		if m.Event == "agent.final_answer" {
			break
		}
	}
	if n < events {
		t.Fatalf("fast client got %d events", n)
	}

	// The slow client held the run back and was let go: its write blocked
	// once its buffers were full, during the run, and counts as stalled
	// WriteTimeout later.
	select {
	case <-stalled:
	case <-time.After(cfg.WriteTimeout + reftest.Timeout):
		t.Fatal("the server never found the slow client stalled")
	}
	if stalls.saw(fastID) {
		t.Fatalf("the server found the fast client %s stalled", fastID)
	}
	// It leaves the session when its connection ends: at the latest when
	// its blocked write gives up, CloseGrace after the stall (asked until
	// it has).
	deadline := time.Now().Add(cfg.CloseGrace + reftest.Timeout)
	for {
		if err := fast.WriteJSON(ev("user.request_state")); err != nil {
			t.Fatal(err)
		}
		st, err := readUntil(fast, "agent.state_exported", reftest.Timeout)
		if err != nil {
			t.Fatal(err)
		}
		if st.Metadata.State.Connections == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("slow client still attached: %d connections", st.Metadata.State.Connections)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if stalls.saw(fastID) {
		t.Fatalf("the server found the fast client %s stalled", fastID)
	}
}

// rawMsg is what TestSlowClient reads of an event.
type rawMsg struct {
	Event     string `json:"event"`
	SessionID string `json:"session_id"`
	Seq       *int64 `json:"seq"`
	Metadata  struct {
		State struct {
			Connections int `json:"connections"`
		} `json:"state"`
	} `json:"metadata"`
}

// rawDial opens a bare gorilla connection to /ws (outside the check
// engine); tune, if set, adjusts its socket. It returns the connection and
// its server-side id.
func rawDial(t *testing.T, base string, tune func(*net.TCPConn)) (*websocket.Conn, string) {
	t.Helper()
	d := websocket.Dialer{HandshakeTimeout: reftest.Timeout, NetDial: func(network, addr string) (net.Conn, error) {
		c, err := net.Dial(network, addr)
		if tc, ok := c.(*net.TCPConn); ok && tune != nil {
			tune(tc)
		}
		return c, err
	}}
	ws, resp, err := d.Dial(base+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	return ws, resp.Header.Get(server.ConnHeader)
}

// rawRead reads one event, waiting at most wait for it.
func rawRead(ws *websocket.Conn, wait time.Duration) (rawMsg, error) {
	var m rawMsg
	_ = ws.SetReadDeadline(time.Now().Add(wait))
	_, data, err := ws.ReadMessage()
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%.80s: %w", data, err)
	}
	return m, nil
}

// readUntil reads up to the first event of type typ, waiting at most wait
// for each event.
func readUntil(ws *websocket.Conn, typ string, wait time.Duration) (rawMsg, error) {
	for {
		m, err := rawRead(ws, wait)
		if err != nil || m.Event == typ {
			if err != nil {
				err = fmt.Errorf("waiting for %s: %w", typ, err)
			}
			return m, err
		}
	}
}

// stallLog is a slog handler that records which connections the server
// logged as stalled (server.LogStalled), so that a test waits for what the
// server says it did instead of sleeping.
type stallLog struct {
	mu    sync.Mutex
	ch    map[string]chan struct{} // closed when the connection stalls
	saved []string
}

func (h *stallLog) get(conn string) chan struct{} {
	ch, ok := h.ch[conn]
	if !ok {
		ch = make(chan struct{})
		h.ch[conn] = ch
	}
	return ch
}

// watch returns a channel closed when conn is logged as stalled.
func (h *stallLog) watch(conn string) <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.get(conn)
}

// saw reports whether conn was logged as stalled.
func (h *stallLog) saw(conn string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Contains(h.saved, conn)
}

func (h *stallLog) Enabled(context.Context, slog.Level) bool { return true }
func (h *stallLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != server.LogStalled {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key != "conn" {
			return true
		}
		conn := a.Value.String()
		h.mu.Lock()
		defer h.mu.Unlock()
		if !slices.Contains(h.saved, conn) {
			h.saved = append(h.saved, conn)
			close(h.get(conn))
		}
		return false
	})
	return nil
}
func (h *stallLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *stallLog) WithGroup(string) slog.Handler      { return h }
