@minicodex
Feature: MiniCodex multi-client sessions
  minicodex-v1.md §Semantics: Multi-client: the server fans out events to all
  connected clients of a session; approvals are serialized server-side. The
  check engine verifies that each fanned-out copy equals the original event.

  Interpretation, throughout: a second client joins a session with hello
  naming the session in the envelope's session_id.

  Background:
    Given client "A" connects
    And client "A" sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And client "A" receives "welcome"
    And I remember its "session_state.session_id" as "sid"
    And client "B" connects
    And client "B" sends:
      """
      {"type": "hello", "v": "1.0.0", "session_id": "{sid}"}
      """
    And client "B" receives "welcome"
    And its "session_state.session_id" is "{sid}"
    And client "B" receives "snapshot"

  @id:minicodex.fanout.events @must @scripted
  Scenario: Every client of the session gets the run's events
    minicodex-v1.md §Test matrix: multi-client fan-out: a run started by one
    client streams to every client of the session, with the same event_ids.

    When client "A" sends:
      """
      {"type": "send", "text": "for everyone", "req_id": "r-a"}
      """
    Then client "A" receives "accepted" with:
      """
      {"req_id": "r-a"}
      """
    And client "A" receives "run_status"
    And I remember its "event_id" as "first"
    And client "A" receives, in order:
      | assistant_text |                                       |
      | run_status     | {"run_state": {"status": "finished"}} |
      | turn_done      |                                       |
    And client "B" receives "run_status" with:
      """
      {"event_id": {first}}
      """
    And client "B" receives, in order:
      | assistant_text |                                       |
      | run_status     | {"run_state": {"status": "finished"}} |
      | turn_done      |                                       |

  @id:minicodex.fanout.dedupe-across-clients @must @scripted
  Scenario: A client_msg_id repeated by another client within the run is ignored
    minicodex-v1.md §Test matrix: multi-client fan-out; de-dupe idempotent
    client_msg_id; §Semantics: a duplicate client_msg_id within a run is
    ignored, whichever client of the session sends it: no second run, no
    BUSY.

    When client "A" sends:
      """
      {"type": "send", "text": "/slow 6", "client_msg_id": "m-{unique}"}
      """
    And client "A" receives "run_status"
    And client "B" receives "run_status"
    And client "B" sends:
      """
      {"type": "send", "text": "/slow 6", "client_msg_id": "m-{unique}"}
      """
    Then client "B" receives "turn_done"
    And client "A" receives "turn_done"
    And client "B" receives no "run_status" within 300ms
    And client "B" has received no "error"
    And client "A" has received 1 "run_status" where "run_state.status" is "finished"
    And client "B" has received 1 "run_status" where "run_state.status" is "finished"

  @id:minicodex.fanout.join-mid-run @should @scripted
  Scenario: A client joining mid-run sees the active run and its live events
    minicodex-v1.md §Handshake & resume: a fresh load gets welcome + snapshot,
    then events; §State models: SessionState.active_run_id names the run in
    progress.

    Given client "C" connects
    When client "A" sends:
      """
      {"type": "send", "text": "/slow 10"}
      """
    And client "A" receives "run_status" with:
      """
      {"run_state": {"status": "running"}}
      """
    And I remember its "run_state.run_id" as "run"
    And client "C" sends:
      """
      {"type": "hello", "v": "1.0.0", "session_id": "{sid}"}
      """
    Then client "C" receives "welcome"
    And its "session_state.active_run_id" is "{run}"
    And client "C" receives "snapshot"
    And its "run_state.run_id" is "{run}"
    And client "C" receives "run_status" with:
      """
      {"run_state": {"run_id": "{run}", "status": "finished"}}
      """

  @id:minicodex.fanout.approval-conflict @must @scripted
  Scenario: Two clients decide one call: the first decision wins
    minicodex-v1.md §Semantics: approvals are serialized server-side; error
    code APPROVAL_CONFLICT: once client A approved a call, client B's deny of
    the same call is refused and changes nothing, and both clients see the one
    decision.

    When client "A" sends:
      """
      {"type": "send", "text": "/tool shell ls"}
      """
    And client "A" receives "approval_pending"
    And I remember its "call_id" as "call"
    And client "B" receives "approval_pending" with:
      """
      {"call_id": "{call}"}
      """
    And client "A" sends:
      """
      {"type": "approve", "call_id": "{call}"}
      """
    And client "A" receives "approval_decision" with:
      """
      {"call_id": "{call}", "decision": "approve"}
      """
    And client "B" receives "approval_decision" with:
      """
      {"call_id": "{call}", "decision": "approve"}
      """
    And client "B" sends:
      """
      {"type": "deny", "call_id": "{call}", "req_id": "r-late"}
      """
    Then client "B" receives "error" with:
      """
      {"code": "APPROVAL_CONFLICT"}
      """
    And client "A" receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And client "A" has received 1 "approval_decision"
    And client "A" has received 1 "function_call_output"
    And client "B" has received 1 "approval_decision"
