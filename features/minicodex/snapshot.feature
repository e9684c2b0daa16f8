@minicodex
Feature: MiniCodex snapshots
  minicodex-v1.md §Client → Server messages: GetSnapshot
  {include_transcript_window?}; §Server → Client messages: Snapshot
  {v, session_state, run_state, transcript, event_id}: the server's
  authoritative state, for a fresh load or after a resume. The handshake's
  snapshot is optional, so the Background waits for the answer to a ping
  (a barrier: whatever the handshake sent came before it) and every snapshot
  received afterwards answers get_snapshot.

  Background:
    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"
    And I remember its "session_state.session_id" as "sid"
    And the client sends:
      """
      {"type": "ping", "req_id": "r-ready"}
      """
    And the client receives "accepted" with:
      """
      {"req_id": "r-ready"}
      """

  @id:minicodex.snapshot.get @req:minicodex.get-snapshot.answered @req:minicodex.get-snapshot.shape @req:minicodex.snapshot.shape
  Scenario: get_snapshot answers a snapshot of the connection's session
    minicodex-v1.md §Client → Server messages: GetSnapshot; §Server → Client
    messages: Snapshot {type: "snapshot", v: "1.0.0", session_state:
    SessionState, …} of this session (transcript and event_id are required
    by the TypeScript type only; the check engine reports the difference).

    When the client sends:
      """
      {"type": "get_snapshot", "req_id": "r-snap"}
      """
    Then the client receives "snapshot"
    And its "v" is "1.0.0"
    And its "session_state.session_id" is "{sid}"
    And the client has received no "error"

  @id:minicodex.snapshot.after-run @req:minicodex.snapshot.shape-prose @req:minicodex.get-snapshot.answered @req:minicodex.status.server-authoritative @req:minicodex.transcript.user-text @req:minicodex.transcript.assistant-text
  Scenario: A snapshot after a run holds the run's transcript
    minicodex-v1.md §Core concepts: a run is "user input → assistant/tool
    outputs"; §State models: the server is authoritative and the "full
    transcript [is] retrievable via snapshot"; §Transcript items: UserText
    {type: "user_text", text}, AssistantText {type: "assistant_text", text}.
    After the run finished, a snapshot's transcript holds the user's text
    and the assistant's answer.

    When the client sends:
      """
      {"type": "send", "text": "snapshot {unique}"}
      """
    And the client receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And the client sends:
      """
      {"type": "get_snapshot", "include_transcript_window": true}
      """
    Then the client receives "snapshot"
    And its "session_state.session_id" is "{sid}"
    And its "transcript" contains {"type": "user_text", "text": "snapshot {unique}"}
    And its "transcript" contains {"type": "assistant_text"}

  @id:minicodex.snapshot.after-run-state @req:minicodex.state.last-event-id @req:minicodex.state.run-counter @scripted
  Scenario: A snapshot after a run names the run, the run count and the last event
    minicodex-v1.md §State models: SessionState {last_event_id, run_counter},
    RunState {run_id, status}; Snapshot {run_state, event_id}. The spec names
    these members without describing them. Interpretation: the snapshot's
    run_state is the last run (status finished), run_counter counts the
    session's runs, and last_event_id and event_id cover every event so far.

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

  @id:minicodex.snapshot.mid-run @req:minicodex.state.active-run @scripted
  Scenario: A snapshot during a run names the active run
    minicodex-v1.md §State models: SessionState.active_run_id, RunState.status.
    Interpretation: active_run_id is the run in progress (the spec names it
    without describing it) and RunState.status says where it is.

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

  @id:minicodex.snapshot.refused-command-changes-nothing @req:minicodex.errors.invalid-command @req:minicodex.send.shape
  Scenario: A refused command leaves the session's state as it was
    minicodex-v1.md §Semantics: Errors: invalid commands elicit an Error and
    "do not transition state": a malformed send (§Client → Server messages:
    text: str) starts no run, so by the time a snapshot answers, no
    run_status has been sent.

    When the client sends:
      """
      {"type": "send", "text": 42, "req_id": "r-bad"}
      """
    And the client receives "error"
    And the refusal names one of "text", "string"
    And the client sends:
      """
      {"type": "get_snapshot"}
      """
    Then the client receives "snapshot"
    And its "session_state.session_id" is "{sid}"
    And the client has received no "run_status"
