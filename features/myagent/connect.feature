@myagent
Feature: MyAgent connection and session lifecycle
  myagent-events.md §Session Management: a new connection receives
  system.connected, a session is created with user.create_session, and the
  server keeps the connection alive with system.heartbeat.

  Client events carry a timestamp: the EventProtocol interface declares it
  required (timestamp: string) although the spec's examples omit it, so these
  features send one to satisfy both readings.

  @id:myagent.connect.connected-first @must
  Scenario: A new connection first receives system.connected
    myagent-events.md §Session Management / Connection Lifecycle: a new
    connection receives system.connected, with the payload {server_version,
    capabilities} (§All Event Types / System Events); every event carries an
    ISO 8601 timestamp (§Core Protocol Structure, timestamp: string).
    Interpretation: system.connected is the first event on the connection.

    Given a client connects
    Then the client receives "system.connected"
    And the first message the client received is "system.connected"
    And its "content.server_version" is a string
    And its "content.capabilities" exists
    And its "timestamp" is a string

  @id:myagent.connect.create-session @must
  Scenario: user.create_session is answered with agent.session_created
    myagent-events.md §Session Management / Session Lifecycle: "Create:
    user.create_session → agent.session_created"; the new session has an
    identifier (session_id, §Core Protocol Structure) that later events name.

    Given a client connects
    And the client receives "system.connected"
    When the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    Then the client receives "agent.session_created"
    And its "session_id" is a string
    And its "timestamp" is a string

  @id:myagent.connect.heartbeat @must
  Scenario: An idle connection receives system.heartbeat
    myagent-events.md §Session Management / Connection Lifecycle: "Heartbeat:
    system.heartbeat every 30s (configurable)", payload {timestamp} (§All Event
    Types / System Events). The scenario allows 35 s, so it holds for the
    default interval; the reference server is run with 1 s.

    Given a client connects
    And the client receives "system.connected"
    When the client receives "system.heartbeat" within 35s
    Then its "content.timestamp" exists
    And its "timestamp" is a string
    And the client stays connected for 100ms

  @id:myagent.connect.heartbeat-in-session @must
  Scenario: A connection in a session receives system.heartbeat too
    myagent-events.md §Session Management / Connection Lifecycle: heartbeats
    keep every connection alive, including one that joined a session.

    Given a client connects
    And the client receives "system.connected"
    And the client sends:
      """
      {"event": "user.create_session", "timestamp": "2025-01-01T00:00:00Z"}
      """
    And the client receives "agent.session_created"
    Then the client receives "system.heartbeat" within 35s
    And its "content.timestamp" exists
