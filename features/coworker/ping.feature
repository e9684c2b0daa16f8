@coworker
Feature: Keepalive ping and pong
  coworker-v3.md §Connection: "clients may send ping with sessionId; the
  server responds with pong"; §ping: ping "Requires a valid sessionId for
  this connection"; §pong: "The sessionId echoes the incoming ping
  sessionId".

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.ping.pong
  @req:coworker.ping.pong @req:coworker.pong.echoes @req:coworker.flow.keepalive
  Scenario: ping is answered with pong echoing the sessionId
    coworker-v3.md §ping, §pong, §Keepalive Ping/Pong: the server answers a
    ping with pong whose sessionId echoes the ping's, which is this
    connection's.

    When the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    Then the client receives "pong"
    And its "sessionId" is "{sid}"

  @id:coworker.ping.repeated
  @req:coworker.ping.pong @req:coworker.connection.ping
  Scenario: Every ping gets its own pong
    coworker-v3.md §ping: a lightweight keepalive probe the client may send
    any number of times; each is answered with a pong.

    When the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    Then the client receives "pong"
    And the client receives "pong"
    And the client receives "pong"
    And the client has received 3 "pong" where "sessionId" is "{sid}"

  @id:coworker.ping.wrong-session
  @req:coworker.error-reference.unknown-session @req:coworker.ping.valid-session @req:coworker.error.any-condition
  Scenario: A ping with another sessionId gets an error, not a pong
    coworker-v3.md §ping: "Requires a valid sessionId for this connection";
    §Error Reference: unknown_session for a sessionId mismatch.

    When the client sends:
      """
      {"type": "ping", "sessionId": "{sid}x"}
      """
    Then the client receives "error"
    And its "code" is "unknown_session"
    And the client receives no "pong" within 300ms
