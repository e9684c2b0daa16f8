@coworker
Feature: Conversational turns and the structured stream
  coworker-v3.md §user_message, §Normal Conversation, §model_stream_chunk:
  a user_message is echoed, the session turns busy, the turn streams
  model_stream_chunk events (index 0-based and monotonic per turnId) and the
  legacy reasoning/assistant_message events, and the session turns idle.
  The check engine judges every chunk's index order (coworker.chunk-index)
  and that chunks only come after server_hello announced the modelStreamChunk
  capability (coworker.chunk-capability).

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.turn.normal-conversation
  @req:coworker.flow.normal-conversation @req:coworker.user-message-echo.confirmation @req:coworker.user-message-echo.client-message-id @req:coworker.chunk.legacy-events
  Scenario: A user_message runs one turn from echo to idle
    coworker-v3.md §Normal Conversation: user_message echo, session_busy
    {busy: true}, model_stream_chunk (0..N), assistant_message,
    session_busy {busy: false}; §user_message (server): the echo is the
    "confirmation" of the received message, sent once.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "Hello", "clientMessageId": "m-{unique}"}
      """
    Then the client receives, in order:
      | user_message      | {"text": "Hello", "clientMessageId": "m-{unique}"} |
      | session_busy      | {"busy": true}                                     |
      | model_stream_chunk |                                                   |
      | assistant_message |                                                    |
      | session_busy      | {"busy": false}                                    |
    And the client has received 1 "user_message" where "clientMessageId" is "m-{unique}"

  @id:coworker.turn.client-message-id
  @req:coworker.user-message.client-message-id @req:coworker.user-message-echo.client-message-id @req:coworker.user-message-echo.confirmation
  Scenario: clientMessageId is echoed back for dedup
    coworker-v3.md §user_message: clientMessageId is optional and "echoed
    back for dedup"; §user_message (server) shows it on the echo.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "What files are in this directory?", "clientMessageId": "abc-{unique}"}
      """
    Then the client receives "user_message"
    And its "clientMessageId" is "abc-{unique}"
    And its "text" is "What files are in this directory?"
    And its "sessionId" is "{sid}"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """

  @id:coworker.turn.chunk-index-order
  @req:coworker.chunk.index-monotonic @req:coworker.chunk.turn-id-stable
  Scenario: Stream chunks of a turn share a turnId and count up from index 0
    coworker-v3.md §model_stream_chunk: "turnId is stable for all chunks in
    one top-level user turn"; "index is monotonic (0-based) and preserves
    original provider emission order within that turnId". The check engine
    also judges every later chunk of the turn.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "Tell me about the project"}
      """
    Then the client receives "model_stream_chunk"
    And its "index" is 0
    And I remember its "turnId" as "turn"
    And I remember its "index" as "i0"
    When the client receives "model_stream_chunk"
    Then its "turnId" is "{turn}"
    And its "index" is greater than {i0}
    And I remember its "index" as "i1"
    When the client receives "model_stream_chunk"
    Then its "turnId" is "{turn}"
    And its "index" is greater than {i1}
    And I remember its "index" as "i2"
    When the client receives "model_stream_chunk"
    Then its "turnId" is "{turn}"
    And its "index" is greater than {i2}
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """

  @id:coworker.turn.chunk-index-contiguous
  @req:coworker.chunk.index-contiguous @req:coworker.chunk.index-monotonic
  Scenario: Stream chunk indexes count the chunks without gaps
    coworker-v3.md §model_stream_chunk: "index is monotonic (0-based) and
    preserves original provider emission order within that turnId".
    Interpretation: a 0-based index of the emission order counts the chunks,
    so the n-th chunk of a turn has index n-1 (the check engine only warns
    about a gap, rule coworker.chunk-gap; this scenario holds the stricter
    reading).

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "Count with me"}
      """
    Then the client receives "model_stream_chunk"
    And its "index" is 0
    And I remember its "turnId" as "turn"
    When the client receives "model_stream_chunk"
    Then its "index" is 1
    When the client receives "model_stream_chunk"
    Then its "index" is 2
    When the client receives "model_stream_chunk"
    Then its "index" is 3
    And its "turnId" is "{turn}"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """

  @id:coworker.turn.new-turn-id
  @req:coworker.chunk.new-turn @req:coworker.chunk.turn-id-stable @req:coworker.chunk.index-monotonic
  Scenario: The next turn has a new turnId and starts again at index 0
    coworker-v3.md §model_stream_chunk: turnId is stable for the chunks of
    one top-level user turn and index is 0-based within that turnId.
    Interpretation: the next user turn streams under a new turnId from
    index 0 (the spec does not say that turns have distinct turnIds).

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "first turn"}
      """
    And the client receives "model_stream_chunk"
    And I remember its "turnId" as "first"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    And the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "second turn"}
      """
    Then the client receives "model_stream_chunk"
    And its "turnId" is not "{first}"
    And its "index" is 0
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """

  @id:coworker.turn.chunks-name-model
  @req:coworker.chunk.names-config @req:coworker.chunk.shape @req:coworker.config-updated.emitted
  Scenario: Stream chunks name the session's provider and model
    coworker-v3.md §model_stream_chunk: "Structured per-part stream output
    from the active provider/model turn", with provider and model members;
    §server_hello: config holds the session's provider and model.
    Interpretation: the chunks of a turn name the config it runs with.

    When the client sends:
      """
      {"type": "set_model", "sessionId": "{sid}", "provider": "anthropic", "model": "claude-3-opus"}
      """
    And the client receives "config_updated"
    And I remember its "config.provider" as "provider"
    And I remember its "config.model" as "model"
    And the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "Which model are you?"}
      """
    Then the client receives "model_stream_chunk"
    And its "provider" is "{provider}"
    And its "model" is "{model}"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """

  @id:coworker.turn.legacy-events @scripted
  @req:coworker.chunk.legacy-events @req:coworker.chunk.part-reasoning-start @req:coworker.chunk.part-reasoning-delta @req:coworker.chunk.part-reasoning-end @req:coworker.chunk.part-text-delta @req:coworker.reasoning.shape
  Scenario: Reasoning streams as chunks and as the legacy reasoning event
    coworker-v3.md §model_stream_chunk: "Legacy reasoning and
    assistant_message events are still emitted for compatibility";
    §reasoning: kind "reasoning" (or "summary"); the partType table:
    reasoning_start/delta/end carry id and mode, text_delta id and text.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/think weigh the options first"}
      """
    Then the client receives, in order:
      | model_stream_chunk | {"partType": "reasoning_start"} |
      | model_stream_chunk | {"partType": "reasoning_delta"} |
      | model_stream_chunk | {"partType": "reasoning_end"}   |
      | model_stream_chunk | {"partType": "text_delta"}      |
      | assistant_message  |                                 |
      | session_busy       | {"busy": false}                 |
    And the client has received 1 "reasoning" where "kind" is "reasoning"
    And the client has received 1 "reasoning" where "text" is "weigh the options first"

  @id:coworker.turn.assistant-text @scripted
  @req:coworker.chunk.legacy-events @req:coworker.chunk.part-start @req:coworker.chunk.part-text-start @req:coworker.chunk.part-text-delta @req:coworker.chunk.part-text-end @req:coworker.chunk.part-finish @req:coworker.assistant-message.shape
  Scenario: assistant_message carries the whole reply the text parts streamed
    coworker-v3.md §assistant_message: "The agent's response text";
    §model_stream_chunk: text_start, text_delta {id, text}, text_end, and
    finish {finishReason}. The scripted agent echoes plain text back.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "ping pong"}
      """
    Then the client receives, in order:
      | model_stream_chunk | {"partType": "start"}                  |
      | model_stream_chunk | {"partType": "text_start"}             |
      | model_stream_chunk | {"partType": "text_delta"}             |
      | model_stream_chunk | {"partType": "text_end"}               |
      | model_stream_chunk | {"partType": "finish"}                 |
      | assistant_message  | {"text": "Echo: ping pong"}            |
      | session_busy       | {"busy": false}                        |

  @id:coworker.turn.tool-call @scripted
  @req:coworker.chunk.tool-call-order @req:coworker.chunk.part-tool-input-start @req:coworker.chunk.part-tool-call @req:coworker.chunk.part-tool-result
  Scenario: A tool call streams its parts
    coworker-v3.md §model_stream_chunk: tool_input_start/delta/end, tool_call
    {toolCallId, toolName, input}, tool_result {toolCallId, toolName,
    output}. Interpretation: a tool call that needs no approval (/exec grep)
    streams these parts in this order. A grep does not change the todo list
    (§todos: "Sent whenever the todo list changes"), and log lines are
    debug output a server may or may not send (§log), so neither is
    expected.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/exec grep {\"pattern\": \"TODO\"}"}
      """
    Then the client receives, in order:
      | model_stream_chunk | {"partType": "tool_input_start", "part": {"toolName": "grep"}} |
      | model_stream_chunk | {"partType": "tool_call", "part": {"toolName": "grep", "input": {"pattern": "TODO"}}} |
      | model_stream_chunk | {"partType": "tool_result", "part": {"toolName": "grep"}} |
      | assistant_message  |                                                  |
      | session_busy       | {"busy": false}                                  |
    And the client has received no "approval"

  @id:coworker.turn.auto-checkpoint
  @req:coworker.behavior.checkpoints @req:coworker.session-backup-state.emitted @req:coworker.type.session-backup-checkpoint @req:coworker.session-backup-state.reasons @req:coworker.flow.backup
  Scenario: A completed turn stores an automatic checkpoint
    coworker-v3.md §Important Behaviors: "After every agent turn completion,
    it stores a compressed binary diff checkpoint"; §Backup / Checkpoint
    Flow: session_backup_state {reason: "auto_checkpoint"} with one more
    checkpoint after the turn's events. Whether the checkpoint comes just
    before or just after session_busy {busy: false} is not judged (the flow
    lists it after "...normal turn events..."; a server may checkpoint
    before it reports idle): a ping answered afterwards shows the turn ended.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "make changes"}
      """
    Then the client receives "session_backup_state" with:
      """
      {"reason": "auto_checkpoint"}
      """
    And its "backup.checkpoints" contains {"trigger": "auto"}
    And its "backup.sessionId" is "{sid}"
    When the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    Then the client receives "pong"
    And the client has received 1 "session_busy" where "busy" is false

  @id:coworker.turn.auto-checkpoint-every-turn
  @req:coworker.behavior.checkpoints @req:coworker.session-backup-state.emitted @req:coworker.type.session-backup-checkpoint @req:coworker.session-backup-state.reasons
  Scenario: Every completed turn stores its own automatic checkpoint
    coworker-v3.md §Important Behaviors: "After every agent turn completion,
    it stores a compressed binary diff checkpoint against the original
    snapshot"; §session_backup_state: "Emitted on explicit requests and
    whenever checkpoint state changes"; §Backup / Checkpoint Flow:
    {reason: "auto_checkpoint", checkpoints: +1} after a turn. Two turns in
    quick succession give two auto_checkpoint states: "every" admits no
    minimum interval between checkpoints.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "first change"}
      """
    And the client receives "session_backup_state" with:
      """
      {"reason": "auto_checkpoint"}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client receives "pong"
    And the client has received 1 "session_busy" where "busy" is false
    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "second change"}
      """
    Then the client receives "session_backup_state" with:
      """
      {"reason": "auto_checkpoint"}
      """
    And its "backup.checkpoints" contains {"trigger": "auto"}
    And the client has received 2 "session_backup_state" where "reason" is "auto_checkpoint"

  @id:coworker.turn.failed-turn-idle @scripted
  @req:coworker.turn.failed @req:coworker.error.any-condition @req:coworker.session-busy.definition
  Scenario: A failed turn reports an error and still ends idle
    coworker-v3.md §error: "Any error condition."; §session_busy: busy false
    re-enables input. Interpretation: a failed turn sends an error and
    session_busy {busy: false}, and no assistant_message (the spec does not
    say in which form a failed turn is reported: an error event, or an error
    part of the stream). The error carries the failure's words (the
    test-mode default "the scripted agent failed on request (/fail)"): a
    turn that failed for another reason (a model without a key) proves
    nothing about this one.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/fail"}
      """
    Then the client receives "session_busy" with:
      """
      {"busy": true}
      """
    And the client receives "error"
    And the refusal names one of "failed on request", "scripted agent failed"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    And the client has received no "assistant_message"
