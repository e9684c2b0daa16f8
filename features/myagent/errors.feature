@myagent
Feature: MyAgent error events
  myagent-events.md §All Event Types / Error Events (Implemented): the server
  reports failures as error.* events: error.validation when input validation
  fails, error.execution when execution fails, error.recovery_failed when a
  recovery fails. The spec names no error codes, so the scenarios check the
  event type and that the connection and session go on working; they do not
  check the reference server's metadata.error_code. error.validation answers
  every kind of bad input, so the event alone does not show what was refused:
  each refusal must also name the member or condition tested ("the refusal
  names one of …", any string of the event counts); one that gives another
  reason (busy, an unknown session, …) or names nothing tested leaves the
  scenario inconclusive, with the server's words.

  Background:
    Given a client connects
    And the client receives "system.connected"

  @id:myagent.errors.invalid-json @req:myagent.error.validation @req:myagent.event.json-objects @req:myagent.error.production-ready @req:myagent.event.invalid-input-refused
  Scenario: A frame that is not JSON is answered with error.validation
    myagent-events.md §Error Events: error.validation, "input validation
    fails"; §Overview: events are JSON objects. The connection stays usable.

    When the client sends the text:
      """
      {"event": "user.create_session",
      """
    Then the client receives "error.validation"
    And the refusal names one of "json", "parse", "decode", "syntax", "malformed"
    And the client stays connected for 100ms
    When the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.session_created"

  @id:myagent.errors.not-an-object @req:myagent.error.validation @req:myagent.event.json-objects @req:myagent.error.production-ready @req:myagent.event.invalid-input-refused
  Scenario: JSON that is not an object is answered with error.validation
    myagent-events.md §Overview: events are JSON objects following the
    EventProtocol model; §Error Events: error.validation.

    When the client sends:
      """
      ["user.create_session"]
      """
    Then the client receives "error.validation"
    And the refusal names one of "object", "dict", "mapping", "array", "list"
    When the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.session_created"

  @id:myagent.errors.missing-event @req:myagent.error.validation @req:myagent.event.event-required @req:myagent.error.production-ready @req:myagent.event.invalid-input-refused
  Scenario: An event without its event member is answered with error.validation
    myagent-events.md §Core Protocol Structure: event (the event type) is the
    one member the EventProtocol model requires besides timestamp;
    §Error Events: error.validation.

    When the client sends:
      """
      {"content": "which event am I?", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "missing event", "no event", "event is required", "event required", "requires event", "event member", "event field", "without event", "event type"
    When the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.session_created"

  @id:myagent.errors.unknown-event @req:myagent.namespace.unknown-event @req:myagent.error.validation @req:myagent.error.production-ready
  Scenario: An unknown event type is answered with error.validation
    myagent-events.md §All Event Types / User Events lists the events a client
    sends; §Error Events: error.validation for input that fails validation.
    Interpretation: the spec does not say that an unlisted event name fails
    validation (the frame breaks no stated type), so this is an observation.

    When the client sends:
      """
      {"event": "user.dance", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "unknown event", "unknown client event", "unsupported event", "unrecognized event", "invalid event", "event type", "not a user event"
    When the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.session_created"

  @id:myagent.errors.server-event-from-client @req:myagent.namespace.server-event-from-client @req:myagent.namespace.user-client-to-server
  Scenario: A server event sent by the client is refused
    myagent-events.md §Event Namespacing: user.* events go client → server, the
    other namespaces come from the server.
    Interpretation: a client that sends a server event (agent.final_answer) is
    answered with error.validation.

    When the client sends:
      """
      {"event": "agent.final_answer", "content": "I answer myself", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "server event", "client event", "not a user", "direction", "unknown event", "event type", "not allowed", "only the server", "from the server"
    And the client stays connected for 100ms

  @id:myagent.errors.binary-frame @req:myagent.event.binary-refused
  Scenario: A binary frame is answered with error.validation
    myagent-events.md §Overview: events are JSON objects.
    Interpretation: JSON travels in text frames; a binary frame is refused with
    error.validation and the connection stays open.

    When the client sends a binary frame of 16 bytes
    Then the client receives "error.validation"
    And the refusal names one of "binary", "text frame", "json", "utf"
    When the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.session_created"

  @id:myagent.errors.message-without-content @req:myagent.message.needs-content @req:myagent.user.message
  Scenario: A user.message without content is refused and starts no run
    myagent-events.md §All Event Types / User Events: user.message submits a
    query (its content, §Core Protocol Structure); §Error Events:
    error.validation.

    Given the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"
    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "content", "empty", "query", "text"
    And the client receives no "plan.start" within 300ms

  @id:myagent.errors.mistyped-seq @req:myagent.error.validation @req:myagent.event.seq @req:myagent.error.production-ready @req:myagent.event.invalid-input-refused
  Scenario: A user.ack whose seq is not a number is refused
    myagent-events.md §Core Protocol Structure: seq?: number; §Reliable
    Delivery Mechanism: user.ack {seq}; §Error Events: error.validation.

    Given the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"
    When the client sends:
      """
      {"event": "user.ack", "session_id": "{sid}", "seq": "one", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "seq", "integer", "number"
    And the client stays connected for 100ms

  @id:myagent.errors.response-without-step-id @req:myagent.step-id.unknown-refused @req:myagent.step-id.must-match
  Scenario: A user.response without step_id is refused
    myagent-events.md §Request/Response Pairing (step_id): "step_id must match
    for request/response correlation", so a response without one cannot be
    paired; §Error Events: error.validation.

    Given the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"
    When the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "step_id", "step id", "step"

  @id:myagent.errors.response-unknown-step @req:myagent.step-id.unknown-refused @req:myagent.step-id.must-match
  Scenario: A user.response to a step_id nobody asked is refused
    myagent-events.md §Request/Response Pairing (step_id): the response's
    step_id must match an agent.user_confirm; §Error Events: error.validation.

    Given the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"
    When the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "never-asked-{unique}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "step_id", "step id", "step", "user_confirm", "confirmation"
    And the client receives no "plan.start" within 300ms

  @id:myagent.errors.no-session @req:myagent.session.one-per-connection
  Scenario: An event that needs a session on a connection without one is refused
    myagent-events.md §Session Management / Session Lifecycle: a session is
    created first (user.create_session).
    Interpretation: user.cancel on a connection that belongs to no session is
    refused with error.validation.

    When the client sends:
      """
      {"event": "user.cancel", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "no session", "needs a session", "without a session", "not in a session", "session_id", "create_session", "join"
    And the client stays connected for 100ms

  @id:myagent.errors.cancel-idle @req:myagent.cancel.idle
  Scenario: user.cancel with nothing running is refused
    myagent-events.md §All Event Types / User Events: user.cancel cancels the
    current operation.
    Interpretation: with no operation running, the server answers
    error.validation and the session stays as it was.

    Given the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"
    When the client sends:
      """
      {"event": "user.cancel", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "no active run", "no run", "no pipeline", "not running", "nothing running", "nothing to cancel", "no operation", "no task", "idle"
    And the client has received no "agent.interrupted"

  @id:myagent.errors.ack-unsent @req:myagent.ack.beyond-last
  Scenario: An ack of a seq the server never sent is refused
    myagent-events.md §Reliable Delivery Mechanism: user.ack acknowledges a
    received event.
    Interpretation: acknowledging a seq beyond the session's last one is
    refused with error.validation.

    Given the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"
    When the client sends:
      """
      {"event": "user.ack", "session_id": "{sid}", "seq": 999999, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "seq", "unsent", "never sent", "not sent", "beyond", "999999"

  @id:myagent.errors.unknown-session @req:myagent.session.unknown @req:myagent.error.recovery-failed
  Scenario: Resuming a session the server does not know fails with error.recovery_failed
    myagent-events.md §Error Events: error.recovery_failed, "recovery failed";
    §Event Flow Architecture / 3. Reconnection & State Recovery.
    Interpretation: user.reconnect_with_state naming an unknown session_id is
    a failed recovery.

    When the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "no-such-session-{unique}", "last_seq": 3, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.recovery_failed"
    And the refusal names one of "unknown", "not found", "no such", "no session", "expired", "does not exist"
    When the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.session_created"

  @id:myagent.errors.last-seq-ahead @req:myagent.buffer.last-seq-ahead @req:myagent.error.recovery-failed
  Scenario: Resuming from a last_seq the session never reached fails
    myagent-events.md §Error Events: error.recovery_failed; §Buffer Management:
    replay from last_seq.
    Interpretation: a last_seq beyond the session's last seq cannot be resumed
    from and is answered with error.recovery_failed.

    Given the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"
    And client "B" connects
    And client "B" receives "system.connected"
    When client "B" sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "last_seq": 999999, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then client "B" receives "error.recovery_failed"
    And the refusal names one of "last_seq", "seq", "ahead", "beyond", "999999"

  @id:myagent.errors.already-in-session @req:myagent.session.one-per-connection
  Scenario: A second user.create_session on the same connection is refused
    myagent-events.md §Session Management / Session Lifecycle.
    Interpretation: a connection belongs to one session; creating another on
    it is refused with error.validation and the first session stays.

    Given the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"
    When the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "already in session", "already belongs", "already in a session", "already has a session", "one session", "another session", "new session"
    And the client has received 1 "agent.session_created"

  @id:myagent.errors.run-in-progress @req:myagent.flow.one-run @scripted
  Scenario: A second request while a run is in progress is refused
    myagent-events.md §Event Flow Architecture / 1: one pipeline per query.
    Interpretation: a user.solve_tasks while a run is active in the session is
    refused with error.validation, and the running task completes.

    Given the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"
    And the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/slow 8"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.partial_answer"
    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "me too"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "in progress", "already running", "is running", "busy", "active run", "running"
    And the client receives "solver.completed"
    And the client has received 1 "solver.start"

  @id:myagent.errors.execution-failed @req:myagent.error.execution @req:myagent.error.production-ready @scripted
  Scenario: A failing task is reported with error.execution
    myagent-events.md §All Event Types / Error Events: "| error.execution |
    Execution fails | Error type, context, recoverable flag | ✅ Production |";
    "All error events are production-ready". The failed task does not
    complete; the session accepts the next request.
    Not a refusal: error.execution reports the agent's own failure, of a task
    the scenario made fail on purpose.

    Given the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"
    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/fail the disk is full"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.execution"
    And its "content" contains "the disk is full"
    And the client receives no "solver.completed" within 300ms
    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "try something else"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.completed"

  @id:myagent.errors.task-coercion @req:myagent.flow.solve-tasks @req:myagent.plan.coercion-error
  Scenario: Tasks that cannot be read are reported with plan.coercion_error
    myagent-events.md §All Event Types / Plan Events: plan.coercion_error, an
    error message with error details, when the tasks cannot be coerced.
    Interpretation: a user.solve_tasks whose content.tasks is not a list of
    tasks is answered with plan.coercion_error and starts no solver.
    Not a refusal of another kind: plan.coercion_error is the event the spec
    names for exactly this condition, so receiving it shows what was refused.

    Given the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"
    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": 42}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "plan.coercion_error"
    And its "content" is a string
    And the client receives no "solver.start" within 300ms
