@minicodex
Feature: MiniCodex resume and replay
  minicodex-v1.md §Handshake & resume: a client that reconnects sends
  resume {last_seen_event_id}; the server replies welcome (+ snapshot,
  optional) + the replay of the events after last_seen_event_id, bounded; if
  the gap exceeds the server's window, the client is told to fetch a full
  snapshot with get_snapshot. The check engine compares every replayed event
  with the original (same event_id, same content) and flags a gap or an
  event re-sent at or below last_seen_event_id.

  Interpretation, throughout: resume names its session in the envelope's
  session_id (the spec's Envelope member); the Resume model has no other way.
  A server that reads it otherwise fails the welcome's session_id check.

  @id:minicodex.resume.replay-after-refresh @req:minicodex.matrix.resume @req:minicodex.handshake.reply @req:minicodex.event-log.total-order @req:minicodex.resume.last-seen-is-seen @scripted
  Scenario: Resume after a refresh replays what the client missed
    minicodex-v1.md §Test matrix: resume after refresh with last_seen_event_id
    replay; §Handshake & resume: welcome + snapshot (optional) + "replay delta
    from last_seen_event_id". The run goes on while the tab is gone (the
    server is authoritative); the resume replays every event after
    last_seen_event_id (the event right after it first: event_id is the
    session's total order) and nothing at or before it, the same events as
    before (the check engine compares them), and the live events follow.
    turn_done and the finished status may come in either order, and a ping
    barrier does not order them (a server may answer the ping before it
    queues the second): the scenario waits for both, then a ping barrier
    lets a duplicate queued before it arrive, then they are counted.

    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"
    And I remember its "session_state.session_id" as "sid"
    When the client sends:
      """
      {"type": "send", "text": "/slow 6"}
      """
    And the client receives "run_status" with:
      """
      {"run_state": {"status": "starting"}}
      """
    And I remember its "event_id" as "seen"
    And the client receives "run_status" with:
      """
      {"run_state": {"status": "running"}}
      """
    And I remember its "event_id" as "next"
    And the client receives "assistant_text"
    And the client drops the connection
    And the client reconnects
    And the client sends:
      """
      {"type": "resume", "session_id": "{sid}", "last_seen_event_id": {seen}, "req_id": "r-resume"}
      """
    Then the client receives "welcome"
    And its "session_state.session_id" is "{sid}"
    And the client receives "run_status" with:
      """
      {"event_id": {next}, "run_state": {"status": "running"}}
      """
    And the client receives "run_status" with:
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
    And the client has received no "run_status" where "run_state.status" is "starting"
    And the client has received 1 "turn_done"

  @id:minicodex.resume.caught-up @req:minicodex.handshake.reply @req:minicodex.resume.last-seen-is-seen @scripted
  Scenario: Resume from the last event replays nothing
    minicodex-v1.md §Handshake & resume: the replay is the "delta from
    last_seen_event_id"; a client resuming from the run's turn_done gets
    welcome and none of the run's text again (the check engine fails any
    event at or before last_seen_event_id delivered again,
    minicodex.replay-duplicate). Control: a resume from the run's first
    event does replay its text, so a server that replays nothing makes the
    scenario inconclusive rather than pass.

    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"
    And I remember its "session_state.session_id" as "sid"
    And the client sends:
      """
      {"type": "send", "text": "nothing to replay"}
      """
    And the client receives "run_status"
    And I remember its "event_id" as "early"
    And the client receives "turn_done"
    And I remember its "event_id" as "last"
    And the client drops the connection
    And the client reconnects
    And the client sends:
      """
      {"type": "resume", "session_id": "{sid}", "last_seen_event_id": {early}}
      """
    And the client receives "welcome"
    And the client receives "assistant_text"
    And the client receives "turn_done"
    When the client drops the connection
    And the client reconnects
    And the client sends:
      """
      {"type": "resume", "session_id": "{sid}", "last_seen_event_id": {last}}
      """
    Then the client receives "welcome"
    And its "session_state.session_id" is "{sid}"
    And the client receives no "assistant_text" within 300ms

  @id:minicodex.resume.from-start @req:minicodex.resume.null-from-start @req:minicodex.resume.shape @scripted
  Scenario: Resume with a null last_seen_event_id replays from the start
    minicodex-v1.md §Client → Server messages: Resume {last_seen_event_id:
    int | null}. Interpretation: null means the client saw nothing, so the
    replay starts with the session's first event.

    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"
    And I remember its "session_state.session_id" as "sid"
    And the client sends:
      """
      {"type": "send", "text": "replay me"}
      """
    And the client receives "run_status"
    And I remember its "event_id" as "first"
    And the client receives "turn_done"
    When the client drops the connection
    And the client reconnects
    And the client sends:
      """
      {"type": "resume", "session_id": "{sid}", "last_seen_event_id": null}
      """
    Then the client receives "welcome"
    And the client receives "run_status" with:
      """
      {"event_id": {first}}
      """
    And the client receives "turn_done"

  @id:minicodex.resume.window-exceeded @req:minicodex.handshake.window-exceeded-form @req:minicodex.handshake.window-exceeded @scripted @reference-fixture
  Scenario: A gap beyond the replay window sends the client to get_snapshot
    minicodex-v1.md §Handshake & resume: if the gap exceeds the server window,
    the server instructs the client to fetch a full snapshot via get_snapshot.
    Interpretation: the instruction is error REPLAY_WINDOW_EXCEEDED with
    details.action "get_snapshot", and no event past the gap arrives before
    the client fetched the snapshot, which then covers every event. The
    scenario assumes a window under 1200 events: the reference's window of
    1000 is its own configuration, so the scenario is a reference fixture.

    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"
    And I remember its "session_state.session_id" as "sid"
    And the client sends:
      """
      {"type": "send", "text": "/stream 1200"}
      """
    And the client receives "run_status"
    And I remember its "event_id" as "early"
    And the client receives "turn_done" within 20s
    And I remember its "event_id" as "last"
    When the client drops the connection
    And the client reconnects
    And the client sends:
      """
      {"type": "resume", "session_id": "{sid}", "last_seen_event_id": {early}}
      """
    Then the client receives "welcome"
    And the client receives "error" with:
      """
      {"code": "REPLAY_WINDOW_EXCEEDED", "details": {"action": "get_snapshot"}}
      """
    And the client receives no "assistant_text" within 300ms
    When the client sends:
      """
      {"type": "get_snapshot", "include_transcript_window": true, "req_id": "r-snap"}
      """
    Then the client receives "snapshot"
    And its "event_id" is at least {last}
    And its "session_state.session_id" is "{sid}"
    And its "run_state.status" is "finished"
    And its "transcript" contains {"type": "assistant_text"}

  @id:minicodex.resume.unknown-session @req:minicodex.resume.unknown-session
  Scenario: Resuming a session the server does not know is refused
    minicodex-v1.md §Semantics: Errors: an invalid command elicits an error
    and does not transition state. Interpretation: resume naming an unknown
    session_id is BAD_ARGUMENT and attaches the connection to nothing.

    Given a client connects
    When the client sends:
      """
      {"type": "resume", "session_id": "sess-unknown-{unique}", "last_seen_event_id": 0}
      """
    Then the client receives "error" with:
      """
      {"code": "BAD_ARGUMENT"}
      """
    And the refusal names one of "unknown session", "no such session", "session not found", "session_id", "session id", "does not exist", "not exist"
    And the client receives no "welcome"

  @id:minicodex.resume.beyond-last-event @req:minicodex.resume.beyond-last-event
  Scenario: Resuming from an event the session never had is refused
    minicodex-v1.md §Semantics: Errors: BAD_ARGUMENT for an argument out of
    range, and no state transition. Interpretation: last_seen_event_id beyond
    the session's last event is BAD_ARGUMENT; a correct resume afterwards on
    the same connection is welcomed.

    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"
    And I remember its "session_state.session_id" as "sid"
    When the client drops the connection
    And the client reconnects
    And the client sends:
      """
      {"type": "resume", "session_id": "{sid}", "last_seen_event_id": 1000000000}
      """
    Then the client receives "error" with:
      """
      {"code": "BAD_ARGUMENT"}
      """
    And the refusal names one of "last_seen", "event_id", "event id", "range", "outside", "beyond", "ahead", "future"
    And the client receives no "welcome"
    When the client sends:
      """
      {"type": "resume", "session_id": "{sid}", "last_seen_event_id": null}
      """
    Then the client receives "welcome"
    And its "session_state.session_id" is "{sid}"
