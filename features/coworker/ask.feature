@coworker
Feature: The agent asks the user
  coworker-v3.md §ask: the agent asks a question ("Free-text" or "Multiple
  choice" with options) and "Blocks the agent until you reply with
  ask_response"; §ask_response: the reply names the requestId "from the ask
  event"; §Important Behaviors: requestId pairing. The scripted agent's
  "/ask [KIND] QUESTION" hint makes the reference server ask.

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.ask.round-trip @scripted
  @req:coworker.behavior.request-id-pairing @req:coworker.ask.blocks @req:coworker.ask-response.definition @req:coworker.ask.shape @req:coworker.ask-response.shape @req:coworker.flow.ask
  Scenario: A multiple-choice ask is answered and the turn goes on
    coworker-v3.md §ask (multiple choice), §ask_response, §Ask Flow: the ask
    carries a requestId, the question and options; the ask_response with that
    requestId and an answer unblocks the agent, which goes on to its reply and
    ends the turn.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/ask select Which colour?"}
      """
    Then the client receives "ask"
    And its "question" is "Which colour?"
    And its "options" is an array
    And its "options" contains "green"
    And its "requestId" is a string
    And I remember its "requestId" as "req"
    When the client sends:
      """
      {"type": "ask_response", "sessionId": "{sid}", "requestId": "{req}", "answer": "green"}
      """
    Then the client receives "assistant_message"
    And its "text" contains "green"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    And the client has received no "error"

  @id:coworker.ask.free-text @scripted
  @req:coworker.ask.shape @req:coworker.ask.blocks @req:coworker.ask-response.definition
  Scenario: A free-text ask has no options and takes any answer
    coworker-v3.md §ask: a "Free-text question" is {requestId, question}
    without options; the answer is the user's text.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/ask text What is your name?"}
      """
    Then the client receives "ask"
    And its "question" is "What is your name?"
    And its "options" is absent
    And I remember its "requestId" as "req"
    When the client sends:
      """
      {"type": "ask_response", "sessionId": "{sid}", "requestId": "{req}", "answer": "Ada {unique}"}
      """
    Then the client receives "assistant_message"
    And its "text" contains "Ada {unique}"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """

  @id:coworker.ask.blocks-agent @scripted
  @req:coworker.ask.blocks @req:coworker.behavior.request-id-pairing
  Scenario: An ask blocks the agent until it is answered
    coworker-v3.md §ask: "Blocks the agent until you reply with
    ask_response"; the session stays busy and the agent says nothing more
    meanwhile. The answer unblocks it: the test-mode model's reply quotes
    it ("You answered: yes"), so an agent resumed without the answer does
    not pass.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/ask confirm Continue?"}
      """
    And the client receives "ask"
    And I remember its "requestId" as "req"
    Then the client receives no "assistant_message" within 400ms
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

  @id:coworker.ask.unknown-request-id @scripted
  @req:coworker.request.unmatched-reply @req:coworker.behavior.request-id-pairing
  Scenario: An answer naming no pending ask does not unblock it
    coworker-v3.md §Important Behaviors: "requestId pairing: ask and approval
    events block the agent until you respond with the matching requestId".
    An ask_response with another requestId leaves the ask pending; the right
    answer still works. The spec does not say whether the stray answer is
    refused with an error or ignored (the real agent-coworker logs a
    warning), so only its effect is judged.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/ask confirm Deploy now?"}
      """
    And the client receives "ask"
    And I remember its "requestId" as "req"
    And the client sends:
      """
      {"type": "ask_response", "sessionId": "{sid}", "requestId": "{req}-not-mine", "answer": "yes"}
      """
    Then the client receives no "assistant_message" within 300ms
    And the client has received no "session_busy" where "busy" is false
    When the client sends:
      """
      {"type": "ask_response", "sessionId": "{sid}", "requestId": "{req}", "answer": "no"}
      """
    Then the client receives "assistant_message"
    And its "text" contains "answered: no"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
