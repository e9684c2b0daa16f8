@minicodex
Feature: MiniCodex tool approvals
  minicodex-v1.md §Test matrix: tool approval path approval_pending → approve →
  function_call_output → finished. The scripted agent's "/tool NAME ARGS"
  calls a tool that needs the user's approval.

  Background:
    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "snapshot"

  @id:minicodex.approval.approve @must @scripted
  Scenario: An approved tool call outputs and the run finishes
    minicodex-v1.md §Test matrix: approval_pending → approve →
    function_call_output → finished; §Server → Client messages:
    ApprovalPending {call_id, tool_key}, ApprovalDecision {call_id, decision:
    "approve"}; the run waits in status awaiting_approval with the call in
    pending_approvals.

    When the client sends:
      """
      {"type": "send", "text": "/tool shell ls"}
      """
    Then the client receives "approval_pending"
    And its "tool_key" is "shell"
    And its "event_id" is an integer
    And I remember its "call_id" as "call"
    And the client receives "run_status" with:
      """
      {"run_state": {"status": "awaiting_approval"}}
      """
    And its "run_state.pending_approvals" contains {"call_id": "{call}", "tool_key": "shell"}
    When the client sends:
      """
      {"type": "approve", "call_id": "{call}", "req_id": "r-approve"}
      """
    Then the client receives "accepted" with:
      """
      {"req_id": "r-approve"}
      """
    And the client receives, in order:
      | approval_decision    | {"call_id": "{call}", "decision": "approve"} |
      | function_call_output | {"call_id": "{call}"}                        |
      | run_status           | {"run_state": {"status": "finished"}}        |
    And the client has received 1 "function_call_output"

  @id:minicodex.approval.deny @must @scripted
  Scenario: A denied tool call never runs and the run ends
    minicodex-v1.md §Client → Server messages: Deny {call_id};
    §Server → Client messages: ApprovalDecision decision "deny_continue" or
    "deny_abort". A denied call produces no function_call_output and the run
    still reaches a terminal status.

    When the client sends:
      """
      {"type": "send", "text": "/tool shell touch x"}
      """
    And the client receives "approval_pending"
    And I remember its "call_id" as "call"
    And the client sends:
      """
      {"type": "deny", "call_id": "{call}", "req_id": "r-deny"}
      """
    Then the client receives "approval_decision"
    And its "call_id" is "{call}"
    And its "decision" is one of ["deny_continue", "deny_abort"]
    And the client receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And the client has received no "function_call_output"
    And the client has received no "error"

  @id:minicodex.approval.deny-then-turn-done @should @scripted
  Scenario: A run whose only tool was denied ends with turn_done
    minicodex-v1.md §Semantics: Run completion: TurnDone is sent if there were
    no terminal artifacts (e.g. function_call_output). A denied call outputs
    nothing, so turn_done follows the finished status.

    When the client sends:
      """
      {"type": "send", "text": "/tool shell ls"}
      """
    And the client receives "approval_pending"
    And I remember its "call_id" as "call"
    And the client sends:
      """
      {"type": "deny", "call_id": "{call}"}
      """
    Then the client receives, in order:
      | approval_decision | {"call_id": "{call}"}                 |
      | run_status        | {"run_state": {"status": "finished"}} |
      | turn_done         |                                       |

  @id:minicodex.approval.pending-in-snapshot @should @scripted
  Scenario: A snapshot taken while a call waits lists it as pending
    minicodex-v1.md §State models: RunState.status awaiting_approval and
    pending_approvals: list[ApprovalBrief {call_id, tool_key, args}]; the
    server is authoritative, so get_snapshot shows the waiting call.

    When the client sends:
      """
      {"type": "send", "text": "/tool shell {\"cmd\": \"ls\"}"}
      """
    And the client receives "approval_pending"
    And I remember its "call_id" as "call"
    And the client sends:
      """
      {"type": "get_snapshot"}
      """
    Then the client receives "snapshot"
    And its "run_state.status" is "awaiting_approval"
    And its "run_state.pending_approvals" contains {"call_id": "{call}", "tool_key": "shell", "args": {"cmd": "ls"}}
    When the client sends:
      """
      {"type": "approve", "call_id": "{call}"}
      """
    Then the client receives "run_status" with:
      """
      {"run_state": {"status": "finished", "pending_approvals": []}}
      """

  @id:minicodex.approval.abort-while-pending @should @scripted
  Scenario: Aborting a run that waits for approval decides the call deny_abort
    minicodex-v1.md §Server → Client messages: ApprovalDecision decision
    "deny_abort". Interpretation: an abort while a call awaits approval
    decides that call deny_abort, the tool never runs, and the run ends
    finished.

    When the client sends:
      """
      {"type": "send", "text": "/tool shell ls"}
      """
    And the client receives "approval_pending"
    And I remember its "call_id" as "call"
    And the client sends:
      """
      {"type": "abort"}
      """
    Then the client receives, in order:
      | approval_decision | {"call_id": "{call}", "decision": "deny_abort"} |
      | run_status        | {"run_state": {"status": "finished"}}           |
    And the client has received no "function_call_output"
