// Package minicodex is the reference server of the MiniCodex WebSocket
// protocol v1 (shared/specs/minicodex-v1.md): one WebSocket endpoint, /ws,
// server-authoritative sessions that several connections share, an event
// log with strictly increasing event_id per session, resume with replay,
// tool approvals and aborts, driven by the scripted agent
// (reference/agent).
//
// # Sessions and handshake
//
// A connection's first command is hello or resume (ping is answered at any
// time). hello without a session id starts a new session (id "sess_…") and
// is answered welcome, then snapshot (with the transcript window), then
// every new event. A session id attaches to an existing session; it may
// come in the envelope's session_id or in the query (/ws?session_id=ID);
// both are accepted and must agree when both are given. hello with a
// session id joins that session as another viewer (welcome + snapshot, no
// replay); resume answers welcome and then replays every logged event
// after last_seen_event_id, byte for byte as first sent (null or absent
// last_seen_event_id replays from the start).
//
// # Resume without a session id
//
// The spec's Resume is {type: "resume", last_seen_event_id} and nothing
// else: it reads as if a server had one session (one agent instance). A
// resume that names no session (neither envelope nor query) rejoins, in
// this order:
//
//  1. the session this client last attached to (hello or resume), told by
//     its lineage cookie: every 101 response without one sets
//     minicodex_client=<token> (Path=/, HttpOnly, SameSite=Strict). A
//     browser sends it back on its reconnects; a client without a cookie
//     jar simply does not, and falls through to the rules below. Two tabs
//     of one browser share the cookie: the later handshake wins;
//  2. the server's only session;
//  3. the server's only session that no connection is attached to (the
//     one a dropped client left behind).
//
// Otherwise the resume is ambiguous and refused with MISSING_FIELD
// (details field "session_id", sessions: how many the server holds).
// After a handshake, a command whose envelope session_id names another
// session is refused (BAD_ARGUMENT), and so is a second hello or resume
// (INVALID_COMMAND): to change sessions, reconnect. hello.client_capabilities
// is checked (a list of strings) and otherwise not used; hello.v must be 1.x.
//
// When some of the events to replay have left the replay window (or they
// are more than fit in a client's send queue: min(ReplayWindow,
// QueueSize-16)), resume answers welcome and then error
// REPLAY_WINDOW_EXCEEDED with details {action: "get_snapshot",
// last_seen_event_id, oldest_event_id, last_event_id}; the connection then
// receives no events until it sends get_snapshot, whose snapshot covers
// everything up to its event_id, so the client never sees an event past a
// gap it cannot fill.
//
// # Scripted agent → events
//
// send{text} is answered accepted{req_id, run_id} on the sending
// connection; the run's events go to every live connection of the session:
//
//	run_status starting, user_text{text, client_msg_id}, run_status running
//	reasoning per Script.Reasoning chunk                          (/think)
//	Tool:   tool_call{name, args, call_id}
//	        needs approval (/tool): approval_pending{call_id, tool_key: name,
//	          args_json}, run_status awaiting_approval (pending_approvals
//	          lists the call); then approve → approval_decision approve,
//	          run_status running, function_call_output; deny →
//	          approval_decision deny_continue, run_status running, and the
//	          reply is agent.DeniedReply instead of the chunks
//	        no approval (/exec): function_call_output right away
//	Question (/ask): the protocol has no question message, so the question
//	        (with its options) is streamed as assistant_text and the turn
//	        ends; the user answers with the next send
//	assistant_text per reply chunk, Script.Pause between chunks
//	success: run_status finished
//	Script.Fail (/fail): error{code: RUN_FAILED, message, run_id, event_id},
//	        run_status error
//	turn_done{run_id} last, when the run emitted no function_call_output
//	        (§Semantics: Run completion), also after error and abort
//
// function_call_output carries both result (a CallToolResult object, the
// Pydantic reading) and output (the text, the TypeScript reading). Every
// event carries run_id, event_id and ts. The RUN_FAILED error is an event
// (it has an event_id, is logged and replayed), unlike the error answers to
// refused commands, which go to one connection and carry no event_id.
//
// abort (while a run is active; run_id optional) answers accepted, emits run_status
// aborting, decides every pending approval deny_abort
// (approval_decision), and the run ends with run_status finished (the
// spec's "aborted" is not a RunState status; aborting before finished tells
// an aborted run apart) and turn_done unless the tool had already output.
// A second abort while the run is aborting is acknowledged and changes
// nothing.
//
// An approval that nobody decides within PromptTimeout is decided
// deny_continue by the server. A run goes on when its clients disconnect
// (the state is the server's); a resume picks it up.
//
// # Other commands
//
//   - ping{nonce} is answered accepted{req_id}: the spec names no pong. The
//     req_id is the ping's req_id, or its nonce when it has none.
//   - get_snapshot answers snapshot{session_state, run_state (the newest run,
//     null before the first), transcript, event_id (the session's last)}.
//     transcript is the transcript window when include_transcript_window is
//     true and [] otherwise; RunState never carries transcript_window
//     (the Pydantic RunState forbids it), so the window travels in
//     snapshot.transcript. The snapshot after hello always carries it.
//   - approve/deny answer accepted, then the decision event.
//   - A send whose client_msg_id started an earlier run (the active one or
//     one of the session's last 256) is ignored: it is answered accepted with
//     that run's run_id and starts nothing. This covers the spec's "within a
//     run" and a retry that arrives after the run ended.
//   - heartbeat{interval_ms} every Config.Heartbeat on every connection,
//     from the upgrade on; backpressure{state: drain|ok} when a connection's
//     send queue passes three quarters and when it drained below a quarter.
//     While a live connection drains, a run's stream waits for it (it goes
//     as fast as the slowest client reads); a client that does not read at
//     all is closed with 1013 by the plumbing.
//
// # Errors
//
// A text frame that is not valid UTF-8 is not a command but a broken frame:
// it fails the connection with 1007 (RFC 6455 §8.1), unanswered, and
// nothing after it is handled.
//
// Every refused command is answered {type: error, code, message, details?,
// req_id (echoed when the command had a string req_id)} on its connection
// and changes no state:
//
//	INVALID_COMMAND   binary frame; frame over MaxFrame (details size, max);
//	                  not JSON; not an object; no type, a type that is not a
//	                  string, or an unknown type (details type); a command
//	                  other than ping before hello/resume; hello/resume on a
//	                  connection already attached
//	MISSING_FIELD     a required member is absent: hello.v, send.text,
//	                  approve/deny.call_id; resume with no session id in the
//	                  envelope or the query when no session can be told
//	                  (see "Resume without a session id"; details field,
//	                  sessions)
//	BAD_ARGUMENT      a member of the wrong type (null for a required member,
//	                  include_transcript_window null, a fractional
//	                  last_seen_event_id, a ts that is not RFC 3339); a member
//	                  the command's model does not define (the Pydantic models
//	                  forbid extras); empty or blank send.text; hello.v not
//	                  1.x (details supported); an unknown session id (details
//	                  session_id), or session ids in query and envelope that
//	                  differ, or a command naming another session;
//	                  last_seen_event_id below 0 or beyond the session's last
//	                  event (details last_event_id). details.field names the
//	                  member.
//	BUSY              send while a run is active (details active_run_id)
//	NOT_RUNNING       abort while no run is active
//	STALE_RUN_ID      abort whose run_id is not the active run (details
//	                  run_id, active_run_id)
//	UNKNOWN_CALL_ID   approve/deny of a call_id no approval_pending announced
//	                  (or one older than the session's last 256 calls)
//	APPROVAL_CONFLICT approve/deny of a call already decided: a second
//	                  decision, one by another client, or one on a call
//	                  aborted (details decision)
//	REPLAY_WINDOW_EXCEEDED  resume beyond the replay window (see above)
//	RUN_FAILED        not a refusal: the event of a run that failed
//
// Envelope run_id is only checked on abort; other commands ignore it.
//
// # Bounds
//
// Per session: the replay log (Config.ReplayWindow events), the transcript
// window (100 items; streamed chunks of one run merge into one item of at
// most 16 KiB), the last 256 calls and client_msg_ids. The server keeps at
// most 1024 sessions once they are idle (no connection, no run); beyond
// that the least recently used idle ones are forgotten, and resuming one is
// BAD_ARGUMENT (unknown session).
//
// # Spec ambiguities
//
// Every message satisfies every reading the check engine knows
// (minicodex.ambiguous.*): events carry event_id, function_call_output
// carries result and output, defaulted members (capabilities, run_counter,
// pending_approvals, args, transcript) are always present, RunState has no
// transcript_window, and run_id is always a UUID.
//
// # Mutations
//
// Mutations lists the deliberate violations (--mutate NAME); each is
// checked where the server would otherwise behave.
package minicodex
