// Package myagent is the reference server of the MyAgent WebSocket event
// protocol (shared/specs/myagent-events.md): JSON events discriminated by
// "event", served on the manifest's one path, /ws.
//
// # Sessions and connections
//
// A new connection gets system.connected (content {server_version,
// capabilities}, its connection_id) and belongs to no session yet. It
// joins one by
//
//   - user.create_session: a new session, announced by agent.session_created
//     (seq 1 of the session; session ids are the server's, a session_id on
//     the request is ignored);
//   - user.message or user.solve_tasks without session_id: the same, then
//     the run starts;
//   - user.reconnect{session_id}: joins an existing session without replay,
//     answered by agent.state_restored (the state snapshot);
//   - user.reconnect_with_state{session_id, last_seq}: joins after the
//     replay described below;
//   - any other event naming an existing session_id: joins it silently.
//
// A connection stays in its session: naming another session_id is refused
// (SESSION_MISMATCH), and so is a second user.create_session
// (ALREADY_IN_SESSION); a new session needs a new connection. Sessions
// outlive their connections so that clients can resume; up to
// Config.MaxSessions (256) sessions without a connection are kept, for at
// most Config.SessionTTL (10m), the one detached longest forgotten first
// (its run stops silently). A session forgotten is unknown to a resume.
//
// # seq, acks and replay
//
// Every event of a session's stream carries seq, counted 1, 2, 3, … per
// session, is logged in the session's replay buffer (the last
// Config.ReplayWindow events) and goes, as the same bytes, to every
// connection of the session (multi-client fan-out). Replies addressed to
// one connection are not part of the stream, carry no seq and are never
// replayed: system.connected, system.heartbeat, system.notice,
// error.validation, error.recovery_failed, plan.coercion_error,
// agent.state_exported and agent.state_restored. (system.connected comes
// before the connection has a session, so it cannot have a session seq;
// the others follow it so that a replay to one client never carries
// another client's replies.)
//
// user.ack{seq} records the connection's acknowledgement and prunes the
// buffer up to the lowest seq every attached connection has acknowledged
// (ReplayLog.Prune): a second client that has not acknowledged keeps
// events buffered for itself. Acks need no answer. The server does not
// retransmit unacknowledged events on its own; a client gets them back by
// user.reconnect_with_state.
//
// user.reconnect_with_state reads last_seq at the top level, in content
// or in metadata (the spec does not say where; the checker reads the same
// three places in the same order). Without last_seq the replay starts
// after the session's most recent ack. The answer is system.notice
// {message, replay_count, last_seq}, then every buffered event after
// last_seq at the top level, byte-identical to the original, then
// agent.state_restored with the snapshot; live events follow, in order,
// because the replay happens under the session lock. When events after
// last_seq already left the buffer (pruned by acks or pushed out of the
// window) the answer is error.recovery_failed REPLAY_UNAVAILABLE with
// recovery_action "request_state"; the connection joins the session
// anyway and gets the live events. A last_seq beyond the session's last
// seq is error.recovery_failed LAST_SEQ_AHEAD and the connection leaves
// (or does not join) the session: every event it would receive next is one
// it claims to have.
//
// user.request_state is answered with agent.state_exported, metadata.state:
// session_id, created_at, last_seq, acked_seq, buffered_events,
// connections, status (idle, planning, solving, awaiting_confirmation,
// aggregating), pending_confirmation, the latest run's tasks with their
// status and the last 20 transcript lines (user texts and final answers,
// clipped to 200 bytes), and metadata.signed_state, a token a client may
// return as signed_state in user.reconnect_with_state (JasonDZS/myagent
// requires its signed snapshot there; this server ignores it).
//
// system.heartbeat {timestamp} goes to every connection every
// Config.Heartbeat (negative: never).
//
// # The pipeline and the scripted agent
//
// user.message{content: text} (content may also be an object with a text,
// query or question string) runs §Event Flow Architecture / 1 with one
// task whose text is the message:
//
//	plan.start {question}                     metadata {source}
//	plan.completed {tasks:[{id,title,description}]}  metadata {task_count, plan_summary}
//	solver.start {task}                       metadata {task_id, task_count}
//	  agent.thinking                          one per Script.Reasoning chunk, or one "Working on task N: …"
//	  agent.user_confirm                      Script.Tool with NeedsApproval (/tool) and Script.Question (/ask)
//	  agent.tool_call, agent.tool_result      Script.Tool when it runs (/exec, or /tool approved)
//	  agent.partial_answer                    one per Script.Chunks chunk, Script.Pause between them
//	solver.completed {task, result:{status, answer}}   or error.execution for Script.Fail (/fail)
//	aggregate.start, aggregate.completed
//	pipeline.completed
//	agent.final_answer                        the answers of the completed tasks, joined by a blank line
//
// user.solve_tasks runs the same without the plan stage on the tasks it
// gives: content as one task's text, or content.tasks as a list of texts
// or objects with a title, description or question (the text the agent
// plans from is description, else question, else title). Tasks are
// numbered 1..n by the server. At most 20; an unreadable list is
// plan.coercion_error TASK_COERCION_FAILED (a reply, no run starts).
//
// agent.user_confirm has step_id "tool_confirm_N" or "ask_confirm_N",
// content the question, metadata {scope: "tool"|"question", task_id, and
// tool/params/options or kind/options}. The user.response with the same
// step_id answers it: for a tool, content.approved (boolean) is required;
// denied, the tool does not run and the reply is agent.DeniedReply. For a
// question, content.answer (text, or a list of texts joined by ", ") or
// content.approved (yes/no) is required; the reply is
// agent.AnsweredReply. Any client of the session may answer; the first
// answer closes the step. Unanswered for Config.PromptTimeout, the step
// closes with error.timeout CONFIRMATION_TIMEOUT (a stream event) and the
// task fails.
//
// A run ends with agent.final_answer (success), error.execution or
// error.timeout (the task failed; the run stops there and its later tasks
// are skipped), or, after user.cancel, with plan.cancelled (content null,
// when planning) or solver.cancelled {task} (when a task runs or waits
// for a confirmation) followed by agent.interrupted {reason, stage}.
// user.cancel_task{task_id} cancels one task of the running pipeline: a
// running one stops with solver.cancelled and the run goes on with the
// next; a pending one gets solver.cancelled, without solver.start, when
// its turn comes. user.restart_task{task_id} runs a failed, cancelled or
// skipped task of the latest run again once nothing runs:
// solver.restarted {task} (metadata retry_count), then its solver events,
// aggregation and agent.final_answer. task_id is read at the top level,
// in content, in metadata or as content.task.id, as a number, "N" or
// "task_N" (the spec names no member).
//
// Every server event has a timestamp (Env.Stamp), which meets both
// readings of myagent.ambiguous.timestamp-required; stream events carry
// session_id, replies also connection_id. show_content carries a short
// Chinese display text for the stage events, as in the spec's examples.
//
// # Errors
//
// A refused client event is answered on its connection with one error
// event, content a human-readable message, metadata {error_code,
// received_event, and details such as field, expected, step_id}; the
// connection, its session and any run are left as they were.
//
//	error.validation BINARY_FRAME          a binary frame
//	error.validation FRAME_TOO_LARGE       a message over Config.MaxFrame (drained, not read)
//	error.validation INVALID_JSON          not one JSON value
//	error.validation NOT_AN_OBJECT         JSON that is not an object
//	error.validation MISSING_EVENT         no event member
//	error.validation UNKNOWN_EVENT         an event that is not a user.* event of the spec (server events included)
//	error.validation MISSING_FIELD         a required member is absent: user.message content, user.response
//	                                       step_id/content/content.approved/content.answer, user.ack seq,
//	                                       user.cancel_task/restart_task task_id, user.solve_tasks content,
//	                                       the session_id of a reconnect on a connection without session
//	error.validation INVALID_FIELD         a base member of the wrong type (session_id, connection_id,
//	                                       step_id, show_content not strings; timestamp not ISO 8601;
//	                                       metadata not an object; seq or last_seq not an integer >= 0;
//	                                       content neither string nor object), an empty query, a
//	                                       user.response content that is not an object or is mistyped
//	error.validation NO_SESSION            an event that needs a session on a connection without one
//	error.validation SESSION_NOT_FOUND     a session_id the server does not know (or forgot)
//	error.validation SESSION_MISMATCH      a session_id other than the connection's session
//	error.validation ALREADY_IN_SESSION    user.create_session on a connection that has a session
//	error.validation RUN_IN_PROGRESS       user.message, user.solve_tasks or user.restart_task while a run is active
//	error.validation NO_ACTIVE_RUN         user.cancel or user.cancel_task while nothing runs
//	error.validation UNKNOWN_STEP_ID       user.response whose step_id no open agent.user_confirm has
//	error.validation STEP_CLOSED           user.response to a step already answered, timed out or cancelled
//	error.validation UNKNOWN_TASK          cancel/restart of a task the run (latest run) does not have
//	error.validation TASK_STATE            cancelling a finished task, restarting a completed one
//	error.validation ACK_UNSENT            user.ack of a seq beyond the session's last seq
//	error.recovery_failed SESSION_NOT_FOUND  user.reconnect(_with_state) to an unknown session
//	error.recovery_failed REPLAY_UNAVAILABLE the replay after last_seq is no longer complete
//	error.recovery_failed LAST_SEQ_AHEAD     last_seq beyond the session's last seq
//	plan.coercion_error TASK_COERCION_FAILED user.solve_tasks tasks that cannot be read
//	error.timeout CONFIRMATION_TIMEOUT     (stream) a confirmation unanswered for Config.PromptTimeout
//	error.execution EXECUTION_FAILED       (stream) the scripted agent failed (/fail)
//
// Not produced: agent.error, agent.timeout, agent.session_end,
// system.error, error.retry, error.recovery_started,
// error.recovery_success and solver.restarted outside user.restart_task:
// the scripted agent has no model to fail, retry or time out, and a
// session never ends while the server runs.
//
// # Mutations
//
// Mutations lists the deliberate violations (--mutate); each is committed
// at one place, marked by its constant.
package myagent
