@minicodex
Feature: MiniCodex runs (turns)
  minicodex-v1.md §Test matrix: a send starts a run that streams its outputs
  and ends with run_status finished; turn_done follows runs without tool
  outputs. The scripted agent of the reference server echoes plain text,
  calls tools for /exec, reasons for /think and fails for /fail.

  Background:
    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"

  @id:minicodex.send.turn @req:minicodex.matrix.send @req:minicodex.run-completion.finished @req:minicodex.run-completion.turn-done @req:minicodex.run.id @req:minicodex.envelope.req-id @scripted
  Scenario: A message streams assistant text and finishes the run
    minicodex-v1.md §Test matrix: "Send → assistant_text only →
    run_status.finished (and turn_done for no‑tool runs)"; §Semantics: Run
    completion: a run is complete upon run_status finished, and TurnDone is
    sent if there were no terminal artifacts; §Core concepts: a run is
    identified by run_id, so every run_status of the run names it;
    §Server → Client messages: CommandAccepted is the immediate ack and
    carries the command's req_id (§Envelope). Whether turn_done comes before
    or after the finished status is not stated: the scenario waits for
    both, then a ping barrier lets a duplicate queued before it arrive, then
    they are counted.

    When the client sends:
      """
      {"type": "send", "text": "hello there", "client_msg_id": "m-{unique}", "req_id": "r2"}
      """
    Then the client receives, in order:
      | assistant_text |                                       |
      | run_status     | {"run_state": {"status": "finished"}} |
    And I remember its "run_state.run_id" as "run"
    And the client has received at least 1 "turn_done" within 5s
    When the client sends:
      """
      {"type": "ping", "req_id": "r-barrier"}
      """
    Then the client receives "accepted" with:
      """
      {"req_id": "r-barrier"}
      """
    And the client has received 1 "accepted" where "req_id" is "r2"
    And the client has received no "run_status" where "run_state.run_id" is not "{run}"
    And the client has received 1 "turn_done"
    And the client has received 1 "run_status" where "run_state.status" is "finished"
    And the client has received no "tool_call"
    And the client has received no "function_call_output"

  @id:minicodex.send.status-sequence @req:minicodex.ui.state-machine @req:minicodex.run-status.shape @scripted
  Scenario: A run goes through starting and running to finished
    minicodex-v1.md §UI state machine (minimal): idle → (accepted/send) →
    starting → running → finished; §Server → Client messages: RunStatus
    (status transitions) carries the RunState of the run. The spec only shows
    the starting and running transitions in its UI state machine; it does not
    say the server reports each one.

    When the client sends:
      """
      {"type": "send", "text": "status please"}
      """
    Then the client receives "run_status" with:
      """
      {"run_state": {"status": "starting"}}
      """
    And its "run_state.run_id" is a string
    And its "event_id" is an integer
    And I remember its "run_state.run_id" as "run"
    And the client receives, in order:
      | run_status     | {"run_state": {"run_id": "{run}", "status": "running"}}  |
      | assistant_text |                                                          |
      | run_status     | {"run_state": {"run_id": "{run}", "status": "finished"}} |

  @id:minicodex.send.turn-done-names-run @req:minicodex.run-completion.turn-done-run-id @req:minicodex.turn-done.prose @scripted
  Scenario: turn_done names the run it ends
    minicodex-v1.md §Server → Client messages: TurnDone {type: "turn_done",
    run_id, event_id}. The spec only shows run_id in its prose (the
    TypeScript type and the Pydantic model make it optional).
    Interpretation: it is the run's run_id.

    When the client sends:
      """
      {"type": "send", "text": "which run"}
      """
    Then the client receives "run_status"
    And I remember its "run_state.run_id" as "run"
    And the client receives "turn_done"
    And its "run_id" is "{run}"
    And its "event_id" is an integer

  @id:minicodex.send.finished-at @req:minicodex.state.finished-at @scripted
  Scenario: A finished run says when it finished
    minicodex-v1.md §State models: RunState.finished_at is a datetime, null
    while the run goes on. Interpretation: the finished RunState carries the
    time the run finished.

    When the client sends:
      """
      {"type": "send", "text": "when did it end"}
      """
    Then the client receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And its "run_state.finished_at" is a string
    And its "run_state.started_at" is a string

  @id:minicodex.send.user-text-event @req:minicodex.transcript.user-text-event @scripted
  Scenario: The user's text is an event of the run
    minicodex-v1.md §Server → Client messages: Transcript events UserText,
    AssistantText … each carry an event_id. Interpretation: the server emits
    the sent text as a user_text event, so that every client of the session
    (and a replay) shows what was asked.

    When the client sends:
      """
      {"type": "send", "text": "remember this {unique}"}
      """
    Then the client receives "user_text" with:
      """
      {"text": "remember this {unique}"}
      """
    And its "event_id" is an integer
    And the client receives "turn_done"
    And the client has received 1 "user_text"

  @id:minicodex.tool.exec-without-approval @req:minicodex.transcript.tool-call-output-pair @req:minicodex.run-completion.finished @req:minicodex.transcript.tool-call @scripted
  Scenario: A tool that needs no approval outputs and the run finishes
    minicodex-v1.md §Transcript items: ToolCall {name, args, call_id} and
    FunctionCallOutput {call_id, …} name the same call; §Semantics: a run is
    complete upon run_status finished. ci/testmode.md /exec: the tool call
    and its result, no approval request.

    When the client sends:
      """
      {"type": "send", "text": "/exec read"}
      """
    Then the client receives "tool_call" with:
      """
      {"name": "read"}
      """
    And I remember its "call_id" as "call"
    And the client receives, in order:
      | function_call_output | {"call_id": "{call}"}                 |
      | run_status           | {"run_state": {"status": "finished"}} |
    And the client has received no "approval_pending"

  @id:minicodex.tool.no-turn-done-after-output @req:minicodex.run-completion.no-turn-done-after-output @req:minicodex.run-completion.turn-done @scripted
  Scenario: A run with a tool output ends without turn_done
    minicodex-v1.md §Semantics: Run completion: TurnDone is sent if there were
    no terminal artifacts (e.g. function_call_output). Interpretation: a run
    that produced a function_call_output is complete with run_status finished
    alone, and no turn_done follows.

    When the client sends:
      """
      {"type": "send", "text": "/exec read"}
      """
    Then the client receives, in order:
      | function_call_output |                                       |
      | run_status           | {"run_state": {"status": "finished"}} |
    And the client receives no "turn_done" within 300ms

  @id:minicodex.send.reasoning @req:minicodex.transcript.reasoning-first @req:minicodex.transcript.reasoning @scripted
  Scenario: Reasoning chunks stream before the answer
    minicodex-v1.md §Transcript items: ReasoningChunk (optional) {type:
    "reasoning", text}; the session capability "reasoning". Interpretation:
    an agent that reasons streams its reasoning before its answer.

    When the client sends:
      """
      {"type": "send", "text": "/think step by step"}
      """
    Then the client receives, in order:
      | reasoning      |                                       |
      | assistant_text |                                       |
      | run_status     | {"run_state": {"status": "finished"}} |
    And its "run_state.status" is "finished"

  @id:minicodex.send.failed-run @req:minicodex.ui.state-machine @req:minicodex.state.run-status-enum @req:minicodex.failed-run.error-event @scripted
  Scenario: A failed run ends in status error and the session is free again
    minicodex-v1.md §State models: RunState.status is one of idle, starting,
    running, awaiting_approval, aborting, finished, error (a closed Literal):
    a run that failed ends in error; §UI state machine: finished|error are
    the terminal states. After the failed run, a new send is accepted and
    its run finishes (ci/testmode.md /fail: the dialect's error report for a
    failed turn, and the turn still ends).

    When the client sends:
      """
      {"type": "send", "text": "/fail"}
      """
    Then the client receives "run_status" with:
      """
      {"run_state": {"status": "error"}}
      """
    When the client sends:
      """
      {"type": "send", "text": "after the failure", "req_id": "r-next"}
      """
    Then the client receives "accepted" with:
      """
      {"req_id": "r-next"}
      """
    And the client receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And the client has received no "error" where "code" is "BUSY"

  @id:minicodex.send.failed-run-error-event @req:minicodex.failed-run.error-event @req:minicodex.error.shape @scripted
  Scenario: A failed run reports its error as an event
    minicodex-v1.md §Server → Client messages: Error {code, message,
    details?}; RunStatus error. Interpretation: the failure of a run is an
    error event of the session log (with event_id, replayed on resume),
    code RUN_FAILED, carrying the agent's message.

    When the client sends:
      """
      {"type": "send", "text": "/fail boom {unique}"}
      """
    Then the client receives "error" with:
      """
      {"code": "RUN_FAILED", "message": "boom {unique}"}
      """
    And its "event_id" is an integer
    And the client receives "run_status" with:
      """
      {"run_state": {"status": "error"}}
      """

  @id:minicodex.send.dedupe-client-msg-id @req:minicodex.idempotency.client-msg-id @req:minicodex.matrix.fanout-dedupe @scripted
  Scenario: A send repeating a client_msg_id within the run is ignored
    minicodex-v1.md §Semantics: Idempotency: SendUserText may include
    client_msg_id; "duplicate client_msg_id within a run is ignored": it
    starts no second run and is not refused. A ping barrier after the run's
    end makes sure every event of the run (and of a wrongly started second
    one) has arrived before they are counted.

    When the client sends:
      """
      {"type": "send", "text": "/slow 6", "client_msg_id": "m-{unique}"}
      """
    And the client receives "run_status"
    And the client sends:
      """
      {"type": "send", "text": "/slow 6", "client_msg_id": "m-{unique}"}
      """
    Then the client receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And the client has received at least 1 "turn_done" within 5s
    When the client sends:
      """
      {"type": "ping", "req_id": "r-barrier"}
      """
    Then the client receives "accepted" with:
      """
      {"req_id": "r-barrier"}
      """
    And the client receives no "run_status" within 300ms
    And the client has received no "error"
    And the client has received 1 "run_status" where "run_state.status" is "finished"
    And the client has received 1 "turn_done"
