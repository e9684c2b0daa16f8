package coworker

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/reference/server"
)

// New builds the coworker reference server. It serves the dialect's one
// documented path, /ws, at its root (the caller mounts it under /coworker/
// when serving several dialects). There is no authentication (§Connection:
// "No authentication — server binds to localhost only").
func New(env *server.Env) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		err := server.Serve(w, r, env, func(c *server.Conn) server.Handler {
			s := newSession(env, c)
			s.hello()
			return &handler{s: s}
		})
		if err != nil {
			env.Log.Debug("coworker: connection not served", "path", r.URL.Path, "err", err)
		}
	})
	return mux
}

// handler is the server.Handler of one connection: it parses each client
// message, checks it as the spec's message validation does, and dispatches
// it to the request's handler.
type handler struct{ s *session }

// Message runs on the connection's reader goroutine. Every problem is
// answered with an error event and the connection and session stay as they
// were.
func (h *handler) Message(in server.Inbound) {
	s := h.s
	defer s.recoverInto("message")
	switch {
	case in.Oversize:
		s.refuse(codeInvalidPayload, srcProtocol, fmt.Sprintf("Message of %d bytes exceeds the %d-byte limit", in.Size, s.env.MaxFrame))
		return
	case in.Binary:
		s.refuse(codeInvalidPayload, srcProtocol, "Binary frames are not accepted: send each message as a JSON text frame")
		return
	}
	obj, fe := decodeFrame(in.Data)
	if fe != nil {
		s.refuse(fe.code, srcProtocol, fe.msg)
		return
	}
	typ, ok := obj["type"].(string)
	if !ok {
		s.refuse(codeMissingType, srcProtocol, "Missing type")
		return
	}
	r, known := routes[typ]
	if !known {
		s.refuse(codeUnknownType, srcProtocol, unknownTypeMessage(typ))
		return
	}
	s.dispatch(typ, r, newPayload(typ, obj))
}

// Closed disposes of the session with its connection.
func (h *handler) Closed() { h.s.close() }

// unknownTypeMessage names the type, and for a type protocol 3.0 removed,
// what replaces it (§Protocol v3 Migration).
func unknownTypeMessage(typ string) string {
	if typ == "connect_provider" {
		return "Unknown type: connect_provider (removed in protocol 3.0: use provider_auth_authorize, provider_auth_callback or provider_auth_set_api_key)"
	}
	return "Unknown type: " + clip(typ)
}

// refuse is fail for callers that do not hold the session's lock.
func (s *session) refuse(code, source, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail(code, source, msg)
}

// recoverInto turns a panic in a handler or a turn into the spec's
// internal_error ("Unexpected runtime failure") instead of a crashed
// server. It is a safety net: no known input panics.
func (s *session) recoverInto(where string) {
	v := recover()
	if v == nil {
		return
	}
	s.env.Log.Error("coworker: recovered panic", "where", where, "session", s.id, "panic", v)
	s.refuse(codeInternalError, srcSession, "Internal error while handling the "+where)
}

// dispatch checks the sessionId, then the payload, then the busy state, in
// that order, and runs the request. The session's lock is held throughout:
// requests of one connection are handled one at a time and see the state
// the turn goroutine left.
func (s *session) dispatch(typ string, r route, p *payload) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !r.anySession && !s.checkSessionID(p) {
		return
	}
	act := r.run(s, p)
	if msg := p.problem(); msg != "" {
		s.fail(codeValidationFailed, srcProtocol, msg)
		return
	}
	if r.idle && s.turn != nil {
		if typ == "user_message" && s.mutated(mutBusyEcho) {
			s.emit(echoOf(s, p))
			return
		}
		s.fail(codeBusy, srcSession, busyMessage)
		return
	}
	if act != nil {
		act()
	}
}

// checkSessionID enforces "Every message (except client_hello) must include
// sessionId": a missing or malformed one fails validation, another
// connection's (or an invented) one is unknown_session.
func (s *session) checkSessionID(p *payload) bool {
	v, ok := p.get("sessionId")
	id, isStr := v.(string)
	switch {
	case !ok:
		s.fail(codeValidationFailed, srcProtocol, p.typ+" missing sessionId")
	case !isStr || strings.TrimSpace(id) == "":
		s.fail(codeValidationFailed, srcProtocol, p.typ+" sessionId must be a non-empty string, got "+jsonx.Kind(v))
	case id != s.id:
		s.fail(codeUnknownSession, srcProtocol, fmt.Sprintf("Unknown sessionId %q: this connection's session is %q", clip(id), s.id))
	default:
		return true
	}
	return false
}
