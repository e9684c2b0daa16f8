@myagent
Feature: MyAgent plan → solve → aggregate pipeline
  myagent-events.md §Event Flow Architecture / 1: a user.message runs the
  pipeline plan.start → plan.completed → for each task solver.start …
  solver.completed → aggregate.start → aggregate.completed →
  pipeline.completed → agent.final_answer. Every event of the stream carries
  seq for reliable delivery; the check engine judges that seq increases.

  A server may ask the client to confirm the plan (§Event Flow Architecture /
  2, §Payload Examples / Plan Confirmation Request); the client answers as
  the spec shows (features/myagent/client.json). Scenarios about the solver
  stage run their tasks with user.solve_tasks ("Direct solver execution",
  §All Event Types / User Events), which has no plan to confirm, and end at
  the last solver.completed: the spec does not say whether direct execution
  aggregates. A server may run a plan's tasks one after another or at once,
  so no scenario orders the events of two tasks against each other.

  Background:
    Given a client connects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"

  @id:myagent.pipeline.full-order @req:myagent.flow.pipeline @req:myagent.seq.numbered
  Scenario: A user.message runs the whole pipeline in order
    myagent-events.md §Event Flow Architecture / 1. Plan → Solve → Aggregate
    Pipeline: the stages arrive in the documented order; pipeline.completed
    comes after aggregate.completed and before agent.final_answer (seq gives
    the order in which the server sent them).

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "hello there", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | plan.start          |
      | plan.completed      |
      | solver.start        |
      | solver.completed    |
      | aggregate.start     |
      | aggregate.completed |
    And I remember its "seq" as "aggregated"
    When the client receives "agent.final_answer"
    And I remember its "seq" as "final"
    Then the client has received 1 "pipeline.completed" where "seq" is greater than {aggregated}
    And the client has received 1 "pipeline.completed" where "seq" is less than {final}

  @id:myagent.pipeline.seq-numbered @req:myagent.seq.numbered @req:myagent.event.seq @req:myagent.seq.order
  Scenario: Every event of a run carries an increasing seq
    myagent-events.md §Reliable Delivery Mechanism / Sequence Numbers (seq/ack):
    events are numbered for reliable delivery; the check engine judges that the
    seq of the stream strictly increases on the connection.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "count with me"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.start"
    And its "seq" is an integer
    And I remember its "seq" as "solving"
    And the client receives "solver.completed"
    And its "seq" is greater than {solving}

  @id:myagent.pipeline.plan-payload @req:myagent.plan.completed @req:myagent.plan.start
  Scenario: plan.completed lists the tasks with their count
    myagent-events.md §All Event Types / Plan Events: "| plan.start |
    {question: "..."} |" and "| plan.completed | {tasks: [...]} | {task_count,
    plan_summary} |"; §Best Practices / 1. Event Creation: metadata
    {"task_count": len(task_list), "plan_summary": "..."}.
    Interpretation: the table rows and the example name the members without
    types or required words (shown, not stated). The scenario ends at
    plan.completed and leaves any agent.user_confirm unanswered.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "plan this", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "plan.start"
    And its "content.question" is a string
    And the client receives "plan.completed"
    And its "content.tasks" is an array
    And its "metadata.task_count" is at least 1
    And the client has received at most 1 "agent.user_confirm"

  @id:myagent.pipeline.echo-answer @req:myagent.agent.final-answer @scripted
  Scenario: The final answer carries the agent's reply
    myagent-events.md §All Event Types / Agent Events: agent.final_answer is the
    complete response. The scripted agent echoes plain text.

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "hello there", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.final_answer"
    And its "content" contains "Echo: hello there"

  @id:myagent.pipeline.thinking @req:myagent.flow.pipeline @req:myagent.agent.thinking @scripted
  Scenario: agent.thinking streams inside the solver stage
    myagent-events.md §Event Flow Architecture / 1: within a task, between
    solver.start and solver.completed, the agent reports agent.thinking.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/think weighing the options"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | solver.start     |
      | agent.thinking   |
      | solver.completed |

  @id:myagent.pipeline.tool-without-approval @req:myagent.flow.pipeline @req:myagent.agent.tool-call @req:myagent.agent.tool-result @scripted
  Scenario: A tool that needs no approval is reported as tool_call and tool_result
    myagent-events.md §Event Flow Architecture / 1: within a task the agent
    reports agent.tool_call (tool name, params) and agent.tool_result.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/exec list_files {\"dir\": \"/tmp\"}"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | solver.start      |
      | agent.tool_call   |
      | agent.tool_result |
      | solver.completed  |
    And the client has received no "agent.user_confirm"

  @id:myagent.pipeline.partial-answers @req:myagent.flow.pipeline @req:myagent.agent.partial-answer @req:myagent.seq.numbered @scripted
  Scenario: A streamed reply arrives as partial answers before the task completes
    myagent-events.md §All Event Types / Agent Events: agent.partial_answer is
    the streaming response; §Event Flow Architecture / 1: the task's events
    come before its solver.completed, and seq numbers them in the order sent
    (the check engine also reports a skipped seq, myagent.seq-gap).

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/stream 5"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | solver.start         |
      | agent.partial_answer |
      | solver.completed     |

  @id:myagent.pipeline.solve-tasks @req:myagent.flow.solve-tasks @req:myagent.user.solve-tasks @req:myagent.solver.start
  Scenario: user.solve_tasks runs the solver on each given task, without planning
    myagent-events.md §All Event Types / User Events: user.solve_tasks is direct
    solver execution; §Event Flow Architecture / 1: solver.start … solver.completed
    for each task; §Solver Events: solver.start carries {task: {...}}.
    Interpretation: the spec gives no payload; content.tasks lists the tasks
    (objects with a title). Direct execution skips planning; whether it
    aggregates is not said, and the tasks may run one after another or at
    once, so the scenario only counts each task's start and completion.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "first task"}, {"title": "second task"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.completed"
    And the client receives "solver.completed"
    And the client has received 1 "solver.start" where "content.task.title" is "first task"
    And the client has received 1 "solver.start" where "content.task.title" is "second task"
    And the client has received 2 "solver.start" where "content.task" is an object
    And the client has received 1 "solver.completed" where "content.task.title" is "first task"
    And the client has received 1 "solver.completed" where "content.task.title" is "second task"
    And the client has received no "plan.start"
