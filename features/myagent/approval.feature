@myagent
Feature: MyAgent confirmations paired by step_id
  myagent-events.md §Request/Response Pairing (step_id) and §Event Flow
  Architecture / 2. User Confirmation Flow: the server asks with
  agent.user_confirm carrying a step_id, the client answers with user.response
  repeating that step_id, and the run continues or stops on the answer. The
  scripted agent asks for approval with /tool and asks a question with /ask;
  those runs are started with user.solve_tasks (direct solver execution), so
  that the only confirmation is the one the scenario is about.

  Background:
    Given a client connects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    And I remember its "session_id" as "sid"

  @id:myagent.approval.plan-approved @req:myagent.flow.confirmation @req:myagent.response.approved @req:myagent.example.plan-confirmation @req:myagent.flow.pipeline
  Scenario: A plan the client approves as the spec shows is solved
    myagent-events.md §Request/Response Pairing (step_id): the client answers
    agent.user_confirm with user.response, the same step_id and content
    {approved: true}; §Event Flow Architecture / 2: "[Continue or cancel based
    on response]"; §Payload Examples / Plan Confirmation Request (metadata.scope
    "plan"). A server may ask to confirm the plan or not: the client answers any
    confirmation as the spec shows (features/myagent/client.json), and the run
    then solves its task and ends with agent.final_answer. The check engine's
    myagent.confirm-ignored judges a run that ends instead (a warning: the
    answer's shape is only shown by the spec's example).

    When the client sends:
      """
      {"event": "user.message", "session_id": "{sid}", "content": "solve after my approval", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.final_answer"
    And the client has received at least 1 "solver.start"
    And the client has received at least 1 "solver.completed"

  @id:myagent.approval.tool-approved @req:myagent.response.approved @req:myagent.flow.confirmation @req:myagent.agent.tool-call @req:myagent.agent.tool-result @scripted
  Scenario: An approved tool call runs
    myagent-events.md §Request/Response Pairing (step_id): the client responds
    with the matching step_id and content {approved: true}; §Event Flow
    Architecture / 2: the run continues on approval.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/tool write_file {\"path\": \"notes.txt\"}"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.user_confirm"
    And its "step_id" is a string
    And I remember its "step_id" as "step"
    And the client has received no "agent.tool_call"
    When the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "{step}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | agent.tool_call   | {"metadata": {"tool": "write_file"}} |
      | agent.tool_result |                                      |
      | solver.completed  |                                      |
    And the client has received no "error.validation"

  @id:myagent.approval.tool-denied @req:myagent.flow.denied @req:myagent.flow.confirmation @scripted
  Scenario: A denied tool call does not run
    myagent-events.md §Event Flow Architecture / 2: "[Continue or cancel based
    on response]": with content {approved: false} the tool is not executed.
    Interpretation: the task may go on without the tool or stop; the scenario
    only requires that the tool never runs, not even on a later approval of
    the step it denied.
    Control: first, in a session of its own, client "B" approves the same kind
    of call and the tool runs. A server that declines every answer (or never
    runs the tool) would pass the denial without it proving anything: the
    scenario is then inconclusive.

    Given client "B" connects
    And client "B" receives "system.connected"
    And client "B" sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And client "B" receives "agent.session_created"
    And I remember its "session_id" as "control"
    And client "B" sends:
      """
      {"event": "user.solve_tasks", "session_id": "{control}", "content": {"tasks": [{"title": "/tool delete_file {\"path\": \"control.txt\"}"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And client "B" receives "agent.user_confirm"
    And I remember its "step_id" as "approved"
    And client "B" sends:
      """
      {"event": "user.response", "session_id": "{control}", "step_id": "{approved}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And client "B" receives "agent.tool_call"
    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/tool delete_file {\"path\": \"notes.txt\"}"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.user_confirm"
    And I remember its "step_id" as "step"
    When the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "{step}", "content": {"approved": false}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives no "agent.tool_call" within 1s
    And the client has received no "agent.tool_result"
    When the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "{step}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives no "agent.tool_call" within 500ms
    And the client has received no "agent.tool_result"

  @id:myagent.approval.question-answered @req:myagent.response.answer-text @req:myagent.flow.confirmation @scripted
  Scenario: A question is answered through user.response with its step_id
    myagent-events.md §Request/Response Pairing (step_id): "step_id must match
    for request/response correlation"; the answer reaches the agent.
    Interpretation: the answer text travels in content.answer; the task then
    completes, and its result (solver.completed {task, result}) carries the
    scripted agent's reply "You answered: Ada" (ci/testmode.md), which shows
    that the answer reached the agent.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/ask text What is your name?"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.user_confirm"
    And its "content" contains "What is your name?"
    And I remember its "step_id" as "step"
    When the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "{step}", "content": {"answer": "Ada"}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.completed"
    And its "content.result" mentions "You answered: Ada"

  @id:myagent.approval.confirm-question @req:myagent.response.approved @req:myagent.flow.confirmation @scripted
  Scenario: A yes/no question accepts content.approved
    myagent-events.md §Request/Response Pairing (step_id): the response carries
    content {approved: true} for a confirmation; the task then completes.
    The answer must reach the agent: the task's result (solver.completed
    {task, result}) carries the scripted agent's reply "You answered: yes"
    (ci/testmode.md: {approved: true} answers a confirm question yes). A
    server that completes the task with the answer lost ("You answered:
    None") fails.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/ask confirm Shall I proceed?"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.user_confirm"
    And I remember its "step_id" as "step"
    When the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "{step}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "solver.completed"
    And its "content.result" mentions "You answered: yes"

  @id:myagent.approval.wrong-step-id @req:myagent.step-id.unknown-refused @req:myagent.step-id.must-match @req:myagent.error.validation @scripted
  Scenario: A response with another step_id does not answer the open confirmation
    myagent-events.md §Request/Response Pairing (step_id): "step_id must match
    for request/response correlation": a user.response whose step_id no
    agent.user_confirm carries is refused (error.validation, §Error Events:
    input validation fails) and the confirmation stays open for the right one.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/tool write_file {\"path\": \"a.txt\"}"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.user_confirm"
    And I remember its "step_id" as "step"
    When the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "not-{step}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "step_id", "step id", "step", "user_confirm", "confirmation"
    And the client has received no "agent.tool_call"
    And the client receives no "solver.completed" within 300ms
    When the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "{step}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | agent.tool_call  |
      | solver.completed |

  @id:myagent.approval.answered-once @req:myagent.step-id.answered-once @req:myagent.error.validation @scripted
  Scenario: A second answer to the same step_id is refused
    myagent-events.md §Event Flow Architecture / 2. User Confirmation Flow: one
    decision per agent.user_confirm.
    Interpretation: a user.response to a step that is already answered is
    refused with error.validation and does not run the tool twice.

    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/tool write_file {\"path\": \"b.txt\"}"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.user_confirm"
    And I remember its "step_id" as "step"
    And the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "{step}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "solver.completed"
    When the client sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "{step}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "error.validation"
    And the refusal names one of "answered", "closed", "step", "once", "duplicate", "no longer"
    And the client has received 1 "agent.tool_call"

  @id:myagent.approval.other-client-answers @req:myagent.step-id.any-connection @req:myagent.session.join @scripted
  Scenario: Another client of the session sees the confirmation and may answer it
    myagent-events.md §Request/Response Pairing (step_id) and §Session
    Management: the confirmation belongs to the session, and user.reconnect
    joins an existing session.
    Interpretation: every connection of a session receives its events, and any
    of them may answer an open agent.user_confirm.

    Given client "B" connects
    And client "B" receives "system.connected"
    And client "B" sends:
      """
      {"event": "user.reconnect", "session_id": "{sid}", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And client "B" receives "agent.state_restored"
    When the client sends:
      """
      {"event": "user.solve_tasks", "session_id": "{sid}", "content": {"tasks": [{"title": "/tool write_file {\"path\": \"c.txt\"}"}]}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.user_confirm"
    And I remember its "step_id" as "step"
    Then client "B" receives "agent.user_confirm" with:
      """
      {"step_id": "{step}"}
      """
    When client "B" sends:
      """
      {"event": "user.response", "session_id": "{sid}", "step_id": "{step}", "content": {"approved": true}, "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives, in order:
      | agent.tool_call  |
      | solver.completed |
    And client "B" receives "solver.completed"
