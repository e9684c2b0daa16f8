@minicodex
Feature: MiniCodex multi-client sessions
  minicodex-v1.md §Semantics: Multi-client: the server fans out events to all
  connected clients of a session; approvals are serialized server-side. The
  check engine verifies that each fanned-out copy equals the original event.

  Interpretation, throughout: a second client joins a session with hello
  naming the session in the envelope's session_id (the spec's Envelope
  member; Hello has no other way). A server that attaches it to a new
  session instead fails the Background's check of B's session_id.

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

  @id:minicodex.fanout.events @req:minicodex.multi-client.fanout @req:minicodex.matrix.fanout-dedupe @req:minicodex.event-log.total-order @scripted
  Scenario: Every client of the session gets the run's events
    minicodex-v1.md §Semantics: Multi-client: the "server fans out events to
    all connected clients for a session"; §Core concepts: event_id is the
    session's total ordering, so a run started by one client streams to every
    client of the session with the same event_ids (the check engine compares
    the copies, minicodex.replay-mismatch).

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
    And client "B" receives "run_status" with:
      """
      {"event_id": {first}}
      """
    And client "B" receives, in order:
      | assistant_text |                                       |
      | run_status     | {"run_state": {"status": "finished"}} |

  @id:minicodex.fanout.dedupe-across-clients @req:minicodex.idempotency.client-msg-id @req:minicodex.matrix.fanout-dedupe @req:minicodex.multi-client.fanout @scripted
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
    Then client "B" receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And client "B" sends:
      """
      {"type": "ping", "req_id": "r-barrier-b"}
      """
    And client "B" receives "accepted" with:
      """
      {"req_id": "r-barrier-b"}
      """
    And client "A" has received 1 "run_status" within 5s where "run_state.status" is "finished"
    And client "A" sends:
      """
      {"type": "ping", "req_id": "r-barrier-a"}
      """
    And client "A" receives "accepted" with:
      """
      {"req_id": "r-barrier-a"}
      """
    And client "B" receives no "run_status" within 300ms
    And client "B" has received no "error"
    And client "A" has received 1 "run_status" where "run_state.status" is "finished"
    And client "B" has received 1 "run_status" where "run_state.status" is "finished"

  @id:minicodex.fanout.join-mid-run @req:minicodex.state.active-run @req:minicodex.handshake.reply @scripted
  Scenario: A client joining mid-run sees the active run and its live events
    minicodex-v1.md §Handshake & resume: a fresh load gets welcome + snapshot
    (optional), then events; §State models: SessionState.active_run_id. The
    spec only shows the handshake snapshot. Interpretation: active_run_id and
    the snapshot's run_state name the run in progress.

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

  @id:minicodex.fanout.approval-conflict @req:minicodex.multi-client.approvals-serialized @req:minicodex.multi-client.fanout @scripted
  Scenario: Two clients decide one call: the first decision wins
    minicodex-v1.md §Semantics: Multi-client: "approvals are serialized
    server‑side", so once client A's approve was accepted, client B's late
    deny of the same call changes nothing: the approved tool outputs once,
    the run finishes and no client sees a deny decision. (How the late deny
    is answered is minicodex.fanout.approval-conflict-refused's, an
    interpretation.)

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
      {"type": "approve", "call_id": "{call}", "req_id": "r-first"}
      """
    And client "A" receives "accepted" with:
      """
      {"req_id": "r-first"}
      """
    And client "B" sends:
      """
      {"type": "deny", "call_id": "{call}", "req_id": "r-late"}
      """
    Then client "A" receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And client "B" receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And client "A" has received 1 "function_call_output"
    And client "A" has received no "approval_decision" where "decision" is not "approve"
    And client "B" has received no "approval_decision" where "decision" is not "approve"

  @id:minicodex.fanout.approval-conflict-refused @req:minicodex.error-codes.approval-conflict @req:minicodex.multi-client.approvals-serialized @scripted
  Scenario: A second client's late decision is refused with APPROVAL_CONFLICT
    minicodex-v1.md §Semantics: approvals are serialized server-side; §Error
    codes: APPROVAL_CONFLICT. The spec only shows approval_decision as the
    announcement of a decision. Interpretation: the late deny is refused with
    APPROVAL_CONFLICT, as the code's name says, and both clients see the one
    decision once.

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
