@myagent
Feature: MyAgent reliable delivery: seq/ack, replay and state recovery
  myagent-events.md §Reliable Delivery Mechanism: events are numbered (seq),
  the client acknowledges them (user.ack), the server keeps a buffer of the
  last N events and replays it from last_seq on reconnect; §Event Flow
  Architecture / 3. Reconnection & State Recovery. The check engine judges
  every replay: no gap, no event the client already had (before last_seq),
  each replayed event equal to the original.

  Background:
    Given a client connects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"

  @id:myagent.resume.ack-no-redelivery @must
  Scenario: An acknowledged event is not delivered again
    myagent-events.md §Reliable Delivery Mechanism: the client acknowledges
    receipt with user.ack {seq}; §Buffer Management: "ACK tracking prevents
    duplicate deliveries".

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "acknowledge me", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.final_answer"
    And I remember its "seq" as "final"
    And the client sends:
      """
      {"event": "user.ack", "session_id": "{sid}", "seq": {final}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives no "agent.final_answer" within 500ms
    And the client has received 1 "agent.final_answer"
    And the client has received no "error.validation"

  @id:myagent.resume.ack-mid-run @must
  Scenario: Acknowledging events while the run goes on
    myagent-events.md §Reliable Delivery Mechanism / Sequence Numbers (seq/ack):
    the client acknowledges each received event; acknowledging does not
    disturb the stream, which goes on in seq order.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "acknowledge as you go", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "plan.start"
    And I remember its "seq" as "planned"
    And the client sends:
      """
      {"event": "user.ack", "session_id": "{sid}", "seq": {planned}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.start"
    And I remember its "seq" as "solving"
    And the client sends:
      """
      {"event": "user.ack", "session_id": "{sid}", "seq": {solving}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | solver.completed   |
      | pipeline.completed |
      | agent.final_answer |
    And the client has received 1 "plan.start"
    And the client has received 1 "solver.start"
    And the client has received no "error.validation"

  @id:myagent.resume.replay-completed-run @must
  Scenario: reconnect_with_state replays every buffered event after last_seq
    myagent-events.md §Event Flow Architecture / 3. Reconnection & State
    Recovery: the client reconnects with user.reconnect_with_state, the server
    sends the buffered events from last_seq (announced by system.notice), each
    once, in seq order and equal to the originals (the check engine judges
    order and equality); §Buffer Management: "on reconnect, client
    can request replay from last_seq".
    Interpretation: last_seq is a top-level member of the request, like seq in
    user.ack; the replayed events arrive as events of their own after the
    system.notice (a server that lists them in the notice's content.events is
    judged the same way by the check engine, but fails these steps).

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "remember all of this", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "plan.start"
    And I remember its "seq" as "from"
    And the client receives "agent.final_answer"
    And I remember its "seq" as "final"
    When the client drops the connection
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "last_seq": {from}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "system.notice"
    And the client receives "agent.final_answer" with:
      """
      {"seq": {final}}
      """
    And the client has received 1 "plan.completed"
    And the client has received 1 "solver.start"
    And the client has received 1 "solver.completed"
    And the client has received 1 "aggregate.start"
    And the client has received 1 "aggregate.completed"
    And the client has received 1 "pipeline.completed"
    And the client has received 1 "agent.final_answer"

  @id:myagent.resume.replay-after-refresh @must @scripted
  Scenario: A client that drops mid-run resumes without losing or repeating events
    myagent-events.md §Event Flow Architecture / 3. Reconnection & State
    Recovery: after a disconnect the client sends user.reconnect_with_state
    with the last seq it processed; the buffered events after it, then the live
    ones, arrive in seq order, none missing and none it already had.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "/slow 10", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.partial_answer"
    And I remember its "seq" as "seen"
    When the client drops the connection
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "last_seq": {seen}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | solver.completed   |
      | pipeline.completed |
      | agent.final_answer |
    And the client has received 1 "agent.final_answer"
    And the client has received no "plan.start"
    And the client has received no "solver.start"

  @id:myagent.resume.replay-nothing-missed @must
  Scenario: A client that missed nothing gets nothing it already had
    myagent-events.md §Reliable Delivery Mechanism / Buffer Management: replay
    from last_seq; "ACK tracking prevents duplicate deliveries". A client whose
    last_seq is the session's last event gets none of the earlier events again.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "nothing to replay", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.final_answer"
    And I remember its "seq" as "final"
    When the client drops the connection
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "last_seq": {final}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives no "pipeline.completed" within 500ms
    And the client has received no "plan.start"
    And the client has received no "solver.completed"
    And the client has received no "error.recovery_failed"

  @id:myagent.resume.replay-after-ack @should
  Scenario: Without last_seq the replay starts after the last acknowledged event
    myagent-events.md §Reliable Delivery Mechanism / Buffer Management: "ACK
    tracking prevents duplicate deliveries".
    Interpretation: user.reconnect_with_state without last_seq replays from
    the session's last acknowledged seq, so acknowledged events are not sent
    again.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "ack then resume", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.final_answer"
    And I remember its "seq" as "final"
    And the client sends:
      """
      {"event": "user.ack", "session_id": "{sid}", "seq": {final}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    # events of one connection are handled in order: once the state comes
    # back, the server has recorded the ack
    And the client sends:
      """
      {"event": "user.request_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.state_exported"
    When the client drops the connection
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect_with_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives no "agent.final_answer" within 500ms
    And the client has received no "plan.start"
    And the client has received no "error.recovery_failed"

  @id:myagent.resume.request-state @must
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

  @id:myagent.resume.request-state-after-reconnect @must
  Scenario: A reconnected client can request the state of its session
    myagent-events.md §Event Flow Architecture / 3. Reconnection & State
    Recovery and §All Event Types / User Events: after a reconnect the client
    may ask for the session state instead of (or after) a replay.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "state after reconnect", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.final_answer"
    When the client drops the connection
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.request_state", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.state_exported"
    And its "session_id" is "{sid}"

  @id:myagent.resume.reconnect-without-state @should @scripted
  Scenario: user.reconnect rejoins the session without a replay
    myagent-events.md §All Event Types / User Events: user.reconnect reconnects
    without state; §Agent Events: agent.state_restored, state recovered.
    Interpretation: the server answers with agent.state_restored, and the live
    events of the running pipeline reach the new connection.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "/slow 10", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.partial_answer"
    When the client drops the connection
    And the client reconnects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.reconnect", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.state_restored"
    And the client receives "agent.final_answer"
    And the client has received no "plan.start"

  @id:myagent.resume.fan-out @should
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
      {"event": "user.message", "session_id": "{sid}", "content": "tell everyone", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.final_answer"
    And I remember its "seq" as "final"
    Then client "B" receives, in order:
      | plan.start         |                  |
      | solver.start       |                  |
      | pipeline.completed |                  |
      | agent.final_answer | {"seq": {final}} |
