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
    And the client receives "welcome"

  @id:minicodex.approval.approve @req:minicodex.matrix.approval-path @req:minicodex.approval-pending.shape @req:minicodex.approve.shape @req:minicodex.envelope.req-id @scripted
  Scenario: An approved tool call outputs and the run finishes
    minicodex-v1.md §Test matrix: "Tool approval path: approval_pending →
    approve → function_call_output → finished"; §Server → Client messages:
    ApprovalPending {call_id, tool_key, …}; §Client → Server messages:
    Approve {call_id}; FunctionCallOutput names the call by call_id;
    CommandAccepted acknowledges the approve with its req_id (§Envelope).

    When the client sends:
      """
      {"type": "send", "text": "/tool shell ls"}
      """
    Then the client receives "approval_pending"
    And its "tool_key" is a string
    And I remember its "call_id" as "call"
    When the client sends:
      """
      {"type": "approve", "call_id": "{call}", "req_id": "r-approve"}
      """
    Then the client receives, in order:
      | function_call_output | {"call_id": "{call}"}                 |
      | run_status           | {"run_state": {"status": "finished"}} |
    And the client has received 1 "accepted" where "req_id" is "r-approve"
    And the client has received 1 "function_call_output"

  @id:minicodex.approval.decision-and-state @req:minicodex.state.pending-approvals @req:minicodex.approval.decision-announced @req:minicodex.approval-pending.shape @scripted
  Scenario: An approval is announced, reported in the run state and decided
    minicodex-v1.md §Server → Client messages: ApprovalPending {call_id,
    tool_key, args_json, event_id}, ApprovalDecision {call_id, decision:
    "approve" | "deny_continue" | "deny_abort", event_id}; §State models:
    RunState.status awaiting_approval, pending_approvals:
    list[ApprovalBrief]. The spec only shows that a run waiting for an
    approval reports awaiting_approval with the call in pending_approvals,
    and that an approve is followed by an approval_decision naming the call
    (the test matrix's approval path names neither). Interpretation: the
    tool_key is the hint's tool name.

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

  @id:minicodex.approval.deny @req:minicodex.approval.deny-no-output @req:minicodex.deny.shape @req:minicodex.approval-decision.shape @scripted
  Scenario: A denied tool call never runs and the run ends
    minicodex-v1.md §Client → Server messages: Deny {call_id}: the user
    refuses the call, so it produces no function_call_output and no
    approval_decision other than a deny (decision is "approve" |
    "deny_continue" | "deny_abort", a closed Literal). ci/testmode.md /tool:
    denied, the tool does not run and the reply continues, so the run
    finishes. Control: an approved call outputs first, so a server that
    never runs a tool, or declines every answer, makes the scenario
    inconclusive rather than pass.

    Given the client sends:
      """
      {"type": "send", "text": "/tool shell ls"}
      """
    And the client receives "approval_pending"
    And I remember its "call_id" as "approved"
    And the client sends:
      """
      {"type": "approve", "call_id": "{approved}"}
      """
    And the client receives "function_call_output" with:
      """
      {"call_id": "{approved}"}
      """
    And the client receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
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
    Then the client receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And the client has received no "function_call_output" where "call_id" is "{call}"
    And the client has received at most 1 "approval_decision" where "decision" is "approve"
    And the client has received no "error"

  @id:minicodex.approval.deny-decision @req:minicodex.approval.decision-announced @req:minicodex.approval-decision.shape @scripted
  Scenario: A denied call is decided deny_continue or deny_abort
    minicodex-v1.md §Server → Client messages: ApprovalDecision {call_id,
    decision: "approve" | "deny_continue" | "deny_abort"}. The spec only
    shows that a deny is followed by an approval_decision naming the call.

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

  @id:minicodex.approval.deny-then-turn-done @req:minicodex.run-completion.denied-turn-done @req:minicodex.run-completion.turn-done @scripted
  Scenario: A run whose only tool was denied ends with turn_done
    minicodex-v1.md §Semantics: Run completion: TurnDone is sent if there were
    no terminal artifacts (e.g. function_call_output). Interpretation: a
    denied call outputs nothing, so the run ends with turn_done as well as
    the finished status (in either order: the scenario waits for both, then
    a ping barrier lets a duplicate queued before it arrive).

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
    Then the client receives "run_status" with:
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
    And the client has received 1 "turn_done"

  @id:minicodex.approval.pending-in-snapshot @req:minicodex.state.pending-approvals @req:minicodex.state.approval-brief @scripted
  Scenario: A snapshot taken while a call waits lists it as pending
    minicodex-v1.md §State models: RunState.status awaiting_approval and
    pending_approvals: list[ApprovalBrief {call_id, tool_key, args}]; the
    server is authoritative. Interpretation: get_snapshot shows the waiting
    call in pending_approvals with the args it was called with, and the list
    is empty once the call is decided.

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

  @id:minicodex.approval.abort-while-pending @req:minicodex.abort.pending-deny-abort @req:minicodex.approval-decision.shape @scripted
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
