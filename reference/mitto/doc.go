// Package mitto is the reference server of the mitto dialect (mitto.md): a
// {type, data} protocol where every conversation event carries data.seq,
// numbered per session, and max_seq, the highest seq the session has, and
// where a client catches up with load_events instead of a replay.
//
// # Sessions and connections
//
// The WebSocket is /ws. The spec names no path or session parameter, so:
// ?session_id=ID joins session ID, creating it when the server does not
// have it (a client may pick its own id); no parameter starts a new session
// whose id connected.session_id names. A session_id that is empty, longer
// than 128 characters or not made of A-Z a-z 0-9 . _ : - is refused with
// HTTP 400 before the upgrade. Each connection gets its own client_id
// (connected.client_id, user_prompt.sender_id). ?legacy=1 makes the server
// send permission requests to that connection as the legacy permission
// message instead of ui_prompt.
//
// State is the server's and lives in the session: seq, the stored events
// (the newest ReplayWindow of them), the running turn, the prompt queue,
// open prompts, the name. Sessions outlive their connections: a turn keeps
// running with nobody attached, and a client that comes back with the same
// session_id finds connected.last_user_prompt_id/_seq and load_events.
// At most Config.MaxSessions (256) sessions without a client are kept,
// for at most Config.SessionTTL (10m); past that the least recently left
// idle one is forgotten (a turn still running keeps its session).
//
// # The scripted agent
//
// A prompt is answered at once with prompt_received (to the sender), then
// the user_prompt event is broadcast to every client of the session,
// is_mine true only where client_id is the sender_id. Then the script
// (agent.Plan of the message) plays, every event numbered with the next
// seq and max_seq equal to it, is_prompting true:
//
//	Reasoning         one agent_thought {text} per chunk
//	Tool (/exec)      tool_call {id, title: "NAME ARGS", status: pending},
//	                  tool_update in_progress, tool_update completed
//	Tool (/tool)      tool_call pending, then ui_prompt permission
//	                  (allow_once / reject_once, tool_call_id, blocking) and a
//	                  wait: allowed → in_progress, completed; denied or timed
//	                  out → tool_update failed and the agent's denied reply
//	Question (/ask)   ui_prompt, blocking, and a wait; the reply is "You
//	                  answered: LABEL" (or the free_text typed)
//	Chunks            one agent_message per chunk, html = the chunk
//	                  HTML-escaped, Pause between chunks
//	Fail (/fail)      error {code: agent_error, message} to every client
//
// and the turn ends with prompt_complete {event_count, max_seq} to every
// client. event_count is the number of events the session holds in total
// (its max_seq; seqs run from 1 without gaps).
//
// /ask KIND maps onto the spec's prompt types: confirm (the default) →
// yes_no (yes/no); select → select; multiselect → options_buttons (the
// spec has no multi-choice type; the agent's three options fit its limit of
// four); text → options_buttons with submit/skip and "free_text": true (the
// spec has no free-text type; a ui_prompt_answer may carry free_text, which
// becomes the answer). "/ask TYPE QUESTION" with TYPE one of yes_no,
// options_buttons, select, permission or action_buttons asks that type
// directly. action_buttons (follow-up hints) is non-blocking: the turn does
// not wait, the prompt stays open until answered or until the next turn
// starts, which dismisses it; answering it only closes it (the client sends
// the chosen follow-up as a prompt of its own).
//
// A blocking prompt waits env.PromptTimeout (timeout_seconds is that,
// rounded up to whole seconds); then it is dismissed with
// ui_prompt_dismiss and answered as "timed out" (a permission is denied). A
// prompt answered by one client is dismissed on every other client of the
// session, so a second tab closes it. ui_prompt_answer's option_id must be
// one of the prompt's; its label is not checked (the option's own label is
// used) and may be absent. The legacy permission_answer is accepted in the
// spec's shape {request_id, approved} for permission and yes_no prompts
// (approved picks allow_once/yes, otherwise reject_once/no) and in the
// shape the real Mitto sends, {request_id, option_id} or {request_id,
// cancel: true} (a denial).
//
// cancel stops the running turn: its open prompt is dismissed, a tool call
// in flight gets tool_update failed, and prompt_complete follows. Queued
// prompts are kept and the next one starts.
//
// A prompt that arrives while the agent is prompting is acknowledged with
// prompt_received and queued (keepalive_ack.queue_length); its user_prompt
// is broadcast when its turn starts. A prompt_id the session saw recently
// (the last 256) is acknowledged again and not run twice: a client that
// resends after a reconnect is safe.
//
// # load_events
//
// Stored events are {type, seq, data} with data the event's members less
// seq, max_seq, is_prompting and is_mine; every load returns the same bytes
// for a seq. limit defaults to 50 and is capped at 500 (a larger limit is
// served as 500, not refused). The initial load returns the newest limit
// events; before_seq the newest limit events below it (prepend true);
// after_seq the oldest limit events above it (the limit binds a sync too,
// which satisfies both readings of the spec; has_more then says newer events
// remain). An after_seq above max_seq (a session the server forgot or
// restarted) is answered like an initial load. has_more is true when the
// server still stores events beyond the page; total_count is the number of
// events stored (the ReplayWindow bounds it, older events are gone). An
// empty page has first_seq and last_seq 0. is_prompting and max_seq are
// the session's at the time of the answer.
//
// # keepalive and rename_session
//
// keepalive_ack echoes client_time as sent, server_time is env.Now in epoch
// milliseconds, max_seq, is_prompting, is_running (always true: the scripted
// agent is always connected), queue_length and status: "error" after a turn
// failed, until the next turn starts, "active" otherwise ("completed" is
// never used: a session never ends). rename_session has no reply in the
// spec; the name (trimmed, 1 to 256 characters) shows as an extra "name"
// member of connected and keepalive_ack. The dialect has no server
// heartbeat: env.Heartbeat is unused, the client's keepalive is the
// liveness check.
//
// # Errors
//
// mitto.md defines error {message, code?} but names no code; these are
// the server's. A client mistake is answered to that client only, and the
// connection and the session stay as they were:
//
//	binary_not_supported  a binary frame
//	message_too_large     a message larger than env.MaxFrame
//	invalid_json          not JSON, or not valid UTF-8
//	invalid_message       not an object; type missing or not a string;
//	                      data missing or not an object (cancel may omit
//	                      it or send null); a required member missing or
//	                      of the wrong type (limit, before_seq and after_seq
//	                      are integers, limit ≥ 1, seqs ≥ 0); an empty
//	                      prompt_id or name; permission_answer without
//	                      approved, option_id or cancel, or with approved
//	                      for a prompt other than permission or yes_no
//	unknown_type          a type the client may not send
//	conflicting_params    load_events with both before_seq and after_seq
//	unknown_request       an answer naming no open prompt (never asked,
//	                      already answered, timed out, dismissed)
//	invalid_option        ui_prompt_answer with an option_id not offered
//	not_prompting         cancel while the agent is not prompting
//	queue_full            a prompt while 10 already wait
//
// and one that is not a mistake, sent to every client of the session:
//
//	agent_error           the turn failed (/fail); prompt_complete follows
//
// # Mutations
//
// Mutations (the --mutate names, see Mutations) each break one rule of the
// check engine on purpose; everything else stays as described here.
package mitto
