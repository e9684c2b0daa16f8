@coworker
Feature: Command approval
  coworker-v3.md §approval: the agent "wants to run a command and needs
  permission" and "Blocks the agent until you reply with approval_response";
  §approval_response: {requestId, approved}; §Command Approval flow. The
  scripted agent's "/tool NAME JSON" hint makes the reference server ask for
  approval of a tool call.

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.approval.approve @scripted
  @req:coworker.approval-response.definition @req:coworker.approval.blocks @req:coworker.approval.reason-code @req:coworker.approval.shape @req:coworker.approval-response.shape @req:coworker.flow.command-approval
  Scenario: An approved command runs and the turn finishes
    coworker-v3.md §Command Approval: session_busy true, approval {requestId,
    command, dangerous, reasonCode}, approval_response {approved: true}, the
    agent continues, assistant_message, session_busy false. The command is
    one no approval policy runs unasked (a deploy; §approval reasonCode
    safe_auto_approved lets a server run a harmless one, like ls, without
    asking). The approval's effect is what the agent says next: the
    test-mode model (ci/testmode.md) replies "Tool bash finished." when the
    server gave it the command's result, and "… was denied …" when the
    server told it the user said no; a tool_result alone does not tell them
    apart (agent-coworker reports a denial as a tool_result too).

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/tool bash {\"command\": \"make deploy\"}"}
      """
    Then the client receives "approval"
    And its "command" is "make deploy"
    And its "dangerous" is a boolean
    And its "reasonCode" is one of ["safe_auto_approved", "matches_dangerous_pattern", "contains_shell_control_operator", "requires_manual_review", "file_read_command_requires_review", "outside_allowed_scope"]
    And I remember its "requestId" as "req"
    When the client sends:
      """
      {"type": "approval_response", "sessionId": "{sid}", "requestId": "{req}", "approved": true}
      """
    Then the client receives, in order:
      | model_stream_chunk | {"partType": "tool_result", "part": {"toolName": "bash"}} |
      | assistant_message  | {"text": "Tool bash finished."}                            |
      | session_busy       | {"busy": false}                                            |
    And the client has received no "error"

  @id:coworker.approval.deny @scripted
  @req:coworker.approval.denied-not-run @req:coworker.approval-response.definition @req:coworker.approval-response.shape @req:coworker.flow.command-approval
  Scenario: A denied command does not run and the turn still finishes
    coworker-v3.md §approval_response: "Approve or deny a command"; the
    agent continues and ends its turn (§Command Approval). A denied command
    does not run: no tool_result reports it succeeding (exitCode 0), and the
    agent is told so: the test-mode model (ci/testmode.md) replies "Tool bash
    was denied; continuing without it." only when the server reports the
    denial to it. The spec does not say how a denial is streamed (a
    tool_output_denied part, or a tool_result whose output says the user
    rejected it), nor forbids log lines. Control: the same command approved
    first runs ("Tool bash finished."); a server that declines every answer
    would pass the denial without ever reading approved, so there the
    scenario is inconclusive.

    Given the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/tool bash {\"command\": \"make deploy\"}"}
      """
    And the client receives "approval"
    And I remember its "requestId" as "first"
    And the client sends:
      """
      {"type": "approval_response", "sessionId": "{sid}", "requestId": "{first}", "approved": true}
      """
    And the client receives "assistant_message" with:
      """
      {"text": "Tool bash finished."}
      """
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/tool bash {\"command\": \"make deploy\"}"}
      """
    And the client receives "approval"
    And I remember its "requestId" as "req"
    And the client sends:
      """
      {"type": "approval_response", "sessionId": "{sid}", "requestId": "{req}", "approved": false}
      """
    Then the client receives, in order:
      | assistant_message  | {"text": "Tool bash was denied; continuing without it."} |
      | session_busy       | {"busy": false}                                           |
    And the client has received no "model_stream_chunk" where "part.output.exitCode" is 0

  @id:coworker.approval.blocks-agent @scripted
  @req:coworker.approval.blocks @req:coworker.behavior.request-id-pairing @req:coworker.approval-response.shape
  Scenario: An approval blocks the agent until it is answered
    coworker-v3.md §approval: "Blocks the agent until you reply with
    approval_response"; §Command Approval: "agent blocks, waiting".

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/tool write {\"path\": \"notes.txt\"}"}
      """
    And the client receives "approval"
    And I remember its "requestId" as "req"
    Then the client receives no "assistant_message" within 400ms
    And the client has received no "model_stream_chunk" where "partType" is "tool_result"
    And the client has received no "session_busy" where "busy" is false
    When the client sends:
      """
      {"type": "approval_response", "sessionId": "{sid}", "requestId": "{req}", "approved": true}
      """
    Then the client receives "session_busy" with:
      """
      {"busy": false}
      """

  @id:coworker.approval.dangerous @scripted
  @req:coworker.approval.dangerous @req:coworker.approval.shape @req:coworker.approval.reason-code
  Scenario: A destructive command is flagged dangerous
    coworker-v3.md §approval: the example "rm -rf /tmp/old-builds" is
    {dangerous: true, reasonCode: "matches_dangerous_pattern"}.
    Interpretation: the same command gets the same flags.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/tool bash {\"command\": \"rm -rf /tmp/old-builds\"}"}
      """
    Then the client receives "approval"
    And its "command" is "rm -rf /tmp/old-builds"
    And its "dangerous" is true
    And its "reasonCode" is "matches_dangerous_pattern"

  @id:coworker.approval.answered-twice @scripted
  @req:coworker.request.unmatched-reply @req:coworker.behavior.request-id-pairing
  Scenario: A second answer to the same approval changes nothing
    coworker-v3.md §Important Behaviors: requestId pairing; one response
    unblocks the agent. Once answered, the requestId names no pending
    approval, so a second approval_response starts or resumes nothing. The
    spec does not say whether it is refused with an error or ignored (the
    real agent-coworker logs a warning), so only its effect is judged.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/tool bash {\"command\": \"make deploy\"}"}
      """
    And the client receives "approval"
    And I remember its "requestId" as "req"
    And the client sends:
      """
      {"type": "approval_response", "sessionId": "{sid}", "requestId": "{req}", "approved": true}
      """
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    When the client sends:
      """
      {"type": "approval_response", "sessionId": "{sid}", "requestId": "{req}", "approved": false}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    Then the client receives "pong"
    And the client receives no "assistant_message" within 300ms
    And the client has received 1 "assistant_message"
    And the client has received 1 "session_busy" where "busy" is true

  @id:coworker.approval.ask-id-refused @scripted
  @req:coworker.request.unmatched-reply @req:coworker.ask.blocks @req:coworker.behavior.request-id-pairing
  Scenario: approval_response naming an ask's requestId does not answer the ask
    coworker-v3.md §approval_response: requestId comes "from the approval
    event"; §ask_response: "from the ask event"; §ask: "Blocks the agent
    until you reply with ask_response". An approval_response does not answer
    an ask: the ask stays pending until its ask_response. The spec does not
    say whether the wrong reply is refused with an error or ignored, so only
    its effect is judged: the agent goes on only with the ask's own answer
    (the test-mode reply quotes it, "You answered: yes").

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/ask confirm Ship it?"}
      """
    And the client receives "ask"
    And I remember its "requestId" as "req"
    And the client sends:
      """
      {"type": "approval_response", "sessionId": "{sid}", "requestId": "{req}", "approved": true}
      """
    Then the client receives no "assistant_message" within 300ms
    And the client has received no "session_busy" where "busy" is false
    When the client sends:
      """
      {"type": "ask_response", "sessionId": "{sid}", "requestId": "{req}", "answer": "yes"}
      """
    Then the client receives "assistant_message"
    And its "text" contains "answered: yes"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
