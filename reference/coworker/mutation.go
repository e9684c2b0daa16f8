package coworker

import "github.com/wsconform/wsconform/reference/server"

// Mutation names: the deliberate spec violations this server commits on
// request (--mutate NAME), so the conformance runner can prove it catches
// each one.
const (
	mutHelloNoSession     = "coworker-hello-without-session-id"
	mutHelloProtocol2     = "coworker-hello-protocol-2"
	mutHelloNotFirst      = "coworker-settings-before-hello"
	mutPongForeignSession = "coworker-pong-foreign-session-id"
	mutChunkRepeat        = "coworker-chunk-index-repeats"
	mutChunkSkip          = "coworker-chunk-index-skips"
	mutNoChunkCapability  = "coworker-stream-without-capability"
	mutBusyEcho           = "coworker-busy-message-accepted"
	mutErrorCode          = "coworker-error-code-unlisted"
	mutResetMisnamed      = "coworker-reset-answered-as-reset"
	mutSessionResumed     = "coworker-session-resumed"

	// Behaviours a real server may have that make a scenario prove
	// nothing (issue 24, vacuous passes): no check rule fires, and the
	// runner's mutation tables name the scenarios that must go
	// inconclusive (or fail, where the behaviour is also a violation).
	// Observability off and refusal texts that name nothing are the
	// server's choice (Allowed); the others break the spec.
	mutObservabilityOff = "coworker-observability-disabled"
	mutApprovalDeclined = "coworker-approval-always-declined"
	mutDenialIgnored    = "coworker-approval-denial-ignored"
	mutAnswerIgnored    = "coworker-ask-answer-ignored"
	mutRefusalUnnamed   = "coworker-refusals-name-nothing"
	mutPingUnanswered   = "coworker-ping-unanswered"
)

// observabilityOffMessage is agent-coworker's own answer to every query
// when its observability is off (src/observability/query.ts).
const observabilityOffMessage = "Observability is disabled for this session."

// unnamedRefusal is the text of every error under mutRefusalUnnamed: it
// names no member, value or condition.
const unnamedRefusal = "Request refused."

// foreignSessionID is the session id of no connection, for the mutation
// that makes pong carry another session's id.
const foreignSessionID = "00000000-0000-4000-8000-00000000dead"

// Mutations are the deliberate spec violations this server can commit.
// Each changes one thing and names the check rule that catches it.
var Mutations = []server.Mutation{
	{Name: mutHelloNoSession, Rule: "schema.violation",
		Summary: "server_hello omits sessionId (§server_hello; \"All events are JSON with a type and sessionId\")"},
	{Name: mutHelloProtocol2, Rule: "schema.violation",
		Summary: "server_hello announces protocolVersion \"2.0\" instead of \"3.0\" (§Protocol v3 Migration)"},
	{Name: mutHelloNotFirst, Rule: "coworker.hello-first",
		Summary: "session_settings is sent before server_hello, which must be the first message (§Handshake Flow)"},
	{Name: mutPongForeignSession, Rule: "coworker.session-id",
		Summary: "pong carries another session's id instead of echoing the ping's (§pong)"},
	{Name: mutChunkRepeat, Rule: "coworker.chunk-index",
		Summary: "the third model_stream_chunk of each turn repeats the second one's index (§model_stream_chunk: index is monotonic)"},
	{Name: mutChunkSkip, Rule: "coworker.chunk-gap",
		Summary: "the third model_stream_chunk of each turn skips an index (§model_stream_chunk: index is monotonic, 0-based)"},
	{Name: mutNoChunkCapability, Rule: "coworker.chunk-capability",
		Summary: "server_hello announces no capabilities, yet turns stream model_stream_chunk (§Protocol v3 Migration: capability-gated)"},
	{Name: mutBusyEcho, Rule: "coworker.busy-error",
		Summary: "a user_message sent while busy is echoed as accepted instead of refused with error busy (§user_message: only one at a time)"},
	{Name: mutErrorCode, Rule: "schema.violation",
		Summary: "error events carry code \"agent_failure\", which is not one of the spec's codes (§error)"},
	{Name: mutResetMisnamed, Rule: "frame.type-undocumented",
		Summary: "reset is confirmed with a message of type reset, a client type, instead of reset_done (§reset_done)"},
	{Name: mutSessionResumed, Rule: "coworker.no-resumption",
		Summary: "a connection to /ws?resumeSessionId=ID gets session ID back, as agent-coworker does (§Connection: \"there is no resumption\")"},
	{Name: mutObservabilityOff, Allowed: true,
		Summary: "observability is off, as on agent-coworker without a back end: observability_status enabled false and every non-blank observability_query answered by a result with status \"error\" and \"" + observabilityOffMessage + "\", whatever its window, and every SLO check unmeasured (actual null, pass false)"},
	{Name: mutApprovalDeclined,
		Summary: "every approval_response is taken as a denial, approved: true included: no approved command ever runs"},
	{Name: mutDenialIgnored,
		Summary: "approval_response {approved: false} runs the command as if approved (§approval_response: \"Approve or deny a command\")"},
	{Name: mutAnswerIgnored,
		Summary: "an ask_response unblocks the agent without its answer: the reply is \"You answered: None\""},
	{Name: mutPingUnanswered,
		Summary: "no ping is answered (§ping → pong), so \"the old sessionId gets no pong\" holds for every sessionId"},
	{Name: mutRefusalUnnamed, Allowed: true,
		Summary: "every error event's message is \"" + unnamedRefusal + "\": the codes stay right, but no refusal says what it is about"},
}
