@minicodex
Feature: interruption
  Used by interrupt_unix_test.go against reftest.HoldUpstream: two quick
  scenarios, one the server holds until the run is stopped, one after it.

  @id:int.first @must
  Scenario: first
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"

  @id:int.second @must
  Scenario: second
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"

  @id:int.hold @must
  Scenario: holds until the run is stopped
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"
    When the client sends:
      """
      {"type": "send", "text": "hold"}
      """
    Then the client receives "assistant_text" within 50s

  @id:int.last @must
  Scenario: last
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"
