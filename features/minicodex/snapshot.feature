@minicodex
Feature: MiniCodex snapshots
  minicodex-v1.md §Client → Server messages: GetSnapshot
  {include_transcript_window?}; §Server → Client messages: Snapshot
  {v, session_state, run_state, transcript, event_id}: the server's
  authoritative state, for a fresh load or after a resume.

  Background:
    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"
    And I remember its "session_state.session_id" as "sid"
    And the client receives "snapshot"

  @id:minicodex.snapshot.get @must
  Scenario: get_snapshot answers a snapshot of the connection's session
    minicodex-v1.md §Client → Server messages: GetSnapshot; §Server → Client
    messages: Snapshot carries v, the SessionState of this session, the
    transcript and the event_id it covers.

    When the client sends:
      """
      {"type": "get_snapshot", "req_id": "r-snap"}
      """
    Then the client receives "snapshot"
    And its "v" is "1.0.0"
    And its "session_state.session_id" is "{sid}"
    And its "transcript" is an array
    And its "event_id" is an integer
    And the client has received no "error"

  @id:minicodex.snapshot.after-run @must @scripted
  Scenario: A snapshot after a run shows the run and its transcript
    minicodex-v1.md §State models: the server is authoritative; the snapshot's
    run_state is the run (status finished), its transcript window holds the
    user's text and the assistant's answer, and its event_id covers every
    event so far.

    When the client sends:
      """
      {"type": "send", "text": "snapshot {unique}"}
      """
    And the client receives "run_status"
    And I remember its "run_state.run_id" as "run"
    And the client receives "turn_done"
    And I remember its "event_id" as "last"
    And the client sends:
      """
      {"type": "get_snapshot", "include_transcript_window": true}
      """
    Then the client receives "snapshot"
    And its "event_id" is at least {last}
    And its "run_state.run_id" is "{run}"
    And its "run_state.status" is "finished"
    And its "session_state.run_counter" is 1
    And its "session_state.last_event_id" is at least {last}
    And its "transcript" contains {"type": "user_text", "text": "snapshot {unique}"}
    And its "transcript" contains {"type": "assistant_text"}

  @id:minicodex.snapshot.mid-run @should @scripted
  Scenario: A snapshot during a run names the active run
    minicodex-v1.md §State models: SessionState.active_run_id is the run in
    progress and RunState.status says where it is.

    When the client sends:
      """
      {"type": "send", "text": "/slow 10"}
      """
    And the client receives "run_status" with:
      """
      {"run_state": {"status": "running"}}
      """
    And I remember its "run_state.run_id" as "run"
    And the client sends:
      """
      {"type": "get_snapshot"}
      """
    Then the client receives "snapshot"
    And its "session_state.active_run_id" is "{run}"
    And its "run_state.run_id" is "{run}"
    And its "run_state.status" is "running"

  @id:minicodex.snapshot.refused-command-changes-nothing @must
  Scenario: A refused command leaves the session's state as it was
    minicodex-v1.md §Semantics: Errors: invalid commands elicit an Error and
    do not transition state: a malformed send starts no run.

    When the client sends:
      """
      {"type": "send", "text": 42, "req_id": "r-bad"}
      """
    And the client receives "error"
    And the client sends:
      """
      {"type": "get_snapshot"}
      """
    Then the client receives "snapshot"
    And its "session_state.run_counter" is 0
    And the client has received no "run_status"
