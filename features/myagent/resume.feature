@myagent
Feature: MyAgent reliable delivery: seq/ack, replay and state recovery
  myagent-events.md §Reliable Delivery Mechanism: events are numbered (seq),
  the client acknowledges them (user.ack), the server keeps a buffer of the
  last N events and replays it from last_seq on reconnect; §Event Flow
  Architecture / 3. Reconnection & State Recovery. The check engine judges
  every replay: no gap, no event the client already had (before last_seq),
  each replayed event equal to the original.

  The spec does not say what user.reconnect_with_state carries besides the
  session and last_seq, nor how the state agent.state_exported hands out
  ("State snapshot", metadata "Serialized state") travels back. The scenarios
  that resume do what a client keeping that snapshot does: they ask for it
  with user.request_state and send its metadata.signed_state back as
  signed_state (JasonDZS/myagent requires it; the reference server ignores
  it), with session_id and last_seq at the top level. One scenario,
  replay-completed-run, sends no state at all. Before reconnecting, a
  scenario waits 300 ms so that the server has seen the old connection drop.
  Runs are started with user.solve_tasks (no plan to confirm) and observed up
  to their last solver.completed.

  Background:
    Given a client connects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"

  @id:myagent.resume.ack-no-redelivery @req:myagent.buffer.last-acked @req:myagent.buffer.no-duplicates @req:myagent.user.ack @req:myagent.buffer.retried
  Scenario: An acknowledged event is not delivered again
    myagent-events.md §Reliable Delivery Mechanism: the client acknowledges
    receipt with user.ack {seq}; §Buffer Management: "ACK tracking prevents
    duplicate deliveries", "Unacknowledged events are retried".
    Interpretation: a reconnect without last_seq is where an ack shows: the
    server replays what the client has not acknowledged
    (resume.replay-after-ack). Once acknowledged, an event comes neither
    again on the live connection nor in the next such replay.
    Control: before the ack, a reconnect without last_seq does deliver the
    task's solver.completed again; on a server that never redelivers, an ack
    has nothing to prevent, and the scenario is inconclusive. After that
    reconnect the client names the session as the replayed events do (a
    server that renumbers or renames a resumed session is judged by
    resume.replay-keeps-seq and replay-keeps-session, not here).

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "acknowledge me"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.completed"
    And the client sends:
      """
      {"event": "user.request_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.state_exported"
    And I remember its "metadata.signed_state" as "state"
    Given the client drops the connection
    And I wait 300ms
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "signed_state": {state}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.completed"
    And I remember its "seq" as "again"
    And I remember its "session_id" as "resumed"
    When the client sends:
      """
      {"event": "user.ack", "session_id": "{resumed}", "seq": {again}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives no "solver.completed" within 500ms
    And the client has received 1 "solver.completed"
    And the client has received no "error.validation"
    When the client sends:
      """
      {"event": "user.request_state", "session_id": "{resumed}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.state_exported"
    And I remember its "metadata.signed_state" as "state"
    And the client drops the connection
    And I wait 300ms
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{resumed}", "signed_state": {state}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "system.notice"
    And the client receives no "solver.completed" within 500ms
    And the client has received no "solver.completed"

  @id:myagent.resume.ack-mid-run @req:myagent.buffer.last-acked @req:myagent.user.ack @req:myagent.seq.numbered
  Scenario: Acknowledging events while the run goes on
    myagent-events.md §Reliable Delivery Mechanism / Sequence Numbers (seq/ack):
    the client acknowledges each received event; acknowledging does not
    disturb the stream, which goes on in seq order; §Buffer Management: "ACK
    tracking prevents duplicate deliveries".
    Interpretation: the ack is recorded: a reconnect without last_seq then
    replays from after the acknowledged solver.start (resume.replay-after-ack).
    Control: that reconnect replays the unacknowledged solver.completed; a
    server that replays nothing there cannot show the ack, and the scenario is
    inconclusive.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "acknowledge as you go"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.start"
    And I remember its "seq" as "solving"
    And the client sends:
      """
      {"event": "user.ack", "session_id": "{sid}", "seq": {solving}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.completed"
    And its "seq" is greater than {solving}
    And the client has received 1 "solver.start"
    And the client has received no "error.validation"
    When the client sends:
      """
      {"event": "user.request_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.state_exported"
    And I remember its "metadata.signed_state" as "state"
    And the client drops the connection
    And I wait 300ms
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "signed_state": {state}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Given the client receives "solver.completed"
    Then the client has received no "solver.start"

  @id:myagent.resume.replay-completed-run @req:myagent.buffer.last-seq @req:myagent.flow.reconnection @req:myagent.buffer.replay-request
  Scenario: reconnect_with_state{session_id, last_seq} replays every buffered event after last_seq
    myagent-events.md §Event Flow Architecture / 3. Reconnection & State
    Recovery: "user.reconnect_with_state ↓ // Server sends buffered events
    from last_seq ↓ system.notice (event list)"; §Buffer Management: "On
    reconnect, client can request replay from last_seq". Each event once, in
    seq order and equal to the original (the check engine judges order and
    equality).
    Interpretation: the request needs no more than the session_id and
    last_seq the flow names (no exported state); the replayed events arrive
    as events of their own, before or after the system.notice (a server that lists them
    in the notice's content.events is judged the same way by the check
    engine, but fails these steps).

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "remember all of this"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.start"
    And I remember its "seq" as "from"
    And the client receives "solver.completed"
    And I remember its "seq" as "done"
    When the client drops the connection
    And I wait 300ms
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "last_seq": {from}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.completed" with:
      """
      {"seq": {done}}
      """
    And the client has received 1 "solver.completed"
    And the client has received no "solver.start"

  @id:myagent.resume.replay-keeps-seq @req:myagent.seq.per-session @req:myagent.buffer.replay-request
  Scenario: A replayed event keeps the seq it was first sent with
    myagent-events.md §Buffer Management: "On reconnect, client can request
    replay from last_seq"; §Event Flow Architecture / 3: "Server sends
    buffered events from last_seq".
    Interpretation: last_seq is a position in the numbering the client saw, so
    a buffered event comes back under its own seq (a server that renumbers a
    replay makes last_seq meaningless for the next reconnect).

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "keep my numbers"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.start"
    And I remember its "seq" as "from"
    And the client receives "solver.completed"
    And I remember its "seq" as "done"
    And the client sends:
      """
      {"event": "user.request_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.state_exported"
    And I remember its "metadata.signed_state" as "state"
    When the client drops the connection
    And I wait 300ms
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "last_seq": {from}, "signed_state": {state}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.completed"
    And its "seq" is {done}

  @id:myagent.resume.replay-keeps-session @req:myagent.session.keeps-id @req:myagent.session.reconnect
  Scenario: A replayed event belongs to the session it was first sent in
    myagent-events.md §Session Management / Session Lifecycle: "1. Create …
    2. Active … 3. Reconnect: user.reconnect_with_state → Event replay … 4.
    End": reconnecting is a stage of the same session; session_id is the
    session identifier (§Core Protocol Structure).
    Interpretation: the replayed events and the resumed session keep the
    session_id the client created (a numbered lifecycle, not a typed rule).

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "stay in my session"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.start"
    And I remember its "seq" as "from"
    And the client receives "solver.completed"
    And the client sends:
      """
      {"event": "user.request_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.state_exported"
    And I remember its "metadata.signed_state" as "state"
    When the client drops the connection
    And I wait 300ms
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "last_seq": {from}, "signed_state": {state}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.completed"
    And its "session_id" is "{sid}"

  @id:myagent.resume.replay-after-refresh @req:myagent.flow.replay-resumes @req:myagent.flow.reconnection @scripted
  Scenario: A client that drops mid-run resumes without losing or repeating events
    myagent-events.md §Event Flow Architecture / 3. Reconnection & State
    Recovery: "// Client disconnects and reconnects ↓ user.reconnect_with_state
    ↓ // Server sends buffered events from last_seq … // Resume operation".
    Interpretation: the flow diagram (shown, not stated) resumes the operation
    that was running: the task still completes on the new connection, and
    nothing the client had comes again.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/slow 10"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.partial_answer"
    And the client sends:
      """
      {"event": "user.request_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.state_exported"
    And I remember its "metadata.signed_state" as "state"
    And the client receives "agent.partial_answer"
    And I remember its "seq" as "seen"
    When the client drops the connection
    And I wait 300ms
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "last_seq": {seen}, "signed_state": {state}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.completed"
    And the client has received 1 "solver.completed"
    And the client has received no "solver.start"

  @id:myagent.resume.replay-nothing-missed @req:myagent.buffer.last-seq @req:myagent.buffer.no-duplicates @req:myagent.flow.reconnection
  Scenario: A client that missed nothing gets nothing it already had
    myagent-events.md §Reliable Delivery Mechanism / Buffer Management: replay
    from last_seq; "ACK tracking prevents duplicate deliveries". A client whose
    last_seq is the last event it received gets none of the earlier events
    again; the server accepts the reconnect (§Event Flow Architecture / 3:
    the replay is announced by system.notice).
    Control: afterwards a second client resuming the same session from the
    task's solver.start does get its solver.completed; a server that replays
    nothing at all would pass the first part without it proving anything, and
    the scenario is then inconclusive.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "nothing to replay"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.start"
    And I remember its "seq" as "from"
    And the client receives "solver.completed"
    And I remember its "seq" as "done"
    And the client sends:
      """
      {"event": "user.request_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.state_exported"
    And I remember its "metadata.signed_state" as "state"
    When the client drops the connection
    And I wait 300ms
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "last_seq": {done}, "signed_state": {state}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "system.notice"
    And the client receives no "solver.completed" within 500ms
    And the client has received no "solver.start"
    And the client has received no "system.error"
    And the client has received no "error.recovery_failed"
    Given client "B" connects
    And client "B" receives "system.connected"
    And client "B" sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "last_seq": {from}, "signed_state": {state}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And client "B" receives "solver.completed"

  @id:myagent.resume.replay-after-ack @req:myagent.buffer.last-acked @req:myagent.buffer.no-duplicates
  Scenario: Without last_seq the replay starts after the last acknowledged event
    myagent-events.md §Reliable Delivery Mechanism / Buffer Management: "ACK
    tracking prevents duplicate deliveries"; "Unacknowledged events are
    retried".
    Interpretation: user.reconnect_with_state without last_seq replays from
    the session's last acknowledged seq (user.ack {seq}, §Sequence Numbers):
    the client acknowledged solver.start, not solver.completed, so the replay
    brings solver.completed and not solver.start.
    Control: the replay is there (solver.completed comes again); a server
    that replays nothing without last_seq cannot show where an ack puts the
    replay's start, and the scenario is inconclusive.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "ack then resume"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.start"
    And I remember its "seq" as "from"
    And the client receives "solver.completed"
    And the client sends:
      """
      {"event": "user.ack", "session_id": "{sid}", "seq": {from}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    # events of one connection are handled in order: once the state comes
    # back, the server has recorded the ack
    And the client sends:
      """
      {"event": "user.request_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.state_exported"
    And I remember its "metadata.signed_state" as "state"
    When the client drops the connection
    And I wait 300ms
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "signed_state": {state}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Given the client receives "solver.completed"
    Then the client has received no "solver.start"
    And the client has received 1 "solver.completed"
    And the client has received no "system.error"
    And the client has received no "error.recovery_failed"

  @id:myagent.resume.request-state @req:myagent.user.request-state @req:myagent.agent.state-exported
  Scenario: user.request_state is answered with the session's state
    myagent-events.md §All Event Types / User Events: user.request_state
    requests the session state; §Agent Events: agent.state_exported is the
    state snapshot, its metadata the serialized state.

    When the client sends:
      """
      {"event": "user.request_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.state_exported"
    And its "session_id" is "{sid}"
    And its "metadata" is an object
    And the client has received no "error.validation"

  @id:myagent.resume.request-state-after-reconnect @req:myagent.session.keeps-id
  Scenario: A session outlives its connection
    myagent-events.md §Session Management / Session Lifecycle: Reconnect is a
    stage between Active and End (agent.session_end); §Connection Lifecycle:
    "Disconnect: Client detects and handles reconnection".
    Interpretation: a session does not end because its connection dropped: a
    client that reconnects can still ask for its state.

    When the client drops the connection
    And I wait 300ms
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.request_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.state_exported"
    And its "session_id" is "{sid}"

  @id:myagent.resume.reconnect-without-state @req:myagent.session.join @req:myagent.user.reconnect @req:myagent.agent.state-restored @scripted
  Scenario: user.reconnect rejoins the session without a replay
    myagent-events.md §All Event Types / User Events: user.reconnect reconnects
    without state; §Agent Events: agent.state_restored, state recovered.
    Interpretation: the server answers with agent.state_restored, and the live
    events of the running task reach the new connection. The task (/slow 30:
    3 s of chunks) outlasts the reconnection even on a loaded machine, and is
    given 15 s to end, so that late timers on a loaded machine are not taken
    for a task that never ends.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/slow 30"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.partial_answer"
    When the client drops the connection
    And I wait 300ms
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.state_restored"
    And the client receives "solver.completed" within 15s
    And the client has received no "solver.start"

  @id:myagent.resume.fan-out @req:myagent.session.join
  Scenario: Every connection of a session receives the same events
    myagent-events.md §Session Management: a session outlives its connections
    and user.reconnect joins it.
    Interpretation: a second connection that joined the session receives every
    event of its stream with the same seq and content (the check engine
    compares the copies).

    Given client "B" connects
    And client "B" receives "system.connected"
    And client "B" sends:
      """
      {"event": "user.reconnect", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And client "B" receives "agent.state_restored"
    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "tell everyone"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.completed"
    And I remember its "seq" as "done"
    Then client "B" receives, in order:
      | solver.start     |                 |
      | solver.completed | {"seq": {done}} |
