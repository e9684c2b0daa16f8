@myagent
Feature: MyAgent cancellation
  myagent-events.md §All Event Types / User Events: user.cancel cancels the
  current operation, user.cancel_task one task, user.restart_task runs a task
  again; §Plan Events / §Solver Events: the run reports plan.cancelled or
  solver.cancelled. The scripted agent's /slow N streams N chunks slowly, so a
  cancel lands mid-run. The runs are started with user.solve_tasks (direct
  solver execution), which has no plan to confirm.

  The spec gives no payload for user.cancel_task and user.restart_task: the
  scenarios name the task both at the top level (task_id, like seq in
  user.ack) and in content.task_id, so a server that reads either finds it.

  Background:
    Given a client connects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"

  @id:myagent.cancel.mid-run @req:myagent.user.cancel @req:myagent.cancel.ends-run @scripted
  Scenario: user.cancel stops a running task
    myagent-events.md §All Event Types / User Events: "| user.cancel | Client →
    Server | Cancel current operation |": once the server has had a moment to
    act on it, the cancelled operation streams no more output, and the run
    does not complete. Chunks already on the wire when the cancel arrives
    (within 300ms) are not held against the server.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/slow 20"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.partial_answer"
    And the client sends:
      """
      {"event": "user.cancel", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client skips what it receives within 300ms
    Then the client receives no "agent.partial_answer" within 1s
    And the client has received no "solver.completed"
    And the client has received no "agent.final_answer"

  @id:myagent.cancel.interrupted @req:myagent.cancel.ends-run @req:myagent.flow.cancelled-task @req:myagent.agent.interrupted @scripted
  Scenario: A cancelled task is reported with solver.cancelled, the run as interrupted
    myagent-events.md §Event Flow Architecture / 1: a task ends with
    "solver.completed (or solver.cancelled)"; §Agent Events: agent.interrupted,
    "Execution interrupted", with a reason.
    Interpretation: the flow diagram shows the task's cancellation event (shown,
    not stated); user.cancel ends the run with agent.interrupted after it.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/slow 20"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.partial_answer"
    And the client sends:
      """
      {"event": "user.cancel", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | solver.cancelled  |
      | agent.interrupted |

  @id:myagent.cancel.session-usable-after @req:myagent.session.active @req:myagent.user.cancel @req:myagent.cancel.ends-run @scripted
  Scenario: After a cancel the session accepts a new request
    myagent-events.md §Session Management / Session Lifecycle: the session stays
    Active after a cancelled operation; the next request runs its task to
    solver.completed.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/slow 20"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.partial_answer"
    And the client sends:
      """
      {"event": "user.cancel", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And I wait 300ms
    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "again please"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.completed" with:
      """
      {"content": {"task": {"title": "again please"}}}
      """

  @id:myagent.cancel.awaiting-confirmation @req:myagent.cancel.ends-run @req:myagent.flow.denied @scripted
  Scenario: user.cancel while a confirmation is open stops the run without the tool
    myagent-events.md §Event Flow Architecture / 2: "[Continue or cancel based
    on response]"; user.cancel cancels the current operation, including one
    waiting for the user's decision.
    Interpretation: the task ends with solver.cancelled (the flow's "or
    solver.cancelled"), the open step is closed: a late user.response to it is
    refused with error.validation and the tool does not run.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/tool write_file {\"path\": \"d.txt\"}"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.user_confirm"
    And I remember its "step_id" as "step"
    When the client sends:
      """
      {"event": "user.cancel", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.cancelled"
    When the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "{step}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "closed", "cancelled", "canceled", "step", "no longer", "expired", "answered"
    And the client receives no "agent.tool_call" within 300ms
    And the client has received no "solver.completed"

  @id:myagent.cancel.one-task @req:myagent.cancel.task @req:myagent.user.cancel-task @req:myagent.solver.cancelled @scripted
  Scenario: user.cancel_task cancels one task and the others still run
    myagent-events.md §All Event Types / User Events: user.cancel_task cancels a
    specific task; §Solver Events: solver.cancelled {task}.
    Interpretation: the task is named by task_id (top level and content.task_id,
    see above), the id the solver events carry in content.task.id; the
    cancelled task does not complete, the other task does (before or after
    the cancel: the tasks may run at once).

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/slow 20"}, {"title": "quick one"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.start" with:
      """
      {"content": {"task": {"title": "/slow 20"}}}
      """
    And I remember its "content.task.id" as "task"
    And the client receives "agent.partial_answer"
    When the client sends:
      """
      {"event": "user.cancel_task", "session_id": "{sid}", "task_id": {task}, "content": {"task_id": {task}}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.cancelled" with:
      """
      {"content": {"task": {"id": {task}}}}
      """
    And I wait 500ms
    Then the client has received 1 "solver.completed" where "content.task.title" is "quick one"
    And the client has received no "solver.completed" where "content.task.title" is "/slow 20"

  @id:myagent.cancel.restart-task @req:myagent.cancel.task @req:myagent.user.restart-task @req:myagent.solver.restarted @scripted
  Scenario: user.restart_task runs a cancelled task again
    myagent-events.md §All Event Types / User Events: user.restart_task restarts
    a failed task; §Solver Events: solver.restarted {task} with a retry count.
    Interpretation: a cancelled task may be restarted too, once its run ended;
    the task named by task_id (top level and content.task_id) runs again.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/slow 10"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.start"
    And I remember its "content.task.id" as "task"
    And the client sends:
      """
      {"event": "user.cancel_task", "session_id": "{sid}", "task_id": {task}, "content": {"task_id": {task}}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.cancelled"
    And I wait 500ms
    When the client sends:
      """
      {"event": "user.restart_task", "session_id": "{sid}", "task_id": {task}, "content": {"task_id": {task}}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | solver.restarted | {"content": {"task": {"id": {task}}}} |
      | solver.start     |                                       |
      | solver.completed |                                       |
