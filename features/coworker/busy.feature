@coworker
Feature: One message at a time
  coworker-v3.md §user_message: "Only one at a time — sending while the
  agent is busy returns an error"; §Important Behaviors: "sending
  user_message while session_busy is true returns "Agent is busy""; §Error
  Reference: busy, "Request sent while session is actively running". The
  check engine fails any scenario where a user_message sent while busy is
  echoed as accepted (rule coworker.busy-error). To hold the session busy
  without racing the clock, the scenarios start a turn whose agent asks the
  user (the scripted agent's /ask): the turn runs until the ask is answered.

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.busy.user-message-refused @scripted
  @req:coworker.behavior.one-message @req:coworker.user-message.one-at-a-time @req:coworker.error.shape @req:coworker.error-reference.busy
  Scenario: A user_message while busy is refused with "Agent is busy"
    coworker-v3.md §user_message: "sending while the agent is busy returns an
    error"; §Important Behaviors: it returns "Agent is busy". The second
    message gets an error with that message; it is not echoed and the
    running turn goes on to its end. The code busy is only shown (the error
    example, the Error Reference's "Typical Cause"), so it is not asserted
    here (coworker.busy.execute-command-refused checks it, as an
    observation).

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/ask confirm Hold on?", "clientMessageId": "first-{unique}"}
      """
    And the client receives "session_busy" with:
      """
      {"busy": true}
      """
    And the client receives "ask"
    And I remember its "requestId" as "req"
    And the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "are you there?", "clientMessageId": "second-{unique}"}
      """
    Then the client receives "error"
    And its "message" is "Agent is busy"
    And the refusal names one of "busy"
    And its "sessionId" is "{sid}"
    And the client sends:
      """
      {"type": "ask_response", "sessionId": "{sid}", "requestId": "{req}", "answer": "yes"}
      """
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    And the client has received no "user_message" where "clientMessageId" is "second-{unique}"
    And the client has received 1 "assistant_message"

  @id:coworker.busy.accepted-when-idle @scripted
  @req:coworker.user-message.one-at-a-time @req:coworker.session-busy.definition @req:coworker.flow.normal-conversation
  Scenario: After session_busy false the next user_message is accepted
    coworker-v3.md §session_busy: "Use this to disable/enable input in your
    UI"; once busy is false a new user_message starts a new turn.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/slow 3"}
      """
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    And the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "and now?", "clientMessageId": "next-{unique}"}
      """
    Then the client receives, in order:
      | user_message | {"clientMessageId": "next-{unique}"} |
      | session_busy | {"busy": true}                       |
      | session_busy | {"busy": false}                      |
    And the client has received no "error"

  @id:coworker.busy.execute-command-refused @scripted
  @req:coworker.execute-command.busy @req:coworker.error-reference.busy
  Scenario: execute_command while busy is refused too
    coworker-v3.md §execute_command: it "runs a normal agent turn";
    §Error Reference: busy, "Request sent while session is actively
    running". Interpretation: a command is refused while busy like a
    user_message, and not echoed.

    When the client sends:
      """
      {"type": "list_commands", "sessionId": "{sid}"}
      """
    And the client receives "commands"
    And I remember its "commands.0.name" as "cmd"
    And the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/ask confirm Hold on?"}
      """
    And the client receives "session_busy" with:
      """
      {"busy": true}
      """
    And the client receives "ask"
    And I remember its "requestId" as "req"
    And the client sends:
      """
      {"type": "execute_command", "sessionId": "{sid}", "name": "{cmd}", "clientMessageId": "cmd-{unique}"}
      """
    Then the client receives "error"
    And its "code" is "busy"
    And the client sends:
      """
      {"type": "ask_response", "sessionId": "{sid}", "requestId": "{req}", "answer": "yes"}
      """
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    And the client has received no "user_message" where "clientMessageId" is "cmd-{unique}"

  @id:coworker.busy.requests-answered @scripted
  @req:coworker.behavior.requests-while-busy @req:coworker.tools.response @req:coworker.ping.pong
  Scenario: Requests that start no turn are answered while busy
    coworker-v3.md §Important Behaviors: the busy rule is about user_message
    ("One message at a time"). Interpretation: metadata requests such as
    list_tools and ping are answered during a turn, not refused with busy.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/ask confirm Hold on?"}
      """
    And the client receives "session_busy" with:
      """
      {"busy": true}
      """
    And the client receives "ask"
    And I remember its "requestId" as "req"
    And the client sends:
      """
      {"type": "list_tools", "sessionId": "{sid}"}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    Then the client receives "tools"
    And the client receives "pong"
    And the client has received no "error"
    And the client has received no "session_busy" where "busy" is false
    And the client sends:
      """
      {"type": "ask_response", "sessionId": "{sid}", "requestId": "{req}", "answer": "yes"}
      """
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
