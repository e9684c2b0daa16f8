@minicodex
Feature: A sample of a user's own features
  Used by run_test.go: one scenario passes against the reference server,
  one fails on purpose (it expects a protocol version nobody speaks).

  @id:sample.hello @must
  Scenario: hello is answered with welcome
    minicodex-v1.md §Handshake: hello is answered with welcome.

    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"

  @id:sample.wrong-version @must
  Scenario: a deliberately wrong expectation
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"
    And its "v" is "9.9.9"

  @id:sample.should @should
  Scenario: a deliberately wrong SHOULD
    Given a client connects
    When the client sends:
      """
      {"type": "ping", "nonce": "n1"}
      """
    Then the client receives "pong" within 300ms
