@minicodex
Feature: A user's own features citing their own requirements
  Used by run_test.go: one scenario passes against the reference server,
  one checks only an interpretation the server does not follow (an
  observation), and one stated MUST is cited by no scenario.

  @id:req.hello @req:minicodex.t.hello
  Scenario: hello is answered with welcome
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"

  @id:req.pong @req:minicodex.t.pong
  Scenario: a ping is answered with pong
    Given a client connects
    When the client sends:
      """
      {"type": "ping", "nonce": "n1"}
      """
    Then the client receives "pong" within 300ms
