@minicodex
Feature: MiniCodex connection handshake
  minicodex-v1.md §Test matrix: a fresh connection says hello and gets the
  session's state before any event.

  @id:minicodex.connect.hello-welcome-snapshot @must
  Scenario: Fresh connect answers hello with welcome, then snapshot
    minicodex-v1.md §Handshake: the server answers hello with welcome and then
    a snapshot of the session.

    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0", "req_id": "r1"}
      """
    Then the client receives, in order:
      | welcome  |
      | snapshot |
    And its "transcript" is an array
    And I remember its "session_state.session_id" as "sid"

  @id:minicodex.send.turn @must @scripted
  Scenario: A message streams assistant text and finishes the run
    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "snapshot"
    When the client sends:
      """
      {"type": "send", "text": "hello there", "client_msg_id": "m-{unique}", "req_id": "r2"}
      """
    Then the client receives "accepted"
    And the client receives, in order:
      | assistant_text |                                       |
      | run_status     | {"run_state": {"status": "finished"}} |
      | turn_done      |                                       |
