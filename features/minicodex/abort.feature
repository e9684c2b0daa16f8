@minicodex
Feature: MiniCodex aborts
  minicodex-v1.md §Test matrix: abort mid-run → aborted terminal. The scripted
  agent's "/slow N" streams N chunks 100 ms apart (ci/testmode.md), so an
  abort lands while the run streams; /slow 300 runs for 30 s, longer than a
  receive waits, so a run that ignored the abort cannot pass for an aborted
  one.

  Background:
    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"

  @id:minicodex.abort.mid-run @req:minicodex.abort.terminal @req:minicodex.matrix.abort @req:minicodex.abort.shape @scripted
  Scenario: Abort mid-run stops the stream and ends the run
    minicodex-v1.md §Test matrix: abort mid-run → aborted terminal;
    §Client → Server messages: Abort {run_id?}; §Server → Client messages:
    CommandAccepted acknowledges it. Interpretation: "aborted" is not a
    RunState status, so the aborted run ends with run_status finished and
    streams nothing more; the session is then free for a new send.

    When the client sends:
      """
      {"type": "send", "text": "/slow 300"}
      """
    And the client receives "assistant_text"
    And the client sends:
      """
      {"type": "abort", "req_id": "r-abort"}
      """
    Then the client receives "accepted" with:
      """
      {"req_id": "r-abort"}
      """
    And the client receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And the client receives no "assistant_text" within 300ms
    When the client sends:
      """
      {"type": "send", "text": "after the abort", "req_id": "r-after"}
      """
    Then the client receives "accepted" with:
      """
      {"req_id": "r-after"}
      """
    And the client has received no "error"

  @id:minicodex.abort.aborting-status @req:minicodex.abort.aborting-status @req:minicodex.run-status.key-statuses @scripted
  Scenario: An abort naming the active run goes through aborting
    minicodex-v1.md §Server → Client messages: RunStatus key statuses include
    aborting; Abort {run_id?} may name the run. Interpretation: the run
    reports aborting before its terminal finished, which tells an aborted
    run apart from one that ended on its own.

    When the client sends:
      """
      {"type": "send", "text": "/slow 300"}
      """
    And the client receives "run_status"
    And I remember its "run_state.run_id" as "run"
    And the client sends:
      """
      {"type": "abort", "run_id": "{run}"}
      """
    Then the client receives, in order:
      | run_status | {"run_state": {"run_id": "{run}", "status": "aborting"}} |
      | run_status | {"run_state": {"run_id": "{run}", "status": "finished"}} |
