package coworker

import (
	"sync"

	"github.com/wsconform/wsconform/reference/server"
)

// session is one AgentSession. Coworker has one session per connection and
// no resumption (§Connection, §Important Behaviors), so the session is the
// connection's: created on connect, disposed of on disconnect. All state is
// here, behind mu; every event is marshalled and queued while mu is held,
// so the client sees events in the order the state changed.
type session struct {
	env  *server.Env
	conn *server.Conn
	gate *gate
	id   string
	// created is when the session started: the backup's createdAt.
	created string

	mu        sync.Mutex
	cfg       configSubset
	enableMcp bool
	// turn is the running agent turn; nil when idle. busy == (turn != nil).
	turn *turn
	// todos is the agent's task list. The transcript is not kept: nothing
	// in the protocol reads it back, so memory does not grow with the
	// session.
	todos []todoItem
	// completed counts turns that ran to their end (for checkpoints).
	completed int
	providers providerState
	skills    []skill
	backup    backupState
	harness   *harnessContext
}

func newSession(env *server.Env, c *server.Conn) *session {
	s := &session{
		env:       env,
		conn:      c,
		gate:      newGate(),
		id:        env.IDs.UUID(),
		created:   env.Stamp(),
		cfg:       defaultConfig(),
		enableMcp: true,
		providers: newProviderState(),
		skills:    newSkills(),
	}
	if id := c.URL.Query().Get("resumeSessionId"); id != "" && s.mutated(mutSessionResumed) {
		s.id = id // the old session's id: a resumption the spec rules out
	}
	c.OnPressure(s.gate.set)
	return s
}

// mutated reports whether the server was asked to commit mutation name.
func (s *session) mutated(name string) bool { return s.env.Mutations.Has(name) }

// emit marshals v and queues it for the client. The caller holds mu. A
// failed send means the connection is ending; Closed cleans up.
func (s *session) emit(v any) {
	data, err := server.Marshal(v)
	if err != nil {
		s.env.Log.Error("coworker: drop event", "session", s.id, "err", err)
		return
	}
	_ = s.conn.SendRaw(data)
}

// h is the head of an event of type typ on this session.
func (s *session) h(typ string) head { return head{Type: typ, SessionID: s.id} }

// fail emits an error event; the caller holds mu. The session's id goes
// out even when the client sent a wrong one: error is an event of this
// session.
func (s *session) fail(code, source, msg string) {
	if s.mutated(mutErrorCode) {
		code = "agent_failure"
	}
	if s.mutated(mutRefusalUnnamed) {
		msg = unnamedRefusal
	}
	s.emit(errorEvent{head: s.h("error"), Message: msg, Code: code, Source: source})
}

// hello sends what a new connection gets before anything else: server_hello,
// session_settings (§session_settings: "Sent on connect (after
// server_hello)") and observability_status (§observability_status:
// "Emitted on connection").
func (s *session) hello() {
	s.mu.Lock()
	defer s.mu.Unlock()
	hello := serverHello{
		head:            s.h("server_hello"),
		ProtocolVersion: protocolVersion,
		Capabilities:    capabilities{ModelStreamChunk: "v1"},
		Config:          s.cfg,
	}
	if s.mutated(mutHelloNoSession) {
		hello.SessionID = ""
	}
	if s.mutated(mutHelloProtocol2) {
		hello.ProtocolVersion = "2.0"
	}
	if s.mutated(mutNoChunkCapability) {
		hello.Capabilities = capabilities{}
	}
	if s.mutated(mutHelloNotFirst) {
		s.emitSettings()
		s.emit(hello)
	} else {
		s.emit(hello)
		s.emitSettings()
	}
	s.emit(observabilityStatus(s))
}

func (s *session) emitSettings() {
	s.emit(sessionSettings{head: s.h("session_settings"), EnableMcp: s.enableMcp})
}

// close disposes of the session: "disconnecting disposes the session and
// rejects all pending ask/approval deferreds". The running turn stops.
func (s *session) close() {
	s.mu.Lock()
	t := s.turn
	s.mu.Unlock()
	if t != nil {
		t.halt()
	}
}
