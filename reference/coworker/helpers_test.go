package coworker_test

import (
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reference/coworker"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// start runs a coworker server with a fast /slow pace and no heartbeat.
func start(t testing.TB, opts ...func(*reftest.Options)) *reftest.Server {
	t.Helper()
	o := reftest.Options{Config: server.Config{Slow: 20 * time.Millisecond, Heartbeat: -1}}
	for _, f := range opts {
		f(&o)
	}
	srv := reftest.Start(t, "coworker", coworker.New, o)
	if !o.ExpectFindings {
		// Stricter than reftest: no warning about a server frame either.
		t.Cleanup(func() {
			for _, f := range srv.Findings() {
				if f.Dir == wire.ServerToClient {
					t.Errorf("server frame finding: %s", reftest.Describe(f))
				}
			}
		})
	}
	return srv
}

// session is a connected client and the sessionId its server_hello gave.
type session struct {
	*reftest.Client
	id string
}

// connect dials /ws and reads the connect sequence.
func connect(t testing.TB, srv *reftest.Server, opts ...reftest.DialOption) session {
	t.Helper()
	c := srv.Dial(t, "/ws", opts...)
	msgs := c.ExpectSeq("server_hello", "session_settings", "observability_status")
	id := msgs[0].Str("/sessionId")
	if id == "" {
		t.Fatalf("server_hello without sessionId: %s", msgs[0])
	}
	return session{Client: c, id: id}
}

// req is a client message of type typ on the session, with members kv
// (name, value, name, value, …).
func (s session) req(typ string, kv ...any) map[string]any {
	m := map[string]any{"type": typ, "sessionId": s.id}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// send sends req(typ, kv...).
func (s session) send(typ string, kv ...any) { s.Send(s.req(typ, kv...)) }

// idle reads up to and including session_busy {busy: false}.
func (s session) idle(t testing.TB) []reftest.Msg {
	t.Helper()
	var out []reftest.Msg
	for {
		m := s.Next()
		out = append(out, m)
		if m.Type == "session_busy" && isFalse(m, "/busy") {
			return out
		}
	}
}

func isFalse(m reftest.Msg, ptr string) bool {
	v, ok := m.Get(ptr)
	return ok && v == false
}

func isTrue(m reftest.Msg, ptr string) bool {
	v, ok := m.Get(ptr)
	return ok && v == true
}

// expectError reads the next message and requires an error with code and
// source.
func (s session) expectError(t testing.TB, code, source string) reftest.Msg {
	t.Helper()
	m := s.Next()
	if m.Type != "error" || m.Str("/code") != code || m.Str("/source") != source {
		t.Fatalf("want error %s/%s, got %s", code, source, m)
	}
	if m.Str("/sessionId") != s.id {
		t.Fatalf("error carries sessionId %q, want %q", m.Str("/sessionId"), s.id)
	}
	return m
}

// alive proves the connection and session still work: ping → pong.
func (s session) alive(t testing.TB) {
	t.Helper()
	s.send("ping")
	if m := s.Next(); m.Type != "pong" || m.Str("/sessionId") != s.id {
		t.Fatalf("want pong for %s, got %s", s.id, m)
	}
}

// types lists the message types of msgs.
func types(msgs []reftest.Msg) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Type
	}
	return out
}

// chunks are the model_stream_chunk messages of msgs, and their partTypes.
func chunks(msgs []reftest.Msg) ([]reftest.Msg, []string) {
	var out []reftest.Msg
	var parts []string
	for _, m := range msgs {
		if m.Type == "model_stream_chunk" {
			out = append(out, m)
			parts = append(parts, m.Str("/partType"))
		}
	}
	return out, parts
}

// streamed joins the text of the chunks of partType.
func streamed(msgs []reftest.Msg, partType string) string {
	var b strings.Builder
	for _, m := range msgs {
		if m.Type == "model_stream_chunk" && m.Str("/partType") == partType {
			b.WriteString(m.Str("/part/text"))
		}
	}
	return b.String()
}

// requireIndexes checks that the chunks of one turn share a turnId and
// count up by one in order (from 0 when msgs hold the turn's start).
func requireIndexes(t testing.TB, msgs []reftest.Msg) {
	t.Helper()
	cs, _ := chunks(msgs)
	if len(cs) == 0 {
		t.Fatal("no model_stream_chunk in the turn")
	}
	turn, first := cs[0].Str("/turnId"), cs[0].Int("/index")
	if cs[0].Str("/partType") == "start" && first != 0 {
		t.Fatalf("first chunk has index %d: %s", first, cs[0])
	}
	for i, m := range cs {
		if want := first + int64(i); m.Int("/index") != want || m.Str("/turnId") != turn {
			t.Fatalf("chunk %d has index %d turnId %q, want %d %q: %s", i, m.Int("/index"), m.Str("/turnId"), want, turn, m)
		}
	}
}

func find(msgs []reftest.Msg, typ string) (reftest.Msg, bool) {
	for _, m := range msgs {
		if m.Type == typ {
			return m, true
		}
	}
	return reftest.Msg{}, false
}

func equal(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }
