@minicodex
Feature: MiniCodex connection handshake
  minicodex-v1.md §Handshake & resume: a client connects and sends hello (or
  resume); the server replies welcome + snapshot (optional) + the replay.
  The snapshot of the handshake is optional, so only welcome is waited for
  after hello everywhere in these features.

  @id:minicodex.connect.hello-welcome @req:minicodex.handshake.reply @req:minicodex.welcome.shape @req:minicodex.version.v1 @req:minicodex.matrix.fresh-connect
  Scenario: Fresh connect answers hello with welcome
    minicodex-v1.md §Handshake & resume: the server replies to hello with
    welcome; §Server → Client messages: Welcome {type: "welcome", v: "1.0.0",
    session_state: SessionState}, SessionState.session_id: str (§State
    models); §Versioning: this document defines v1.0.0.

    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0", "client_capabilities": [], "req_id": "r1"}
      """
    Then the client receives "welcome"
    And its "v" is "1.0.0"
    And its "session_state.session_id" is a string

  @id:minicodex.connect.hello-welcome-snapshot @req:minicodex.handshake.fresh-snapshot @req:minicodex.handshake.snapshot-optional @req:minicodex.matrix.fresh-connect @req:minicodex.snapshot.shape
  Scenario: Fresh connect answers hello with welcome, then snapshot
    minicodex-v1.md §Handshake & resume: "Server replies welcome + snapshot
    (optional)"; §Test matrix: "Fresh connect, hello/welcome/snapshot OK".
    The spec only shows the snapshot of a fresh connect (it calls it
    optional): snapshot {v, session_state, transcript, event_id} of the same
    session.

    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0", "client_capabilities": [], "req_id": "r1"}
      """
    Then the client receives "welcome"
    And I remember its "session_state.session_id" as "sid"
    And the client receives "snapshot"
    And its "v" is "1.0.0"
    And its "session_state.session_id" is "{sid}"
    And its "transcript" is an array
    And its "event_id" is an integer

  @id:minicodex.connect.fresh-session-is-idle @req:minicodex.state.run-counter
  Scenario: A new session has no run yet
    minicodex-v1.md §State models: SessionState.run_counter: int (Pydantic
    default 0). Interpretation: run_counter counts the session's runs (the
    spec names it without describing it), so a session that has run nothing
    says run_counter 0.

    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"
    And its "session_state.run_counter" is 0

  @id:minicodex.connect.two-hellos-two-sessions @req:minicodex.session.new-per-hello @req:minicodex.session.id
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

  @id:minicodex.connect.hello-missing-v @req:minicodex.errors.invalid-command @req:minicodex.hello.shape @req:minicodex.error.shape
  Scenario: A hello without v is refused and a correct hello is then welcomed
    minicodex-v1.md §Client → Server messages: Hello {type: "hello", v: str}
    requires v (Pydantic: no default); §Semantics: Errors: an invalid command
    elicits an Error with a code and does not transition state, so no
    welcome follows and a correct hello afterwards is still welcomed. Which
    code is mentioned only by example (minicodex.connect.hello-missing-v-code).

    Given a client connects
    When the client sends:
      """
      {"type": "hello", "req_id": "r-nov"}
      """
    Then the client receives "error"
    And the refusal names one of "version", "needs v", "missing v", "v is required", "v required", "v field", "field v"
    And its "code" is a string
    And its "message" is a string
    And the client receives no "welcome"
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"

  @id:minicodex.connect.hello-missing-v-code @req:minicodex.error-codes.missing-field @req:minicodex.hello.shape
  Scenario: A hello without v is refused with MISSING_FIELD
    minicodex-v1.md §Semantics: Errors: invalid commands elicit an Error with
    code "(e.g., INVALID_COMMAND, MISSING_FIELD, …)"; §Error codes
    (non-exhaustive). Interpretation: the spec lists codes without defining
    them; a missing required member is MISSING_FIELD, as its name says.

    Given a client connects
    When the client sends:
      """
      {"type": "hello", "req_id": "r-nov"}
      """
    Then the client receives "error" with:
      """
      {"code": "MISSING_FIELD"}
      """
    And the refusal names one of "version", "needs v", "missing v", "v is required", "v required", "v field", "field v"

  @id:minicodex.connect.hello-unsupported-version @req:minicodex.version.unsupported-refused @req:minicodex.version.v1
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
    And the refusal names one of "version", "2.0.0"
    And the client receives no "welcome"

  @id:minicodex.connect.command-before-hello @req:minicodex.handshake.command-before-hello
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
    And the refusal names one of "hello", "handshake", "resume", "attach", "initiali", "not joined", "no session"
    And the client receives no "run_status"

  @id:minicodex.connect.second-hello @req:minicodex.handshake.second-hello
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
    And the client sends:
      """
      {"type": "ping", "req_id": "r-ready"}
      """
    And the client receives "accepted" with:
      """
      {"req_id": "r-ready"}
      """
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0", "req_id": "r-again"}
      """
    Then the client receives "error" with:
      """
      {"code": "INVALID_COMMAND"}
      """
    And the refusal names one of "hello", "attached", "handshake", "initiali", "twice"
    When the client sends:
      """
      {"type": "get_snapshot"}
      """
    Then the client receives "snapshot"
    And its "session_state.session_id" is "{sid}"

  @id:minicodex.ping.accepted @req:minicodex.envelope.req-id @req:minicodex.ping.accepted @req:minicodex.accepted.shape @req:minicodex.ping.shape
  Scenario: ping is acknowledged with accepted carrying its req_id
    minicodex-v1.md §Envelope: req_id is the "client‑supplied correlation id
    for command → CommandAccepted/Error"; §Client → Server messages (commands):
    Ping {type: "ping", nonce?}; §Server → Client messages: CommandAccepted
    {type: "accepted", req_id?} is the immediate ack. A valid ping is a
    command that is not refused, so it is acknowledged with its req_id (the
    spec defines no other answer to ping). Other features use a ping as a
    barrier: once its accepted arrived, everything the server sent before it
    has arrived too.

    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"
    When the client sends:
      """
      {"type": "ping", "nonce": "n-{unique}", "req_id": "p-{unique}"}
      """
    Then the client receives "accepted" with:
      """
      {"req_id": "p-{unique}"}
      """
    And the client receives no "error"
