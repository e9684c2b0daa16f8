// Package coworker is the reference server of the coworker dialect
// (agent-coworker WebSocket protocol v3, coworker-v3.md): one WebSocket
// path, /ws, one AgentSession per connection, every client request of the
// spec answered from deterministic in-memory data, and the scripted agent
// (reference/agent) behind user_message and execute_command.
//
// # Connection
//
// On connect the server sends server_hello (a UUID sessionId from Env.IDs,
// protocolVersion "3.0", capabilities {modelStreamChunk: "v1"}, config),
// then session_settings (§session_settings: "Sent on connect (after
// server_hello)"), then observability_status (§observability_status:
// "Emitted on connection"). Disconnecting disposes of the session and
// stops its turn; there is no resumption, so a reconnect is a new session
// with a new id, and the replay log of the plumbing is not used. The
// dialect has no server heartbeat (Config.Heartbeat is unused) and no
// authentication.
//
// # The scripted agent as a coworker turn
//
// user_message {text} and execute_command run agent.Plan(text) as one turn:
//
//	user_message (echo, with clientMessageId when given), session_busy {busy: true}
//	model_stream_chunk start {}, start_step {}
//	Reasoning:  reasoning_start / reasoning_delta… / reasoning_end {id: "rsn_1", mode: "reasoning"},
//	            then the legacy reasoning {kind: "reasoning", text: all of it}
//	Tool:       todos [{Run NAME, in_progress}], tool_input_start / tool_input_delta
//	            (the arguments as JSON) / tool_input_end {id: call_N}, tool_call {input};
//	            when it needs approval (/tool): approval {requestId: req-approval-N,
//	            command, dangerous, reasonCode} and the agent blocks until
//	            approval_response; approved or /exec: log "[tool NAME] OUTPUT" and
//	            tool_result {output}; denied: tool_output_denied and the reply
//	            agent.DeniedReply; then todos [{…, completed}], finish_step
//	            {finishReason: "tool-calls"}, start_step {}
//	Question:   ask {requestId: req-ask-N, question, options} (confirm: yes/no;
//	            select, multiselect: three colours; text: no options); the
//	            agent blocks until ask_response; the reply is agent.AnsweredReply
//	Reply:      text_start / text_delta… / text_end {id: "txt_1"}, Script.Pause
//	            between deltas (Config.Chunk, or Config.Slow for /slow)
//	Success:    finish_step and finish {finishReason: "stop"}, assistant_message
//	            {text: the whole reply} (legacy, "still emitted"), the automatic
//	            checkpoint session_backup_state {reason: "auto_checkpoint"},
//	            session_busy {busy: false}
//	Fail:       error part {error: {message}}, finish {finishReason: "error"},
//	            error {code: internal_error, source: session}, the automatic
//	            checkpoint, session_busy {busy: false}; no assistant_message
//	Cancel:     abort part {reason}, session_busy {busy: false}; a pending ask or
//	            approval is rejected: answering it later fails as unknown
//
// Chunk indexes count 0, 1, 2, … per turnId (a UUID per turn); provider
// and model are the session's config when the turn started. Events of one
// session are queued under its mutex, so they reach the client in order,
// and a turn's last events and its session_busy false go out together. A
// streaming turn waits while the connection's send queue is above its
// high-water mark (Conn.OnPressure), so a fast stream never overflows the
// queue of a client that reads.
//
// execute_command echoes "/NAME ARGS" (§Command Execution) and runs the
// command's template with $ARGUMENTS and $1…$9 filled in. Commands: the
// built-ins review, init and script (template "$ARGUMENTS", so any agent
// hint can be sent as a command), the MCP prompt docs-summarize while MCP
// is enabled, and every enabled skill.
//
// # Requests and their answers
//
//	ping → pong; client_hello → nothing ("silently acknowledged"); reset → reset_done
//	provider_catalog_get → provider_catalog; provider_auth_methods_get → provider_auth_methods
//	refresh_provider_status → provider_status
//	provider_auth_authorize (OAuth method) → provider_auth_challenge
//	provider_auth_callback → provider_auth_result, and when ok provider_status + provider_catalog
//	provider_auth_set_api_key → provider_auth_result, and when ok provider_status + provider_catalog
//	set_model → config_updated; list_tools → tools; list_commands → commands
//	list_skills, disable_skill, enable_skill, delete_skill → skills_list; read_skill → skill_content
//	set_enable_mcp → session_settings
//	session_backup_get/checkpoint/restore/delete_checkpoint → session_backup_state
//	  (reason requested / manual_checkpoint / restore / delete)
//	observability_query → observability_query_result; harness_context_get/set → harness_context
//	harness_slo_evaluate → harness_slo_result
//
// The data (catalog.go): five providers (openai connected by API key at
// start; codex-cli signs in by OAuth "auto", claude-code by OAuth "code" or
// API key), the tools of the spec's example plus one MCP tool while MCP is
// on, four skills (project, two global of which one disabled, built-in),
// empty query results in each backend's format, SLO actuals of a healthy
// system (latency 120, error_rate 0, custom 0). Skills and backups are
// per session and touch no disk. Checkpoints are bounded (the newest 64).
//
// # Errors
//
// Every error event carries the connection's sessionId. Checks run in this
// order, the first failing one answers:
//
//	binary frame                              invalid_payload   protocol
//	larger than Config.MaxFrame               invalid_payload   protocol
//	not UTF-8, not JSON, data after the value invalid_json      protocol
//	JSON but not an object                    invalid_payload   protocol
//	type missing or not a string              missing_type      protocol
//	type unknown (connect_provider: says it   unknown_type      protocol
//	  was removed in 3.0 and what replaces it)
//	sessionId missing, not a string, empty    validation_failed protocol
//	sessionId not this connection's           unknown_session   protocol
//	member missing, mistyped, out of its enum validation_failed protocol
//	  or empty where a name is required
//	  (also provider not a ProviderName, methodId not the provider's)
//	user_message, execute_command, reset, set_model, session_backup_checkpoint,
//	  session_backup_restore, session_backup_delete_checkpoint while a turn
//	  runs                                    busy "Agent is busy" session
//	ask_response naming no pending ask        validation_failed session
//	approval_response naming no pending       validation_failed tool
//	  approval (unknown, answered, cancelled, or an ask's id)
//	execute_command of an unknown command     validation_failed session
//	read/enable/disable/delete of an unknown  validation_failed session
//	  skill
//	skill name with / \ or ..                 permission_denied permissions
//	enable/disable/delete of a non-global     permission_denied permissions
//	  skill
//	set_model of a model the provider lacks   provider_error    provider
//	authorize/callback on an API-key method,  provider_error    provider
//	  set_api_key on an OAuth method
//	restore of an unknown checkpoint          backup_error      backup
//	delete of an unknown checkpoint           validation_failed backup
//	blank query, fromMs after toMs, SLO check observability_error observability
//	  with a blank query
//	a failed turn (/fail)                     internal_error    session
//	a recovered panic (none known)            internal_error    session
//
// A failed auth attempt that was well-formed is not an error but a
// provider_auth_result {ok: false}: callback with no authorize before it,
// a code method's callback without code, an API key shorter than 8
// characters.
//
// # Choices where the spec is silent
//
//   - Binary and oversized frames are invalid_payload (the spec has no code
//     for them); an oversized frame is drained, never parsed.
//   - A missing sessionId is validation_failed ("Required field missing"),
//     a wrong one unknown_session; the sessionId is checked before the
//     other members, which are checked before the busy state.
//   - cancel with no turn running is ignored: it may cross the turn's end.
//   - ask and approval have no timeout (the spec: "Blocks the agent until
//     you reply"); Config.PromptTimeout is unused. cancel and disconnect
//     end the wait.
//   - Requests refused while busy are those that start a turn or change
//     what a running one works on (see above); the backup ones follow the
//     reference implementation. Everything else is answered while busy.
//   - The automatic checkpoint follows every turn that ran to its end
//     (success or /fail, not cancel) and is sent before session_busy false,
//     so a client that waits for idle has the new backup state.
//   - set_enable_mcp is answered with session_settings even when nothing
//     changed; disable/enable/delete_skill are answered with skills_list.
//   - The legacy reasoning event follows its reasoning parts (mid-turn, as
//     §Cancel In-Flight Turn shows it); assistant_message follows finish.
//   - Skill, backup, provider and harness state is per session.
package coworker
