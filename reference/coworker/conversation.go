package coworker

import (
	"fmt"
)

// The conversation requests: client_hello, ping, user_message, the answers
// to ask and approval, cancel and reset. Each runs with the session's lock
// held (see dispatch) and returns the action to take once the message
// passed validation and the busy check.

// clientHello is "silently acknowledged" (§Handshake Flow): validated,
// never answered.
func (s *session) clientHello(p *payload) func() {
	p.name("client")
	p.optStr("version")
	return nil
}

// ping answers pong echoing the ping's sessionId, which dispatch has
// already checked is this connection's.
func (s *session) ping(p *payload) func() {
	return func() {
		if s.mutated(mutPingUnanswered) {
			return
		}
		h := s.h("pong")
		if s.mutated(mutPongForeignSession) {
			h.SessionID = foreignSessionID
		}
		s.emit(h)
	}
}

// userMessage echoes the message, then runs an agent turn on its text.
func (s *session) userMessage(p *payload) func() {
	text := p.str("text")
	p.optStr("clientMessageId")
	return func() { s.startTurn(echoOf(s, p), text) }
}

// echoOf is the user_message echo of a client's user_message: its text and
// clientMessageId, "echoed back for dedup".
func echoOf(s *session, p *payload) userMessageEcho {
	e := userMessageEcho{head: s.h("user_message")}
	e.Text, _ = p.m["text"].(string)
	e.ClientMessageID, _ = p.m["clientMessageId"].(string)
	return e
}

// askResponse unblocks the turn waiting on that ask.
func (s *session) askResponse(p *payload) func() {
	id := p.name("requestId")
	answer := p.str("answer")
	if s.mutated(mutAnswerIgnored) {
		answer = "None"
	}
	return func() {
		s.answer("ask", id, reply{answer: answer}, srcSession)
	}
}

// approvalResponse unblocks the turn waiting on that approval. Errors name
// the tool source: the approval is a step of a tool call's lifecycle.
func (s *session) approvalResponse(p *payload) func() {
	id := p.name("requestId")
	approved := p.boolean("approved")
	switch {
	case s.mutated(mutApprovalDeclined):
		approved = false
	case s.mutated(mutDenialIgnored):
		approved = true
	}
	return func() {
		s.answer("approval", id, reply{approved: approved}, srcTool)
	}
}

// answer hands a reply to the pending request it names. A requestId that
// is not the pending one of that kind (never announced, already answered,
// rejected by cancel, or the other kind's) fails validation: "requestId
// pairing" (§Important Behaviors).
func (s *session) answer(kind, id string, r reply, source string) {
	var pending *pendingReq
	if s.turn != nil {
		pending = s.turn.pending
	}
	if pending == nil || pending.id != id || pending.kind != kind {
		s.fail(codeValidationFailed, source, fmt.Sprintf("Unknown %s requestId %q: no %s with that id is waiting for a response", kind, clip(id), kind))
		return
	}
	s.turn.pending = nil
	pending.reply <- r // buffered: never blocks
}

// cancel aborts the running turn; the turn emits session_busy false once
// it stopped. A pending ask or approval is rejected (forgotten): a late
// answer to it fails as unknown. With no turn running there is nothing to
// abort and cancel is ignored: a cancel that crosses the turn's end on the
// wire is not the client's fault.
func (s *session) cancel(p *payload) func() {
	return func() {
		if s.turn == nil {
			return
		}
		s.turn.pending = nil
		s.turn.halt()
	}
}

// reset clears the conversation (which the scripted agent does not keep)
// and the todos, and confirms with reset_done.
func (s *session) reset(p *payload) func() {
	return func() {
		s.todos = nil
		typ := "reset_done"
		if s.mutated(mutResetMisnamed) {
			typ = "reset"
		}
		s.emit(s.h(typ))
	}
}
