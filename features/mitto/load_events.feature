@mitto
Feature: Mitto load_events
  mitto.md §load_events Parameters and §Backend → Frontend Messages:
  load_events {limit?, before_seq?, after_seq?} loads stored events (initial
  load, pagination with before_seq, sync with after_seq) and is answered with
  events_loaded {events, has_more, first_seq, last_seq, max_seq, total_count,
  prepend, is_prompting}. limit defaults to 50 and is at most 500.

  The check engine judges every events_loaded against its request: seq
  order, first_seq/last_seq bounds, the limit, the before_seq/after_seq range
  and that a stored event is the same event as its live delivery.

  Background:
    Given a client connects
    And the client receives "connected"
    And I remember its "data.session_id" as "sid"

  @id:mitto.load.empty-session @must
  Scenario: The initial load of a new session holds no events
    mitto.md §load_events Parameters: load_events without before_seq or
    after_seq is the initial load. Interpretation: a new session (a
    connection without session_id) has no events yet, so has_more is false.

    When the client sends:
      """
      {"type": "load_events", "data": {}}
      """
    Then the client receives "events_loaded"
    And its "data.events" has 0 items
    And its "data.has_more" is false
    And its "data.is_prompting" is false

  @id:mitto.load.initial @must
  Scenario: The initial load returns the session's events in seq order
    mitto.md §Event Types in load_events: events_loaded holds the events, each
    with its type; §Backend → Frontend Messages: first_seq and last_seq bound
    them, max_seq is the session's highest seq and has_more says whether older
    events remain. Interpretation: when the page holds every event of the
    session, has_more is false.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "remember this", "prompt_id": "p-{unique}"}}
      """
    And the client receives "user_prompt"
    And I remember its "data.seq" as "up_seq"
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "load_events", "data": {}}
      """
    Then the client receives "events_loaded"
    And its "data.events" contains {"type": "user_prompt"}
    And its "data.events" contains {"type": "agent_message"}
    And its "data.first_seq" is {up_seq}
    And its "data.last_seq" is {max}
    And its "data.max_seq" is {max}
    And its "data.has_more" is false
    And its "data.prepend" is false
    And its "data.is_prompting" is false
    And its "data.total_count" is an integer

  @id:mitto.load.limit @must
  Scenario: The initial load returns at most limit events, the newest ones
    mitto.md §load_events Parameters: limit is the maximum number of events to
    return; the initial load shows the newest events and has_more says older
    ones remain.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "one two three four", "prompt_id": "p1-{unique}"}}
      """
    And the client receives "prompt_complete"
    And the client sends:
      """
      {"type": "prompt", "data": {"message": "five six seven", "prompt_id": "p2-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "load_events", "data": {"limit": 2}}
      """
    Then the client receives "events_loaded"
    And its "data.events" has 2 items
    And its "data.last_seq" is {max}
    And its "data.first_seq" is less than {max}
    And its "data.has_more" is true

  @id:mitto.load.before-seq @must
  Scenario: A before_seq page holds only events below before_seq
    mitto.md §load_events Parameters: before_seq loads events with seq <
    before_seq (pagination); the page is prepended to what the client shows.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "one two three four", "prompt_id": "p1-{unique}"}}
      """
    And the client receives "prompt_complete"
    And the client sends:
      """
      {"type": "prompt", "data": {"message": "five six seven", "prompt_id": "p2-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "load_events", "data": {"before_seq": {max}, "limit": 2}}
      """
    Then the client receives "events_loaded"
    And its "data.events" has 2 items
    And its "data.last_seq" is less than {max}
    And its "data.prepend" is true
    And its "data.max_seq" is {max}
    And I remember its "data.first_seq" as "first"
    When the client sends:
      """
      {"type": "load_events", "data": {"before_seq": {first}, "limit": 500}}
      """
    Then the client receives "events_loaded"
    And its "data.last_seq" is less than {first}
    And its "data.events" contains {"type": "user_prompt"}
    And its "data.has_more" is false

  @id:mitto.load.after-seq @must
  Scenario: An after_seq sync returns the events after after_seq
    mitto.md §load_events Parameters: after_seq loads events with seq >
    after_seq (sync), which brings a client up to max_seq.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "first turn", "prompt_id": "p1-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "seen"
    And the client sends:
      """
      {"type": "prompt", "data": {"message": "second turn", "prompt_id": "p2-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "load_events", "data": {"after_seq": {seen}}}
      """
    Then the client receives "events_loaded"
    And its "data.first_seq" is greater than {seen}
    And its "data.last_seq" is {max}
    And its "data.max_seq" is {max}
    And its "data.events" contains {"type": "user_prompt"}
    And its "data.has_more" is false

  @id:mitto.load.after-max-seq-empty @must
  Scenario: A sync from max_seq finds nothing new
    mitto.md §load_events Parameters: after_seq loads events with seq >
    after_seq; a client that has every event gets none.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "all caught up", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "load_events", "data": {"after_seq": {max}}}
      """
    Then the client receives "events_loaded"
    And its "data.events" has 0 items
    And its "data.max_seq" is {max}
    And its "data.has_more" is false

  @id:mitto.load.default-limit @must @scripted
  Scenario: Without limit the initial load returns 50 events
    mitto.md §load_events Parameters: limit defaults to 50.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/stream 60", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete" within 5s
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "load_events", "data": {}}
      """
    Then the client receives "events_loaded"
    And its "data.events" has 50 items
    And its "data.last_seq" is {max}
    And its "data.has_more" is true

  @id:mitto.load.max-limit @must @scripted
  Scenario: A limit of 500 returns 500 events of a longer session
    mitto.md §load_events Parameters: limit is the maximum number of events to
    return, at most 500.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/stream 505", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete" within 5s
    When the client sends:
      """
      {"type": "load_events", "data": {"limit": 500}}
      """
    Then the client receives "events_loaded"
    And its "data.events" has 500 items
    And its "data.has_more" is true

  @id:mitto.load.limit-capped @should @scripted
  Scenario: A limit above 500 is served as 500
    mitto.md §load_events Parameters: limit has a maximum of 500.
    Interpretation: a larger limit is served with at most 500 events rather
    than refused.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/stream 505", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete" within 5s
    When the client sends:
      """
      {"type": "load_events", "data": {"limit": 1000}}
      """
    Then the client receives "events_loaded"
    And its "data.events" has 500 items

  @id:mitto.load.after-seq-limit @should @scripted
  Scenario: The limit also bounds an after_seq sync, and has_more says more remain
    mitto.md §load_events Parameters: limit is the maximum number of events to
    return. Interpretation: the limit binds a sync too, returning the oldest
    events after after_seq, and has_more then says newer events remain.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "one two three four", "prompt_id": "p-{unique}"}}
      """
    And the client receives "user_prompt"
    And I remember its "data.seq" as "up_seq"
    And the client receives "prompt_complete"
    When the client sends:
      """
      {"type": "load_events", "data": {"after_seq": {up_seq}, "limit": 2}}
      """
    Then the client receives "events_loaded"
    And its "data.events" has 2 items
    And its "data.first_seq" is greater than {up_seq}
    And its "data.has_more" is true

  @id:mitto.load.exclusive-params @should
  Scenario: before_seq and after_seq together are refused
    mitto.md §load_events Parameters: before_seq and after_seq are mutually
    exclusive. Interpretation: a load_events carrying both is refused with
    error instead of being answered.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "some history", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete"
    When the client sends:
      """
      {"type": "load_events", "data": {"before_seq": 3, "after_seq": 1}}
      """
    Then the client receives "error"
    And its "data.message" is a string
    And the client receives no "events_loaded" within 300ms

  @id:mitto.load.tool-events-stored @must @scripted
  Scenario: Stored tool events keep their type and content
    mitto.md §Event Types in load_events: tool_call and tool_update are event
    types of events_loaded; a stored event is the event that was delivered
    live with its seq (the check engine compares them).

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/exec ls", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete"
    When the client sends:
      """
      {"type": "load_events", "data": {}}
      """
    Then the client receives "events_loaded"
    And its "data.events" contains {"type": "tool_call"}
    And its "data.events" contains {"type": "tool_update"}
    And its "data.events" contains {"type": "agent_message"}

  @id:mitto.load.pages-agree @must
  Scenario: Overlapping loads return the same stored events
    mitto.md §Key Field Descriptions / Sequence Number Fields: a seq names one
    event, so every load that returns it returns the same event (the check
    engine compares the copies).

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "a b c d e", "prompt_id": "p-{unique}"}}
      """
    And the client receives "user_prompt"
    And I remember its "data.seq" as "up_seq"
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "load_events", "data": {"limit": 3}}
      """
    Then the client receives "events_loaded"
    And I remember its "data.first_seq" as "first"
    When the client sends:
      """
      {"type": "load_events", "data": {"after_seq": {up_seq}}}
      """
    Then the client receives "events_loaded"
    And its "data.last_seq" is {max}
    When the client sends:
      """
      {"type": "load_events", "data": {"before_seq": {max}, "limit": 500}}
      """
    Then the client receives "events_loaded"
    And its "data.first_seq" is {up_seq}

  @id:mitto.load.second-client @must
  Scenario: A client joining later loads the history it missed
    mitto.md §load_events Parameters: the initial load gives a client the
    session's events; §Key Field Descriptions: max_seq enables immediate gap
    detection.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "before you came", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    And client "B" sends:
      """
      {"type": "load_events", "data": {}}
      """
    Then client "B" receives "events_loaded"
    And its "data.max_seq" is {max}
    And its "data.last_seq" is {max}
    And its "data.events" contains {"type": "user_prompt"}
