@coworker
Feature: Cancelling a turn
  coworker-v3.md §cancel: "Abort the currently running agent turn. The
  server aborts the underlying LLM call and rejects any pending
  ask/approval deferreds. A session_busy { busy: false } event is emitted
  once the cancellation completes"; §Cancel In-Flight Turn.

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.cancel.in-flight @scripted
  @req:coworker.cancel.definition @req:coworker.cancel.busy-false @req:coworker.flow.cancel
  Scenario: cancel stops a streaming turn and the session turns idle
    coworker-v3.md §cancel, §Cancel In-Flight Turn: after cancel the server
    aborts the turn and emits session_busy {busy: false}; the stream stops.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/slow 40"}
      """
    And the client receives "model_stream_chunk" with:
      """
      {"partType": "text_delta"}
      """
    And the client sends:
      """
      {"type": "cancel", "sessionId": "{sid}"}
      """
    Then the client receives "session_busy" with:
      """
      {"busy": false}
      """
    And the client receives no "model_stream_chunk" within 300ms

  @id:coworker.cancel.abort-part @scripted
  @req:coworker.cancel.abort-part @req:coworker.chunk.part-abort
  Scenario: A cancelled turn ends with an abort part and no assistant_message
    coworker-v3.md §model_stream_chunk: partType abort {reason?};
    §Cancel In-Flight Turn shows no assistant_message. Interpretation: the
    aborted stream ends with an abort part and the turn has no final reply.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/slow 40"}
      """
    And the client receives "model_stream_chunk" with:
      """
      {"partType": "text_delta"}
      """
    And the client sends:
      """
      {"type": "cancel", "sessionId": "{sid}"}
      """
    Then the client receives, in order:
      | model_stream_chunk | {"partType": "abort"} |
      | session_busy       | {"busy": false}       |
    And the client has received no "assistant_message"

  @id:coworker.cancel.pending-ask @scripted
  @req:coworker.cancel.rejects-deferreds @req:coworker.cancel.busy-false @req:coworker.request.unmatched-reply
  Scenario: cancel rejects a pending ask
    coworker-v3.md §cancel: the server "rejects any pending ask/approval
    deferreds" and emits session_busy false; an answer sent afterwards does
    not resume the agent.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/ask confirm Keep going?"}
      """
    And the client receives "ask"
    And I remember its "requestId" as "req"
    And the client sends:
      """
      {"type": "cancel", "sessionId": "{sid}"}
      """
    Then the client receives "session_busy" with:
      """
      {"busy": false}
      """
    When the client sends:
      """
      {"type": "ask_response", "sessionId": "{sid}", "requestId": "{req}", "answer": "yes"}
      """
    Then the client receives no "assistant_message" within 300ms
    And the client has received 1 "session_busy" where "busy" is true
    And the client has received 1 "session_busy" where "busy" is false

  @id:coworker.cancel.pending-approval @scripted
  @req:coworker.cancel.rejects-deferreds @req:coworker.cancel.busy-false @req:coworker.request.unmatched-reply
  Scenario: cancel rejects a pending approval
    coworker-v3.md §cancel: pending approval deferreds are rejected; the
    command does not run, even when approved afterwards: no tool_result
    reports it succeeding (exitCode 0) and no turn resumes. (log is a
    debug line the server may send at any time, §log.)

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/tool bash {\"command\": \"rm -rf build\"}"}
      """
    And the client receives "approval"
    And I remember its "requestId" as "req"
    And the client sends:
      """
      {"type": "cancel", "sessionId": "{sid}"}
      """
    Then the client receives "session_busy" with:
      """
      {"busy": false}
      """
    When the client sends:
      """
      {"type": "approval_response", "sessionId": "{sid}", "requestId": "{req}", "approved": true}
      """
    Then the client receives no "assistant_message" within 300ms
    And the client has received no "model_stream_chunk" where "part.output.exitCode" is 0
    And the client has received 1 "session_busy" where "busy" is true

  @id:coworker.cancel.late-answer-refused @scripted
  @req:coworker.request.unmatched-reply @req:coworker.cancel.rejects-deferreds
  Scenario: An answer to a cancelled ask resumes nothing
    coworker-v3.md §cancel: the server "rejects any pending ask/approval
    deferreds". The requestId of a rejected ask names no pending ask any
    more, so a late ask_response starts or resumes no turn. The spec does
    not say whether it is refused with an error or ignored (the real
    agent-coworker logs a warning), so only its effect is judged.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/ask text Any last words?"}
      """
    And the client receives "ask"
    And I remember its "requestId" as "req"
    And the client sends:
      """
      {"type": "cancel", "sessionId": "{sid}"}
      """
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    And the client sends:
      """
      {"type": "ask_response", "sessionId": "{sid}", "requestId": "{req}", "answer": "none"}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    Then the client receives "pong"
    And the client receives no "assistant_message" within 300ms
    And the client has received 1 "session_busy" where "busy" is true

  @id:coworker.cancel.next-turn @scripted
  @req:coworker.cancel.busy-false @req:coworker.user-message.one-at-a-time @req:coworker.chunk.new-turn @req:coworker.flow.normal-conversation
  Scenario: After a cancel the session takes a new turn
    coworker-v3.md §cancel: once the cancellation completes the session is
    idle (session_busy false), so the next user_message starts a turn, whose
    stream starts at index 0 (§model_stream_chunk: "index is monotonic
    (0-based)"). That the turn has a new turnId is our reading
    (coworker.turn.new-turn-id), not asserted here.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/slow 40"}
      """
    And the client receives "model_stream_chunk"
    And the client sends:
      """
      {"type": "cancel", "sessionId": "{sid}"}
      """
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "start over", "clientMessageId": "again-{unique}"}
      """
    Then the client receives, in order:
      | user_message      | {"clientMessageId": "again-{unique}"} |
      | session_busy      | {"busy": true}                        |
      | model_stream_chunk | {"index": 0}                         |
    And the client receives "assistant_message"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    And the client has received no "error"

  @id:coworker.cancel.idle
  @req:coworker.cancel.idle @req:coworker.cancel.definition
  Scenario: cancel with no turn running changes nothing
    coworker-v3.md §cancel: aborts "the currently running agent turn".
    Interpretation: with no turn running there is nothing to abort; the
    session does not turn busy and keeps answering.

    When the client sends:
      """
      {"type": "cancel", "sessionId": "{sid}"}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    Then the client receives "pong"
    And the client has received no "session_busy" where "busy" is true
