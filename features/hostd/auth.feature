@hostd
Feature: hostd logins, access tokens and host tokens
  hostd-mvp.md §HTTP Endpoints and §WebSocket Endpoints: an app logs in with
  POST /auth/login and opens /ws/app with the access token it got; a host
  daemon opens /ws/host with its host_id and host token. A connection with
  a missing or wrong credential is refused (hostd-mvp.md has no error
  message: a refusal is an HTTP status or a close code).

  @id:hostd.auth.login-returns-token @req:hostd.http.login-credentials @req:hostd.http.login
  Scenario: Logging in returns an access token
    hostd-mvp.md §HTTP Endpoints: POST /auth/login → { "access_token": "..." }.
    The spec only shows the answer's shape (no status, no type).
    Interpretation: the spec names no request body; the credentials are sent
    as {"username", "password"} (--var user=… --var password=… for another
    server), and success is a 2xx status.

    When I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    Then the HTTP status is 2xx
    And its "access_token" is a string
    And its "access_token" is not ""

  @id:hostd.auth.login-wrong-password-refused @req:hostd.http.login-credentials @req:hostd.http.login @mutates-target
  Scenario: Logging in with a wrong password is refused
    hostd-mvp.md §HTTP Endpoints: POST /auth/login gives an access token.
    Interpretation: the token is for a user who proves who they are, so
    wrong credentials get a 4xx status and no access_token. A failed login
    of the real user may count towards its lockout on the target, so the
    scenario is tagged as one that changes the target's stored state.
    Control: the right password logs in first, so a refusal of every login
    (or of this body's shape) proves nothing and the scenario is
    inconclusive; the refusal must be about the credentials.

    Given I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    And the HTTP status is 2xx
    When I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "wrong-{unique}"}
      """
    Then the HTTP status is 4xx
    And its "access_token" is absent
    And the refusal names one of "401", "403", "password", "credential", "unauthori", "auth", "login", "username"

  @id:hostd.auth.login-wrong-password-401 @req:hostd.http.login-credentials
  Scenario: A refused login is answered 401
    hostd-mvp.md §HTTP Endpoints: POST /auth/login. Interpretation: wrong
    credentials are 401 Unauthorized (RFC 9110 §15.5.2), as the input
    endpoint's Bearer auth also uses. Control: the right credentials log in
    first.

    Given I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    And the HTTP status is 2xx
    When I POST "/auth/login" with:
      """
      {"username": "nobody-{unique}", "password": "{password}"}
      """
    Then the HTTP status is 401

  @id:hostd.auth.app-with-token-accepted @req:hostd.endpoint.app @req:hostd.http.login @req:hostd.http.login-credentials
  Scenario: An app with the access token it logged in with is accepted
    hostd-mvp.md §WebSocket Endpoints: App/PWA GET /ws/app?token=<access_token>,
    the access_token POST /auth/login returned (§HTTP Endpoints). (The login
    body is this dialect's reading: see hostd.auth.login-returns-token.)

    Given I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    And the HTTP status is 2xx
    And I remember its "access_token" as "token"
    When client "app" connects to "/ws/app?token={token}"
    Then client "app" stays connected for 300ms

  @id:hostd.auth.app-without-token-refused @req:hostd.endpoint.app-query-auth @req:hostd.endpoint.app
  Scenario: An app without a token is refused
    hostd-mvp.md §WebSocket Endpoints: the app authenticates with
    ?token=<access_token> ("the app uses query params for auth in MVP"), so a
    connection without a token is not authenticated and is refused. The spec
    names no form of refusal: an HTTP error on the handshake and a close
    right after it are both accepted.
    Control: an app with the access token it logged in with stays connected,
    so a server that refuses every app proves nothing here.

    Given I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    And the HTTP status is 2xx
    And I remember its "access_token" as "token"
    And client "control" connects to "/ws/app?token={token}"
    And client "control" stays connected for 300ms
    Then client "app" connecting to "/ws/app" is rejected

  @id:hostd.auth.app-bad-token-refused @req:hostd.endpoint.app-query-auth @req:hostd.endpoint.app
  Scenario: An app with a token the server never issued is refused
    hostd-mvp.md §WebSocket Endpoints: GET /ws/app?token=<access_token>, the
    token POST /auth/login returned.
    Control: an app with the access token it logged in with stays connected,
    so a server that refuses every app proves nothing here.

    Given I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    And the HTTP status is 2xx
    And I remember its "access_token" as "token"
    And client "control" connects to "/ws/app?token={token}"
    And client "control" stays connected for 300ms
    Then client "app" connecting to "/ws/app?token=at-forged-{unique}" is rejected

  @id:hostd.auth.app-host-token-refused @req:hostd.endpoint.credentials-separate @req:hostd.endpoint.app
  Scenario: The host token is not an app access token
    hostd-mvp.md §WebSocket Endpoints: apps use an access_token from
    POST /auth/login, hosts a host_token. Interpretation: the two credentials
    are separate, so the host token does not open /ws/app.
    Control: an app with the access token it logged in with stays connected,
    so a server that refuses every app proves nothing here.

    Given I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    And the HTTP status is 2xx
    And I remember its "access_token" as "token"
    And client "control" connects to "/ws/app?token={token}"
    And client "control" stays connected for 300ms
    Then client "app" connecting to "/ws/app?token={host_token}" is rejected

  @id:hostd.auth.host-accepted @req:hostd.endpoint.host
  Scenario: A host with its host_id and the host token is accepted
    hostd-mvp.md §WebSocket Endpoints: Host daemon
    GET /ws/host?host_id=<id>&host_token=<token>.

    When client "host" connects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    Then client "host" stays connected for 300ms

  @id:hostd.auth.host-bad-token-refused @req:hostd.endpoint.host
  Scenario: A host with a wrong host token is refused
    hostd-mvp.md §WebSocket Endpoints: /ws/host?host_id=<id>&host_token=<token>;
    a wrong host token does not connect a host.
    Control: a host with its host_id and the host token stays connected.

    Given client "control" connects to "/ws/host?host_id=host-control-{unique}&host_token={host_token}"
    And client "control" stays connected for 300ms
    Then client "host" connecting to "/ws/host?host_id=host-{unique}&host_token=wrong-{unique}" is rejected

  @id:hostd.auth.host-missing-token-refused @req:hostd.endpoint.host
  Scenario: A host without a host token is refused
    hostd-mvp.md §WebSocket Endpoints: /ws/host?host_id=<id>&host_token=<token>.
    Control: a host with its host_id and the host token stays connected.

    Given client "control" connects to "/ws/host?host_id=host-control-{unique}&host_token={host_token}"
    And client "control" stays connected for 300ms
    Then client "host" connecting to "/ws/host?host_id=host-{unique}" is rejected

  @id:hostd.auth.host-app-token-refused @req:hostd.endpoint.credentials-separate @req:hostd.endpoint.host
  Scenario: An app access token is not a host token
    hostd-mvp.md §WebSocket Endpoints: hosts authenticate with host_token,
    apps with an access_token. Interpretation: logging in as a user does not
    let a client act as a host daemon.
    Control: a host with its host_id and the host token stays connected.

    Given client "control" connects to "/ws/host?host_id=host-control-{unique}&host_token={host_token}"
    And client "control" stays connected for 300ms
    And I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    And the HTTP status is 2xx
    And I remember its "access_token" as "token"
    Then client "host" connecting to "/ws/host?host_id=host-{unique}&host_token={token}" is rejected

  @id:hostd.auth.host-missing-host-id-refused @req:hostd.endpoint.host-id-required @req:hostd.endpoint.host
  Scenario: A host without a host_id is refused
    hostd-mvp.md §WebSocket Endpoints: /ws/host?host_id=<id>&host_token=<token>;
    §Identifiers: host_id identifies the host machine. Interpretation: without
    it the server cannot route commands, so it refuses the connection.
    Control: a host with its host_id and the host token stays connected.

    Given client "control" connects to "/ws/host?host_id=host-control-{unique}&host_token={host_token}"
    And client "control" stays connected for 300ms
    Then client "host" connecting to "/ws/host?host_token={host_token}" is rejected

  @id:hostd.auth.input-without-token-refused @req:hostd.http.input-bearer-auth @req:hostd.http.input-forwarded
  Scenario: An input without a Bearer token is refused and reaches no host
    hostd-mvp.md §HTTP Endpoints: POST /runs/:run_id/input (Bearer auth)
    forwards run.send_input to the owning host: a request without the
    Bearer token is not authenticated, so it is refused (a 4xx status) and
    nothing reaches the host of the run.

    Given client "host" connects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    And client "host" sends:
      """
      {"type": "run.started", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "data": {"tool": "codex", "cwd": "/w", "command": "codex"}}
      """
    And client "host" receives "run.ack"
    When I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "hello\n"}
      """
    Then the HTTP status is 4xx
    And the refusal names one of "401", "403", "token", "bearer", "auth", "unauthori", "credential", "login"
    And client "host" receives no "run.send_input" within 300ms

  @id:hostd.auth.input-bad-token-refused @req:hostd.http.input-bearer-auth @req:hostd.http.input-forwarded
  Scenario: An input with a Bearer token the server never issued is refused and reaches no host
    hostd-mvp.md §HTTP Endpoints: POST /runs/:run_id/input (Bearer auth): a
    token the server never issued authenticates nobody, so the request is
    refused (a 4xx status) and nothing reaches the host of the run.

    Given client "host" connects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    And client "host" sends:
      """
      {"type": "run.started", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "data": {"tool": "codex", "cwd": "/w", "command": "codex"}}
      """
    And client "host" receives "run.ack"
    And I use the header "Authorization" with "Bearer at-forged-{unique}"
    When I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "hello\n"}
      """
    Then the HTTP status is 4xx
    And the refusal names one of "401", "403", "token", "bearer", "auth", "unauthori", "credential", "login"
    And client "host" receives no "run.send_input" within 300ms

  @id:hostd.auth.input-refused-401 @req:hostd.http.input-refused-401 @req:hostd.http.input-bearer-auth
  Scenario: An input without a valid Bearer token is answered 401
    hostd-mvp.md §HTTP Endpoints: POST /runs/:run_id/input (Bearer auth).
    Interpretation: the refusal is 401 Unauthorized (RFC 6750 §3.1
    invalid_token: the resource SHOULD respond 401), checked before the run
    is looked up.

    Given I use the header "Authorization" with "Bearer at-forged-{unique}"
    When I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "hello\n"}
      """
    Then the HTTP status is 401
