@mitto
Feature: Mitto connection
  mitto.md §Backend → Frontend Messages: a connection is established with
  connected {session_id, client_id, acp_server, is_running}.

  mitto.md names no WebSocket path or session parameter. These features
  connect to /ws (the reference server's path) and, to put a second client
  into the same session, to /ws?session_id=ID with the session_id that
  connected named. A connection without session_id starts a new session.

  Every connection a scenario opens first sends the initial load_events,
  as the real UI does (features/mitto/client.json's opening); the scenario
  tagged @opening prompts without it.

  @id:mitto.connect.connected
  @req:mitto.connected.shape @req:mitto.keepalive-ack.is-running
  Scenario: A new connection is greeted with connected
    mitto.md §Backend → Frontend Messages: connected {session_id, client_id,
    acp_server, is_running} says the connection is established; is_running is
    a bool (§Keepalive Fields). The spec gives the ids and acp_server no type,
    so only their presence is asserted.

    Given a client connects
    When the client receives "connected"
    Then its "data.session_id" exists
    And its "data.client_id" exists
    And its "data.acp_server" exists
    And its "data.is_running" is a boolean

  @id:mitto.connect.fresh-session-no-last-prompt
  @req:mitto.connected.last-prompt-optional @req:mitto.connected.last-user-prompt-id @req:mitto.connected.last-user-prompt-seq
  Scenario: A new session names no last user prompt
    mitto.md §Key Field Descriptions / Delivery Verification Fields:
    last_user_prompt_id and last_user_prompt_seq name the last user prompt of
    the session. Interpretation: a session without any prompt leaves both out.

    Given a client connects
    When the client receives "connected"
    Then its "data.last_user_prompt_id" is absent
    And its "data.last_user_prompt_seq" is absent

  @id:mitto.connect.second-client-joins
  @req:mitto.connect.join @req:mitto.connected.shape
  Scenario: A second client joins the same session with its own client_id
    mitto.md §Backend → Frontend Messages: connected names the session and the
    client; user_prompt {sender_id, is_mine} tells clients of one session
    apart. Interpretation: a client joins a session with /ws?session_id=ID
    (the spec names no path), and each connection gets its own client_id (the
    spec does not define client_id).

    Given a client connects
    And the client receives "connected"
    And I remember its "data.session_id" as "sid"
    And I remember its "data.client_id" as "a_id"
    When client "B" connects to "/ws?session_id={sid}"
    Then client "B" receives "connected"
    And its "data.session_id" is "{sid}"
    And its "data.client_id" is not "{a_id}"

  @id:mitto.connect.delivery-verification
  @req:mitto.connected.last-prompt-optional @req:mitto.connected.last-user-prompt-id @req:mitto.connected.last-user-prompt-seq @req:mitto.connected.delivery-verification-purpose @req:mitto.user-prompt.broadcast
  Scenario: A reconnecting client learns the last user prompt of the session
    mitto.md §Key Field Descriptions / Delivery Verification Fields: connected
    includes last_user_prompt_id and last_user_prompt_seq so that a client
    reconnecting from a zombie connection can verify its pending prompt was
    delivered. Interpretation: the members are optional (?) in the connected
    row; a server sends them once the session has a prompt, naming its
    prompt_id and the seq of its user_prompt.

    Given a client connects
    And the client receives "connected"
    And I remember its "data.session_id" as "sid"
    And the client sends:
      """
      {"type": "prompt", "data": {"message": "delivery check", "prompt_id": "p-{unique}"}}
      """
    And the client receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p-{unique}"}}
      """
    And I remember its "data.seq" as "up_seq"
    And the client receives "prompt_complete"
    When the client drops the connection
    And the client reconnects to "/ws?session_id={sid}"
    Then the client receives "connected"
    And its "data.session_id" is "{sid}"
    And its "data.last_user_prompt_id" is "p-{unique}"
    And its "data.last_user_prompt_seq" is {up_seq}

  @id:mitto.connect.live-before-load @opening
  @req:mitto.opening.live-before-load @req:mitto.user-prompt.broadcast
  Scenario: A connection that has not loaded events still gets its live events
    mitto.md §Frontend → Backend Messages: load_events loads events "(initial,
    pagination, or sync)"; user_prompt is the "Broadcast of user prompt to all
    clients". Interpretation: the spec does not say when a connection starts
    to get live events; we read that it gets them before any load_events. A
    server that holds live events until a connection's first load_events (as
    the real mitto server does) fails here, and only here: every other
    scenario opens with the initial load_events as the real UI does.

    Given a client connects
    And the client receives "connected"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "before any load", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete"
