@myagent
Feature: MyAgent cancellation
  myagent-events.md §All Event Types / User Events: user.cancel cancels the
  current operation, user.cancel_task one task, user.restart_task runs a task
  again; §Plan Events / §Solver Events: the run reports plan.cancelled or
  solver.cancelled. The scripted agent's /slow N streams N chunks slowly, so a
  cancel lands mid-run.

  Background:
    Given a client connects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"

  @id:myagent.cancel.mid-run @must @scripted
  Scenario: user.cancel stops a running task
    myagent-events.md §All Event Types / User Events: user.cancel cancels the
    current operation; §Solver Events: solver.cancelled {task}. A cancelled run
    does not complete: no pipeline.completed, no agent.final_answer.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "/slow 20", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.partial_answer"
    And the client sends:
      """
      {"event": "user.cancel", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.cancelled"
    And its "content.task" is an object
    And the client receives no "agent.final_answer" within 500ms
    And the client has received no "pipeline.completed"
    And the client has received no "agent.final_answer"

  @id:myagent.cancel.interrupted @should @scripted
  Scenario: A cancelled run is reported as interrupted
    myagent-events.md §All Event Types / Agent Events: agent.interrupted,
    "Execution interrupted", with a reason.
    Interpretation: user.cancel ends the run with agent.interrupted after the
    stage's cancellation event.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "/slow 20", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.partial_answer"
    And the client sends:
      """
      {"event": "user.cancel", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | solver.cancelled  |
      | agent.interrupted |

  @id:myagent.cancel.session-usable-after @must @scripted
  Scenario: After a cancel the session accepts a new message
    myagent-events.md §Session Management / Session Lifecycle: the session stays
    Active after a cancelled operation; the next user.message runs a new
    pipeline to its final answer.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "/slow 20", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.partial_answer"
    And the client sends:
      """
      {"event": "user.cancel", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.cancelled"
    And the client receives no "agent.final_answer" within 200ms
    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "again please", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | plan.start         |
      | pipeline.completed |
      | agent.final_answer |

  @id:myagent.cancel.awaiting-confirmation @must @scripted
  Scenario: user.cancel while a confirmation is open stops the run without the tool
    myagent-events.md §Event Flow Architecture / 2: "[Continue or cancel based
    on response]"; user.cancel cancels the current operation, including one
    waiting for the user's decision.
    Interpretation: the open step is closed: a late user.response to it is
    refused with error.validation and the tool does not run.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "/tool write_file {\"path\": \"d.txt\"}", "timestamp": "2025-01-01T00:00:00Z"}
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
    And the client receives no "agent.tool_call" within 300ms
    And the client has received no "agent.final_answer"

  @id:myagent.cancel.one-task @should @scripted
  Scenario: user.cancel_task cancels one task and the run goes on
    myagent-events.md §All Event Types / User Events: user.cancel_task cancels a
    specific task; §Solver Events: solver.cancelled {task}.
    Interpretation: the task is named by task_id, the id the solver events
    carry in content.task.id; the other tasks still run and the pipeline
    completes.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/slow 20"}, {"title": "quick one"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.start"
    And I remember its "content.task.id" as "task"
    And the client receives "agent.partial_answer"
    When the client sends:
      """
      {"event": "user.cancel_task", "session_id": "{sid}", "task_id": {task}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.cancelled" with:
      """
      {"content": {"task": {"id": {task}}}}
      """
    And the client receives, in order:
      | solver.start        | {"content": {"task": {"title": "quick one"}}} |
      | solver.completed    | {"content": {"task": {"title": "quick one"}}} |
      | pipeline.completed  |                                               |
      | agent.final_answer  |                                               |

  @id:myagent.cancel.restart-task @should @scripted
  Scenario: user.restart_task runs a cancelled task again
    myagent-events.md §All Event Types / User Events: user.restart_task restarts
    a failed task; §Solver Events: solver.restarted {task} with a retry count.
    Interpretation: a cancelled task may be restarted too, once the run ended;
    the restarted task runs through aggregation to a new final answer.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/slow 10"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.start"
    And I remember its "content.task.id" as "task"
    And the client sends:
      """
      {"event": "user.cancel_task", "session_id": "{sid}", "task_id": {task}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.cancelled"
    And the client receives "agent.final_answer"
    When the client sends:
      """
      {"event": "user.restart_task", "session_id": "{sid}", "task_id": {task}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | solver.restarted   | {"content": {"task": {"id": {task}}}} |
      | solver.start       |                                       |
      | solver.completed   |                                       |
      | pipeline.completed |                                       |
      | agent.final_answer |                                       |
