@mitto
Feature: Mitto load_events
  mitto.md §load_events Parameters and §Backend → Frontend Messages:
  load_events {limit?, before_seq?, after_seq?} loads stored events (initial
  load, pagination with before_seq, sync with after_seq) and is answered with
  events_loaded {events, has_more, first_seq, last_seq, max_seq, total_count,
  prepend, is_prompting}. limit defaults to 50 and is at most 500.

  The check engine judges every events_loaded against its request: the
  limit and the before_seq/after_seq range (stated: errors), and seq order,
  first_seq/last_seq bounds and that a stored event is the same event as its
  live delivery (our reading: warnings). The scenarios whose primary
  requirement is stated assert only what the spec states; first_seq,
  last_seq, has_more and prepend, which it names without describing, are
  asserted by scenarios whose primary requirement is an interpretation.

  Background:
    Given a client connects
    And the client receives "connected"
    And I remember its "data.session_id" as "sid"

  @id:mitto.load.empty-session @opening
  @req:mitto.load-events.empty-session @req:mitto.events-loaded.shape
  Scenario: The initial load of a new session holds no events
    mitto.md §load_events Parameters: load_events without before_seq or
    after_seq is the initial load (it is the opening, so written out here).
    Interpretation: a new session (a
    connection without session_id) has no events yet, so has_more is false
    and the agent is not prompting.

    When the client sends:
      """
      {"type": "load_events", "data": {}}
      """
    Then the client receives "events_loaded"
    And its "data.events" has 0 items
    And its "data.has_more" is false
    And its "data.is_prompting" is false

  @id:mitto.load.initial
  @req:mitto.events-loaded.shape @req:mitto.load-events.shape @req:mitto.seq.max-seq @req:mitto.events-loaded.event-type @req:mitto.events-loaded.event-types @req:mitto.events-loaded.total-count
  Scenario: The initial load returns the session's stored events
    mitto.md §Backend → Frontend Messages: events_loaded is the "Response to
    load_events request"; max_seq is the highest seq the server has for the
    session (§Key Field Descriptions); §Event Types in load_events: each
    stored event has a type, user_prompt for a user message. After
    prompt_complete (the agent finished responding) the load holds the
    prompt and says the agent is not prompting. The limit of 500 keeps the
    whole short session in one page. The check engine judges the order and
    the first_seq/last_seq bounds of the page (interpretation: warnings).

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "remember this", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "load_events", "data": {"limit": 500}}
      """
    Then the client receives "events_loaded"
    And its "data.events" contains {"type": "user_prompt"}
    And its "data.max_seq" is {max}
    And its "data.is_prompting" is false
    And its "data.total_count" is an integer

  @id:mitto.load.initial-page-bounds
  @req:mitto.events-loaded.bounds @req:mitto.events-loaded.total-count @req:mitto.events-loaded.order @req:mitto.events-loaded.prepend
  Scenario: A page holding the whole session is bounded by its first and last seq
    mitto.md §Backend → Frontend Messages: events_loaded {events, has_more,
    first_seq, last_seq, max_seq, total_count, prepend, …}. The spec names
    first_seq, last_seq, has_more and prepend but does not describe them.
    Interpretation: first_seq and last_seq are the seqs of the page's first
    and last events, the events come in seq order, has_more is false when the
    page holds every event, and an initial load is not prepended.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "remember this", "prompt_id": "p-{unique}"}}
      """
    And the client receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p-{unique}"}}
      """
    And I remember its "data.seq" as "up_seq"
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "load_events", "data": {}}
      """
    Then the client receives "events_loaded"
    And its "data.events" contains {"type": "user_prompt"}
    And its "data.first_seq" is {up_seq}
    And its "data.last_seq" is {max}
    And its "data.has_more" is false
    And its "data.prepend" is false

  @id:mitto.load.limit
  @req:mitto.load-events.limit @req:mitto.seq.max-seq
  Scenario: The initial load returns at most limit events
    mitto.md §load_events Parameters: limit is the "Maximum events to return";
    the check engine fails an events_loaded holding more events than the
    limit (mitto.events-loaded-limit). max_seq is still the session's highest
    seq (§Key Field Descriptions).

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
    And its "data.events" is an array
    And its "data.max_seq" is {max}

  @id:mitto.load.limit-fills-page
  @req:mitto.load-events.page-full @req:mitto.events-loaded.bounds
  Scenario: A limited initial load is a full page of the newest events
    mitto.md §load_events Parameters: limit is the maximum number of events to
    return. Interpretation: a session holding more events than the limit
    fills the page, the initial load holds the newest events (last_seq is
    max_seq) and has_more says older ones remain (the linked
    synchronization.md is not part of the spec).

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

  @id:mitto.load.before-seq
  @req:mitto.load-events.before-seq @req:mitto.load-events.limit @req:mitto.seq.max-seq
  Scenario: A before_seq page holds only events below before_seq
    mitto.md §load_events Parameters: before_seq loads events with seq <
    before_seq (pagination); the check engine fails a page holding an event at
    or above before_seq (mitto.events-loaded-range). The first prompt's
    user_prompt is below the last seq, so a page of up to 500 events below it
    holds it.

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
    And its "data.events" is an array
    And its "data.max_seq" is {max}
    When the client sends:
      """
      {"type": "load_events", "data": {"before_seq": {max}, "limit": 500}}
      """
    Then the client receives "events_loaded"
    And its "data.events" contains {"type": "user_prompt"}

  @id:mitto.load.before-seq-pages
  @req:mitto.events-loaded.prepend @req:mitto.load-events.before-seq @req:mitto.events-loaded.bounds
  Scenario: before_seq pages are prepended and walk back to the start
    mitto.md §load_events Parameters: before_seq loads events with seq <
    before_seq (pagination). Interpretation: a before_seq page says prepend
    true, its last_seq is below before_seq, paging back from a page's
    first_seq reaches the session's first events, and the last page says
    has_more false.

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
    And I remember its "data.first_seq" as "first"
    When the client sends:
      """
      {"type": "load_events", "data": {"before_seq": {first}, "limit": 500}}
      """
    Then the client receives "events_loaded"
    And its "data.last_seq" is less than {first}
    And its "data.events" contains {"type": "user_prompt"}
    And its "data.has_more" is false

  @id:mitto.load.after-seq
  @req:mitto.load-events.after-seq @req:mitto.seq.max-seq
  Scenario: An after_seq sync returns the events after after_seq
    mitto.md §load_events Parameters: after_seq loads events with seq >
    after_seq (sync); the check engine fails an event at or below after_seq
    (mitto.events-loaded-range). The second prompt's user_prompt came after
    the first turn's max_seq, so the sync holds it; max_seq is the session's
    highest seq (§Key Field Descriptions).

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
      {"type": "load_events", "data": {"after_seq": {seen}, "limit": 500}}
      """
    Then the client receives "events_loaded"
    And its "data.max_seq" is {max}
    And its "data.events" contains {"type": "user_prompt"}

  @id:mitto.load.after-seq-bounds
  @req:mitto.events-loaded.bounds @req:mitto.load-events.after-seq @req:mitto.events-loaded.total-count
  Scenario: An after_seq sync is bounded by first_seq and last_seq
    mitto.md §load_events Parameters: after_seq loads events with seq >
    after_seq (sync). Interpretation: first_seq and last_seq (named, not
    described) bound the sync, which ends at max_seq, and has_more is false
    when it holds every newer event.

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
    And its "data.has_more" is false

  @id:mitto.load.after-max-seq-empty
  @req:mitto.load-events.after-seq @req:mitto.seq.max-seq
  Scenario: A sync from max_seq finds nothing new
    mitto.md §load_events Parameters: after_seq loads events with seq >
    after_seq; §Key Field Descriptions: max_seq is the highest seq the server
    has, so a client that has every event gets none.

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

  @id:mitto.load.default-limit @scripted
  @req:mitto.load-events.limit-default @req:mitto.seq.max-seq
  Scenario: Without limit the initial load returns at most 50 events
    mitto.md §load_events Parameters: limit defaults to 50; the check engine
    fails an answer to a load without limit that holds more than 50 events
    (mitto.events-loaded-limit). The spec makes limit a maximum, so the exact
    count is mitto.load.default-limit-full's (an interpretation).

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
    And its "data.events" is an array
    And its "data.max_seq" is {max}

  @id:mitto.load.default-limit-full @scripted
  @req:mitto.load-events.page-full @req:mitto.load-events.limit-default @req:mitto.events-loaded.bounds
  Scenario: Without limit the initial load is a full page of the newest 50 events
    mitto.md §load_events Parameters: limit defaults to 50. Interpretation: a
    session of more than 50 events fills the page with its newest events and
    has_more says older ones remain.

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

  @id:mitto.load.max-limit @scripted
  @req:mitto.load-events.limit-max @req:mitto.events-loaded.shape @req:mitto.seq.max-seq
  Scenario: A limit of 500 is served
    mitto.md §load_events Parameters: limit is an int, at most 500, so a load
    with limit 500 is a valid request and is answered with events_loaded
    (§Backend → Frontend Messages: "Response to load_events request"); the
    check engine fails an answer with more than 500 events.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/stream 505", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete" within 30s
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "load_events", "data": {"limit": 500}}
      """
    Then the client receives "events_loaded"
    And its "data.events" is an array
    And its "data.max_seq" is {max}

  @id:mitto.load.max-limit-full @scripted
  @req:mitto.load-events.page-full @req:mitto.load-events.limit-max
  Scenario: A limit of 500 returns 500 events of a longer session
    mitto.md §load_events Parameters: limit is the maximum number of events to
    return, at most 500. Interpretation: a session of more than 500 events
    fills the page and has_more says older ones remain.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/stream 505", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete" within 30s
    When the client sends:
      """
      {"type": "load_events", "data": {"limit": 500}}
      """
    Then the client receives "events_loaded"
    And its "data.events" has 500 items
    And its "data.has_more" is true

  @id:mitto.load.limit-capped @scripted
  @req:mitto.load-events.limit-capped @req:mitto.load-events.limit-max
  Scenario: A limit above 500 is served as 500
    mitto.md §load_events Parameters: limit has a maximum of 500.
    Interpretation: a larger limit is served with at most 500 events rather
    than refused.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/stream 505", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete" within 30s
    When the client sends:
      """
      {"type": "load_events", "data": {"limit": 1000}}
      """
    Then the client receives "events_loaded"
    And its "data.events" has 500 items

  @id:mitto.load.after-seq-limit @scripted
  @req:mitto.load-events.sync-limit @req:mitto.load-events.after-seq @req:mitto.events-loaded.bounds
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

  @id:mitto.load.exclusive-params
  @req:mitto.load-events.exclusive-refused @req:mitto.load-events.exclusive @req:mitto.error.shape
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
    And the refusal names one of "exclusive", "before_seq", "after_seq", "both", "together"
    And the client receives no "events_loaded" within 300ms

  @id:mitto.load.tool-events-stored @scripted
  @req:mitto.events-loaded.stored-as-delivered @req:mitto.events-loaded.event-types
  Scenario: Stored tool events keep their type and content
    mitto.md §Event Types in load_events: tool_call and tool_update are event
    types of events_loaded. Interpretation: a stored event is the event that
    was delivered live with its seq, with the same type and content (the
    check engine compares them, mitto.replay-mismatch: the spec never says two
    deliveries of one seq carry the same content).

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/exec ls", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete"
    When the client sends:
      """
      {"type": "load_events", "data": {"limit": 500}}
      """
    Then the client receives "events_loaded"
    And its "data.events" contains {"type": "tool_call"}
    And its "data.events" contains {"type": "tool_update"}
    And its "data.events" contains {"type": "agent_message"}

  @id:mitto.load.pages-agree
  @req:mitto.seq.same-content @req:mitto.events-loaded.bounds
  Scenario: Overlapping loads return the same stored events
    mitto.md §Key Field Descriptions / Sequence Number Fields: a seq numbers
    one event of the session. Interpretation: every load that returns a seq
    returns the same event (the check engine compares the copies,
    mitto.replay-mismatch), and first_seq/last_seq bound each page.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "a b c d e", "prompt_id": "p-{unique}"}}
      """
    And the client receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p-{unique}"}}
      """
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

  @id:mitto.load.second-client
  @req:mitto.events-loaded.shape @req:mitto.seq.max-seq @req:mitto.connect.join
  Scenario: A client joining later loads the history it missed
    mitto.md §load_events Parameters: the initial load gives a client the
    session's events; §Key Field Descriptions: max_seq, the session's highest
    seq, enables immediate gap detection. (The second client joins with
    /ws?session_id=ID, this feature's reading: see connect.feature.)

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "before you came", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    And its "data.session_id" is "{sid}"
    And client "B" sends:
      """
      {"type": "load_events", "data": {"limit": 500}}
      """
    Then client "B" receives "events_loaded"
    And its "data.max_seq" is {max}
    And its "data.events" contains {"type": "user_prompt"}
