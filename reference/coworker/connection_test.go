package coworker_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/wsconform/wsconform/reference/coworker"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

func TestFaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fault string
		seq   []string
		code  int // close code after seq; 0: the connection stays
	}{
		{"drop-after=3", []string{"server_hello", "session_settings", "observability_status"}, 1006},
		{"close=4000@2", []string{"server_hello", "session_settings"}, 4000},
		{"close=4000", nil, 4000},
		{"duplicate=2", []string{"server_hello", "session_settings", "session_settings", "observability_status"}, 0},
		{"delay=5ms", []string{"server_hello", "session_settings", "observability_status"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.fault, func(t *testing.T) {
			t.Parallel()
			srv := start(t)
			c := srv.Dial(t, "/ws?fault="+tt.fault)
			msgs := c.ExpectSeq(tt.seq...)
			if tt.code != 0 {
				if code, _ := c.Closed(); code != tt.code {
					t.Fatalf("closed with %d, want %d", code, tt.code)
				}
				return
			}
			s := session{Client: c, id: msgs[0].Str("/sessionId")}
			s.alive(t)
		})
	}
}

func TestBadFaultIsRefused(t *testing.T) {
	t.Parallel()
	srv := start(t)
	if _, resp, err := srv.TryDial(t, "/ws?fault=explode=1"); err == nil || resp == nil || resp.StatusCode != 400 {
		t.Fatalf("dial with a bad fault: %v %v", err, resp)
	}
}

// There is no resumption: a new connection is a new session, the old
// session's id is unknown to it, and the old session's turn ended with
// its connection (the leak check at cleanup proves its goroutine ended).
func TestReconnectIsANewSession(t *testing.T) {
	t.Parallel()
	srv := start(t)
	a := connect(t, srv)
	a.send("user_message", "text", "/ask Still there?")
	a.Expect("ask")
	a.Drop()
	b := connect(t, srv)
	if b.id == a.id {
		t.Fatalf("reconnect got the old sessionId %s", a.id)
	}
	b.Send(map[string]any{"type": "ping", "sessionId": a.id})
	b.expectError(t, "unknown_session", "protocol")
	b.send("user_message", "text", "hello again")
	first := b.ExpectSeq("user_message", "session_busy")
	if !isTrue(first[1], "/busy") {
		t.Fatalf("new session is not idle: %s", first[1])
	}
	b.idle(t)
}

// Several clients at once: each connection is its own session and sees
// only its own events.
func TestClientsAreIsolated(t *testing.T) {
	t.Parallel()
	srv := start(t)
	a := connect(t, srv)
	b := connect(t, srv, reftest.Group("b"))
	a.send("user_message", "text", "/slow 4")
	b.send("user_message", "text", "hi")
	for _, s := range []session{a, b} {
		s.Expect("user_message")
		for _, m := range s.idle(t) {
			if m.Str("/sessionId") != s.id {
				t.Fatalf("%s got an event of another session: %s", s.id, m)
			}
		}
	}
	b.Send(map[string]any{"type": "ping", "sessionId": a.id})
	b.expectError(t, "unknown_session", "protocol")
	a.alive(t)
}

// Disconnecting or shutting down mid-turn ends the turn.
func TestTurnEndsWithItsConnection(t *testing.T) {
	t.Parallel()
	t.Run("drop mid-stream", func(t *testing.T) {
		t.Parallel()
		srv := start(t)
		s := connect(t, srv)
		s.send("user_message", "text", "/slow 1000")
		s.Expect("model_stream_chunk")
		s.Drop()
		connect(t, srv).alive(t)
	})
	t.Run("shutdown with a pending approval", func(t *testing.T) {
		t.Parallel()
		s := connect(t, start(t))
		s.send("user_message", "text", "/tool bash")
		s.Expect("approval")
		// reftest shuts the server down at cleanup; its leak check fails
		// the test if the turn's goroutine outlives it.
	})
}

// A turn streaming as fast as it can does not overflow the send queue of
// a client that reads: the turn waits for the queue to drain.
func TestFastStreamKeepsTheConnection(t *testing.T) {
	t.Parallel()
	srv := start(t, func(o *reftest.Options) { o.Config.QueueSize = 64 })
	s := connect(t, srv)
	s.send("user_message", "text", "/stream 3000")
	msgs := s.idle(t)
	requireIndexes(t, msgs)
	if am, _ := find(msgs, "assistant_message"); am.Str("/text") == "" {
		t.Fatalf("no reply after %d messages", len(msgs))
	}
}

// Same text, same frames: two fresh servers with sequential ids and a
// fixed clock send byte-identical frames.
func TestDeterminism(t *testing.T) {
	t.Parallel()
	fixed := time.Date(2026, 2, 9, 21, 37, 0, 0, time.UTC)
	record := func() []string {
		srv := start(t, func(o *reftest.Options) { o.Config.Now = func() time.Time { return fixed } })
		c := srv.Dial(t, "/ws")
		var frames []string
		keep := func(msgs ...reftest.Msg) {
			for _, m := range msgs {
				frames = append(frames, string(m.Raw))
			}
		}
		hello := c.ExpectSeq("server_hello", "session_settings", "observability_status")
		keep(hello...)
		s := session{Client: c, id: hello[0].Str("/sessionId")}
		for _, text := range []string{"/think a b c", `/exec bash {"command":"ls"}`, "hello there", "/fail"} {
			s.send("user_message", "text", text, "clientMessageId", "cm")
			keep(s.idle(t)...)
		}
		s.send("user_message", "text", "/ask select Pick one")
		ask := s.Expect("ask")
		keep(ask)
		s.send("ask_response", "requestId", ask.Str("/requestId"), "answer", "blue")
		keep(s.idle(t)...)
		requests := []struct {
			typ string
			kv  []any
			n   int
		}{
			{"refresh_provider_status", nil, 1},
			{"provider_auth_authorize", []any{"provider", "codex-cli", "methodId", "oauth_cli"}, 1},
			{"provider_auth_callback", []any{"provider", "codex-cli", "methodId", "oauth_cli"}, 3},
			{"session_backup_checkpoint", nil, 1},
			{"observability_query", []any{"query", map[string]any{"queryType": "promql", "query": "up"}}, 1},
			{"harness_context_set", []any{"context", map[string]any{"runId": "r", "objective": "o", "acceptanceCriteria": []string{"a"}, "constraints": []string{}}}, 1},
			{"list_skills", nil, 1},
			{"list_commands", nil, 1},
		}
		for _, r := range requests {
			s.send(r.typ, r.kv...)
			for i := 0; i < r.n; i++ {
				keep(s.Next())
			}
		}
		return frames
	}
	a, b := record(), record()
	if len(a) != len(b) {
		t.Fatalf("%d frames, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("frame %d differs:\n%s\n%s", i, a[i], b[i])
		}
	}
}

// Mounted under /coworker/ (wsconform serve with several dialects), the
// server answers at /coworker/ws.
func TestMountedUnderPrefix(t *testing.T) {
	t.Parallel()
	srv := reftest.Start(t, "coworker", func(env *server.Env) http.Handler {
		mux := http.NewServeMux()
		mux.Handle("/coworker/", http.StripPrefix("/coworker", coworker.New(env)))
		return mux
	}, reftest.Options{Config: server.Config{Heartbeat: -1}})
	c := srv.Dial(t, "/coworker/ws")
	hello := c.ExpectSeq("server_hello", "session_settings", "observability_status")
	session{Client: c, id: hello[0].Str("/sessionId")}.alive(t)
}
