@mitto
Feature: Mitto keepalive, multi-client sync and gap detection
  mitto.md §Key Field Descriptions: max_seq, the highest seq the server has
  for the session, enables immediate gap detection; keepalive_ack carries the
  session state a second tab needs (§Keepalive Fields); a client that missed
  events catches up with load_events {after_seq}.

  Background:
    Given a client connects
    And the client receives "connected"
    And I remember its "data.session_id" as "sid"

  @id:mitto.keepalive.ack
  @req:mitto.keepalive-ack.shape @req:mitto.keepalive-ack.is-prompting @req:mitto.keepalive-ack.is-running @req:mitto.keepalive-ack.queue-length @req:mitto.seq.max-seq
  Scenario: keepalive is answered with keepalive_ack and the session state
    mitto.md §Backend → Frontend Messages: keepalive_ack {client_time,
    server_time, max_seq, is_prompting, is_running, queue_length, status} is
    the "Response to keepalive"; §Keepalive Fields: is_prompting (bool)
    whether the agent is responding, is_running (bool), queue_length (int)
    the number of messages waiting. A new session runs and queues nothing.

    When the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 1700000000123}}
      """
    Then the client receives "keepalive_ack"
    And its "data.max_seq" is an integer
    And its "data.is_prompting" is false
    And its "data.is_running" is a boolean
    And its "data.queue_length" is 0

  @id:mitto.keepalive.ack-echo
  @req:mitto.keepalive-ack.echo @req:mitto.keepalive-ack.status-values
  Scenario: keepalive_ack echoes client_time and says the session status
    mitto.md §Backend → Frontend Messages: keepalive_ack {client_time,
    server_time, …, status}; §Keepalive Fields: status is active, completed
    or error. Interpretation: client_time is echoed as sent (it lets the
    client measure the round trip), server_time is a number (the spec gives
    neither a type), and status is one of the listed values (listed, not
    closed).

    When the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 1700000000123}}
      """
    Then the client receives "keepalive_ack"
    And its "data.client_time" is 1700000000123
    And its "data.server_time" is a number
    And its "data.status" is one of ["active", "completed", "error"]

  @id:mitto.keepalive.max-seq
  @req:mitto.seq.max-seq @req:mitto.keepalive-ack.session-state
  Scenario: keepalive_ack reports the session's current max_seq
    mitto.md §Keepalive Fields / §Key Field Descriptions: keepalive_ack
    carries max_seq, the highest seq the server has for the session, so a
    client can tell whether it missed events.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "count me", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 1}}
      """
    Then the client receives "keepalive_ack"
    And its "data.max_seq" is {max}
    And its "data.is_prompting" is false

  @id:mitto.keepalive.while-prompting @scripted
  @req:mitto.keepalive-ack.is-prompting @req:mitto.seq.max-seq
  Scenario: keepalive_ack says the agent is prompting during a turn
    mitto.md §Keepalive Fields: is_prompting says whether the agent is
    currently responding, max_seq is at least every seq already sent.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/slow 20", "prompt_id": "p-{unique}"}}
      """
    And the client receives "agent_message"
    And I remember its "data.seq" as "seq"
    When the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 2}}
      """
    Then the client receives "keepalive_ack"
    And its "data.is_prompting" is true
    And its "data.max_seq" is at least {seq}
    And the client sends:
      """
      {"type": "cancel", "data": {}}
      """
    And the client receives "prompt_complete"

  @id:mitto.sync.gap-after-reconnect
  @req:mitto.seq.max-seq @req:mitto.load-events.after-seq @req:mitto.connect.join
  Scenario: A reconnecting client detects its gap with max_seq and fills it with after_seq
    mitto.md §Key Field Descriptions: max_seq enables immediate gap detection;
    §load_events Parameters: after_seq loads the events with seq > after_seq
    (sync). A client that was away while another client prompted sees a
    max_seq above the last seq it has and loads what it missed, the other
    client's prompt among it (the check engine fails an event at or below
    after_seq). (Clients join with /ws?session_id=ID, this dialect's
    reading: see connect.feature.)

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "before the gap", "prompt_id": "p1-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "seen"
    And the client drops the connection
    And client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    And client "B" sends:
      """
      {"type": "prompt", "data": {"message": "during the gap", "prompt_id": "p2-{unique}"}}
      """
    And client "B" receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When the client reconnects to "/ws?session_id={sid}"
    And the client receives "connected"
    And the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 3}}
      """
    Then the client receives "keepalive_ack"
    And its "data.max_seq" is {max}
    And its "data.max_seq" is greater than {seen}
    When the client sends:
      """
      {"type": "load_events", "data": {"after_seq": {seen}}}
      """
    Then the client receives "events_loaded"
    And its "data.max_seq" is {max}
    And its "data.events" contains {"type": "user_prompt"}

  @id:mitto.sync.gap-from-live-max-seq
  @req:mitto.seq.max-seq @req:mitto.load-events.before-seq @req:mitto.seq.monotonic @req:mitto.user-prompt.broadcast @req:mitto.connect.join
  Scenario: A live event's max_seq lets a late client see that it lacks history
    mitto.md §Key Field Descriptions: max_seq, carried by every live event, is
    the highest seq the server has for the session; a client joining late sees
    from the first live event it gets that earlier events exist, and loads
    them with before_seq (§load_events Parameters: events with seq <
    before_seq), the earlier prompt among them.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "early history", "prompt_id": "p1-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "old"
    And client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "now", "prompt_id": "p2-{unique}"}}
      """
    Then client "B" receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p2-{unique}"}}
      """
    And its "data.seq" is greater than {old}
    And its "data.max_seq" is at least {old}
    And I remember its "data.seq" as "first_live"
    And client "B" receives "prompt_complete"
    When client "B" sends:
      """
      {"type": "load_events", "data": {"before_seq": {first_live}, "limit": 500}}
      """
    Then client "B" receives "events_loaded"
    And its "data.events" contains {"type": "user_prompt"}

  @id:mitto.sync.two-clients-same-events
  @req:mitto.session.events-to-all-clients @req:mitto.seq.max-seq @req:mitto.user-prompt.broadcast @req:mitto.seq.same-content @req:mitto.connect.join
  Scenario: Two clients of a session see the same numbered events
    mitto.md §Key Field Descriptions / Sequence Number Fields: seq numbers the
    session's events and max_seq is the session's highest, so both clients
    end the turn with the same max_seq; user_prompt is broadcast to all
    clients, the sender included. Interpretation: the other client gets the
    turn's prompt_complete too (the spec says "to all clients" of user_prompt
    alone). The check engine compares the deliveries of each seq (our
    reading: warnings). The prompt makes a scripted agent
    run a tool, so tool events are compared too; any other agent simply
    answers it.

    Given client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    When client "B" sends:
      """
      {"type": "prompt", "data": {"message": "/exec ls", "prompt_id": "p-{unique}"}}
      """
    Then client "B" receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    And the client receives "prompt_complete"
    And its "data.max_seq" is {max}
    And the client has received at least 1 "user_prompt" where "data.prompt_id" is "p-{unique}"

  @id:mitto.sync.late-joiner-keepalive
  @req:mitto.keepalive-ack.session-state @req:mitto.seq.max-seq @req:mitto.connect.join
  Scenario: A client joining an active session learns its state from keepalive_ack
    mitto.md §Keepalive Fields: keepalive_ack includes session state for
    multi-tab sync: max_seq and is_prompting.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "already here", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    And client "B" sends:
      """
      {"type": "keepalive", "data": {"client_time": 4}}
      """
    Then client "B" receives "keepalive_ack"
    And its "data.max_seq" is {max}
    And its "data.is_prompting" is false

  @id:mitto.sync.join-mid-turn @scripted
  @req:mitto.session.events-to-all-clients @req:mitto.events-loaded.shape @req:mitto.seq.max-seq @req:mitto.cancel.shape @req:mitto.connect.join
  Scenario: A client joining during a turn loads the history and follows the rest live
    mitto.md §Backend → Frontend Messages: events_loaded carries max_seq and
    is_prompting, so a client that joins while the agent is responding loads
    what happened so far. Interpretation: it then follows the live events of
    the same turn (the spec says "to all clients" of user_prompt alone);
    is_prompting says whether the agent is responding (§Keepalive Fields);
    the turn, cancelled by the late client (cancel: "Cancel current agent
    operation"), ends for both with the same prompt_complete. (The second
    client joins with /ws?session_id=ID, this dialect's reading: see
    connect.feature.)

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/slow 300", "prompt_id": "p-{unique}"}}
      """
    And the client receives "agent_message"
    And I remember its "data.seq" as "seen"
    When client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    And its "data.session_id" is "{sid}"
    And client "B" sends:
      """
      {"type": "load_events", "data": {"limit": 500}}
      """
    Then client "B" receives "events_loaded"
    And its "data.is_prompting" is true
    And its "data.max_seq" is at least {seen}
    And its "data.events" contains {"type": "user_prompt"}
    And client "B" receives "agent_message"
    And its "data.is_prompting" is true
    When client "B" sends:
      """
      {"type": "cancel", "data": {}}
      """
    Then client "B" receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    And the client receives "prompt_complete"
    And its "data.max_seq" is {max}
