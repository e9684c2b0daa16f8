@minicodex
Feature: MiniCodex connection handshake
  minicodex-v1.md §Handshake & resume: a client connects and sends hello (or
  resume); the server replies welcome, then a snapshot of the session, before
  any event. The first command must be a well-formed hello.

  @id:minicodex.connect.hello-welcome-snapshot @must
  Scenario: Fresh connect answers hello with welcome, then snapshot
    minicodex-v1.md §Test matrix: a fresh connection says hello {v: "1.0.0"}
    and gets welcome {v, session_state}, then snapshot {v, session_state,
    transcript, event_id} of the same session.

    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0", "client_capabilities": [], "req_id": "r1"}
      """
    Then the client receives "welcome"
    And its "v" is "1.0.0"
    And its "session_state.session_id" is a string
    And its "session_state.capabilities" is an array
    And I remember its "session_state.session_id" as "sid"
    And the client receives "snapshot"
    And its "v" is "1.0.0"
    And its "session_state.session_id" is "{sid}"
    And its "transcript" is an array
    And its "event_id" is an integer

  @id:minicodex.connect.fresh-session-is-idle @must
  Scenario: A new session has no run yet
    minicodex-v1.md §State models: SessionState.run_counter counts the session's
    runs, so a session that has run nothing says run_counter 0.

    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"
    And its "session_state.run_counter" is 0

  @id:minicodex.connect.two-hellos-two-sessions @should
  Scenario: Two fresh connections get two different sessions
    minicodex-v1.md §Core concepts: a session is identified by session_id.
    Interpretation: a hello that names no session starts a new one, so two
    fresh connections do not share one.

    Given client "A" connects
    And client "A" sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And client "A" receives "welcome"
    And I remember its "session_state.session_id" as "first"
    When client "B" connects
    And client "B" sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then client "B" receives "welcome"
    And its "session_state.session_id" is not "{first}"

  @id:minicodex.connect.hello-missing-v @must
  Scenario: A hello without v is refused with MISSING_FIELD
    minicodex-v1.md §Client → Server messages: Hello {type: "hello", v: "1.0.0"}
    requires v; §Semantics: Errors: an invalid command elicits an error with a
    code (MISSING_FIELD) and does not transition state, so a correct hello
    afterwards is still welcomed.

    Given a client connects
    When the client sends:
      """
      {"type": "hello", "req_id": "r-nov"}
      """
    Then the client receives "error" with:
      """
      {"code": "MISSING_FIELD"}
      """
    And its "message" is a string
    And the client receives no "welcome"
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives, in order:
      | welcome  |
      | snapshot |

  @id:minicodex.connect.hello-unsupported-version @should
  Scenario: A hello for an unsupported major version is refused
    minicodex-v1.md §Versioning: the protocol version (semver) is exchanged in
    hello/welcome; this document defines v1.0.0. Interpretation: a server of
    v1 refuses hello {v: "2.0.0"} with BAD_ARGUMENT instead of welcoming it.

    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "2.0.0"}
      """
    Then the client receives "error" with:
      """
      {"code": "BAD_ARGUMENT"}
      """
    And the client receives no "welcome"

  @id:minicodex.connect.command-before-hello @should
  Scenario: A command before hello is refused
    minicodex-v1.md §Handshake & resume: a client connects and sends hello (or
    resume) first. Interpretation: a send before the handshake attaches to no
    session and is refused with INVALID_COMMAND, starting nothing.

    Given a client connects
    When the client sends:
      """
      {"type": "send", "text": "too early", "req_id": "r-early"}
      """
    Then the client receives "error" with:
      """
      {"code": "INVALID_COMMAND"}
      """
    And the client receives no "run_status"

  @id:minicodex.connect.second-hello @should
  Scenario: A second hello on an attached connection is refused
    minicodex-v1.md §Handshake & resume: hello opens the exchange.
    Interpretation: a hello on a connection already attached to a session is
    refused with INVALID_COMMAND and the connection stays in its session.

    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"
    And I remember its "session_state.session_id" as "sid"
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0", "req_id": "r-again"}
      """
    Then the client receives "error" with:
      """
      {"code": "INVALID_COMMAND"}
      """
    When the client sends:
      """
      {"type": "get_snapshot"}
      """
    Then the client receives "snapshot"
    And its "session_state.session_id" is "{sid}"

  @id:minicodex.ping.accepted @must
  Scenario: ping is acknowledged with accepted carrying its req_id
    minicodex-v1.md §Envelope: req_id is the client's correlation id for
    command → CommandAccepted/Error; Ping {type: "ping", nonce?} is a command.
    Interpretation: the spec names no pong, so the answer to ping is
    accepted {req_id}.

    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "snapshot"
    When the client sends:
      """
      {"type": "ping", "nonce": "n-{unique}", "req_id": "p-{unique}"}
      """
    Then the client receives "accepted" with:
      """
      {"req_id": "p-{unique}"}
      """
    And the client receives no "error"
