@coworker
Feature: Coworker connection and handshake
  coworker-v3.md §Connection, §Handshake Flow: a WebSocket connection to /ws
  creates one AgentSession; the server speaks first with server_hello, which
  carries the session's id, the protocol version "3.0", the capabilities and
  the configuration. One session per connection, no resumption.

  @id:coworker.connect.server-hello-first
  @req:coworker.server-hello.first @req:coworker.handshake.server-hello @req:coworker.type.protocol-version @req:coworker.type.server-capabilities @req:coworker.type.config-subset @req:coworker.ping.pong
  Scenario: The server speaks first with server_hello for protocol 3.0
    coworker-v3.md §Handshake Flow: on connect the server immediately sends
    server_hello with a sessionId, protocolVersion, capabilities and config;
    §Protocol v3 Migration: clients assert protocolVersion === "3.0". That
    server_hello is the very first message is judged by the check engine on
    every connection (rule coworker.hello-first).

    Given a client connects
    Then the client receives "server_hello"
    And its "protocolVersion" is "3.0"
    And its "sessionId" is a string
    And I remember its "sessionId" as "sid"
    And its "capabilities" is an object
    And its "config.provider" is a string
    And its "config.model" is a string
    And its "config.workingDirectory" is a string
    And its "config.outputDirectory" is a string
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client receives "pong"

  @id:coworker.connect.session-settings-after-hello
  @req:coworker.session-settings.sent @req:coworker.session-settings.shape
  Scenario: session_settings follows server_hello on connect
    coworker-v3.md §session_settings: session-level settings are "Sent on
    connect (after server_hello)" and whenever they change.

    Given a client connects
    When the client receives "server_hello"
    And I remember its "sessionId" as "sid"
    Then the client receives "session_settings"
    And its "sessionId" is "{sid}"
    And its "enableMcp" is a boolean
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client receives "pong"

  @id:coworker.connect.observability-status-on-connect
  @req:coworker.observability-status.emitted @req:coworker.observability-status.shape
  Scenario: observability_status is emitted on connection
    coworker-v3.md §observability_status: "Emitted on connection with the
    session's observability configuration".

    Given a client connects
    When the client receives "server_hello"
    And I remember its "sessionId" as "sid"
    Then the client receives "observability_status"
    And its "sessionId" is "{sid}"
    And its "enabled" is a boolean

  @id:coworker.connect.client-hello-silent
  @req:coworker.handshake.client-hello-silent @req:coworker.client-hello.optional @req:coworker.client.session-id @req:coworker.ping.pong
  Scenario: client_hello without sessionId is silently acknowledged
    coworker-v3.md §Handshake Flow, §client_hello: the client may identify
    itself with client_hello, which is "silently acknowledged"; it is the one
    message that needs no sessionId. The session keeps working afterwards.

    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"
    When the client sends:
      """
      {"type": "client_hello", "client": "wsconform", "version": "0.1.0"}
      """
    Then the client receives no "error" within 300ms
    When the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    Then the client receives "pong"
    And its "sessionId" is "{sid}"

  @id:coworker.connect.session-per-connection
  @req:coworker.connection.one-session @req:coworker.handshake.server-hello @req:coworker.ping.pong
  Scenario: Every connection gets its own session
    coworker-v3.md §Connection: "One session per connection"; §Handshake
    Flow: the server creates an AgentSession per WebSocket and announces its
    sessionId.

    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"
    When client "B" connects
    Then client "B" receives "server_hello"
    And its "sessionId" is not "{sid}"
    And I remember its "sessionId" as "sid_b"
    When client "B" sends:
      """
      {"type": "ping", "sessionId": "{sid_b}"}
      """
    Then client "B" receives "pong"
    And its "sessionId" is "{sid_b}"
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client receives "pong"

  @id:coworker.connect.no-resumption
  @req:coworker.connection.one-session @req:coworker.behavior.session-is-connection @req:coworker.ping.valid-session
  Scenario: A reconnect is a new session and the old sessionId is unknown
    coworker-v3.md §Connection: "disconnecting destroys the session; there is
    no resumption"; §Important Behaviors: "Session = connection"; §ping:
    "Requires a valid sessionId for this connection", so the old sessionId
    gets no pong. Which error answers it is only shown (§Error Reference,
    "Typical Cause": unknown_session), so it is coworker.session-id.unknown's
    to judge, not this scenario's. Control: a ping with the new sessionId,
    sent right after, is answered, and its pong is the only one (pings are
    answered in order), so a server that answers no ping at all does not
    pass.

    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "old"
    When the client disconnects
    And the client reconnects
    Then the client receives "server_hello"
    And its "sessionId" is not "{old}"
    And I remember its "sessionId" as "new"
    When the client sends:
      """
      {"type": "ping", "sessionId": "{old}"}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{new}"}
      """
    Then the client receives "pong"
    And its "sessionId" is "{new}"
    And the client has received 1 "pong"

  @id:coworker.connect.resume-refused
  @req:coworker.behavior.session-is-connection @req:coworker.connection.one-session @req:coworker.handshake.server-hello @req:coworker.ping.valid-session
  Scenario: Asking to resume the old session on reconnect still gives a new session
    coworker-v3.md §Connection: "One session per connection — disconnecting
    destroys the session; there is no resumption"; §Important Behaviors:
    "Session = connection: disconnecting disposes the session and rejects
    all pending ask/approval deferreds. There is no reconnection or session
    resumption"; §Handshake Flow: on connect the server "creates
    AgentSession" and announces its sessionId. A client that reconnects
    with the old sessionId in the URL (?resumeSessionId=, as the real
    agent-coworker's own client does) gets a new session with a new
    sessionId, and the old one gets no pong (§ping: "Requires a valid
    sessionId for this connection"; which error answers it is only shown,
    coworker.session-id.unknown's to judge). The check engine names a
    resumed session too (rule coworker.no-resumption). Control: a ping with
    the new sessionId, sent right after, is answered, and its pong is the
    only one (pings are answered in order).

    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "old"
    When the client disconnects
    And the client reconnects to "/ws?resumeSessionId={old}"
    Then the client receives "server_hello"
    And its "sessionId" is not "{old}"
    And I remember its "sessionId" as "new"
    When the client sends:
      """
      {"type": "ping", "sessionId": "{old}"}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{new}"}
      """
    Then the client receives "pong"
    And its "sessionId" is "{new}"
    And the client has received 1 "pong"
