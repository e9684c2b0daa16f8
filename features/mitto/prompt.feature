@mitto
Feature: Mitto prompt flow
  mitto.md §Frontend → Backend Messages / §Backend → Frontend Messages: a
  prompt is acknowledged with prompt_received, broadcast to every client of
  the session as user_prompt, answered with numbered agent events and ended
  with prompt_complete.

  Background:
    Given a client connects
    And the client receives "connected"
    And I remember its "data.session_id" as "sid"
    And I remember its "data.client_id" as "a_id"

  @id:mitto.prompt.received
  @req:mitto.prompt-received.names-prompt @req:mitto.prompt-received.shape
  Scenario: A prompt is acknowledged with prompt_received naming its prompt_id
    mitto.md §Backend → Frontend Messages: prompt_received {prompt_id} is the
    "ACK that prompt was received and persisted". Interpretation: the ACK
    names the prompt_id of the prompt it acknowledges (the spec does not say
    which prompt_id it carries).

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "hello", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "prompt_received"
    And its "data.prompt_id" is "p-{unique}"

  @id:mitto.prompt.user-prompt-echo
  @req:mitto.user-prompt.broadcast @req:mitto.user-prompt.shape @req:mitto.seq.max-seq
  Scenario: The sender gets its own prompt back as user_prompt
    mitto.md §Backend → Frontend Messages: user_prompt {seq, max_seq,
    sender_id, prompt_id, message, is_mine} is the "Broadcast of user prompt
    to all clients", the sender included, with the prompt's prompt_id and
    message; §Key Field Descriptions: max_seq is the highest seq the server
    has, so it is not below the message's own seq (the check engine judges
    it, mitto.max-seq).

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "hello mine", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p-{unique}"}}
      """
    And its "data.message" is "hello mine"
    And its "data.seq" is an integer
    And its "data.max_seq" is an integer

  @id:mitto.prompt.user-prompt-mine
  @req:mitto.user-prompt.is-mine @req:mitto.user-prompt.broadcast @req:mitto.connect.join
  Scenario: is_mine and sender_id tell the sender's connection from the others
    mitto.md §Backend → Frontend Messages: user_prompt {sender_id, is_mine} is
    broadcast to all clients; connected names each client's client_id. The
    spec names is_mine and sender_id but does not define them.
    Interpretation: is_mine is true on the connection that sent the prompt
    and false on the others, and sender_id is the sender's client_id.

    Given client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "hello mine", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p-{unique}"}}
      """
    And its "data.sender_id" is "{a_id}"
    And its "data.is_mine" is true
    And client "B" receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p-{unique}"}}
      """
    And its "data.sender_id" is "{a_id}"
    And its "data.is_mine" is false

  @id:mitto.prompt.broadcast
  @req:mitto.user-prompt.broadcast @req:mitto.seq.monotonic @req:mitto.connect.join
  Scenario: A prompt is broadcast to a second client of the session
    mitto.md §Backend → Frontend Messages: user_prompt is the "Broadcast of
    user prompt to all clients": a second client of the session receives the
    same user_prompt, with the prompt's prompt_id and message and the same
    seq (§Key Field Descriptions: seq numbers the session's events). (The
    second client joins with /ws?session_id=ID, this feature's reading: see
    connect.feature.)

    Given client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    And its "data.session_id" is "{sid}"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "hello everyone", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p-{unique}"}}
      """
    And I remember its "data.seq" as "up_seq"
    And client "B" receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p-{unique}"}}
      """
    And its "data.message" is "hello everyone"
    And its "data.seq" is {up_seq}

  @id:mitto.prompt.turn
  @req:mitto.agent-message.shape @req:mitto.prompt-complete.shape @req:mitto.seq.monotonic @req:mitto.seq.max-seq @req:mitto.keepalive-ack.is-prompting
  Scenario: The agent answers with agent_message chunks and ends with prompt_complete
    mitto.md §Backend → Frontend Messages: agent_message {seq, max_seq, html,
    is_prompting} carries the HTML-rendered answer to the prompt and
    prompt_complete {event_count, max_seq} says the agent finished
    responding; is_prompting says whether the agent is currently responding
    (§Keepalive Fields). §Key Field Descriptions: seq increases monotonically
    as events arrive, so the answer's seq is above its prompt's, and max_seq
    is the highest seq the server has, never below a seq already sent.

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "hello there my friend", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p-{unique}"}}
      """
    And I remember its "data.seq" as "up_seq"
    And the client receives "agent_message"
    And its "data.html" is a string
    And its "data.is_prompting" is true
    And its "data.seq" is greater than {up_seq}
    And its "data.max_seq" is at least {up_seq}
    And the client receives "prompt_complete"
    And its "data.event_count" is an integer
    And its "data.max_seq" is greater than {up_seq}

  @id:mitto.prompt.second-client-sees-turn
  @req:mitto.session.events-to-all-clients @req:mitto.user-prompt.broadcast @req:mitto.seq.max-seq @req:mitto.connect.join
  Scenario: A second client receives the whole turn with the same seq numbers
    mitto.md §Key Field Descriptions / Sequence Number Fields: seq numbers the
    events of the session, max_seq is the session's highest; every client of
    the session sees the prompt's user_prompt (a broadcast to all clients).
    Interpretation: it also sees the agent's answer and prompt_complete (the
    spec says "to all clients" of user_prompt alone). (The second client
    joins with /ws?session_id=ID, this feature's reading: see
    connect.feature.)

    Given client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    And its "data.session_id" is "{sid}"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "tell us both", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    And client "B" receives, in order:
      | user_prompt     | {"data": {"prompt_id": "p-{unique}"}} |
      | agent_message   |                                       |
      | prompt_complete |                                       |
    And its "data.max_seq" is {max}

  @id:mitto.prompt.seq-continues
  @req:mitto.seq.monotonic @req:mitto.seq.max-seq
  Scenario: A second prompt continues the sequence numbers of the session
    mitto.md §Key Field Descriptions / Sequence Number Fields: seq is a
    monotonically increasing sequence number; max_seq is the highest the
    server has for the session.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "first", "prompt_id": "p1-{unique}"}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max1"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "second", "prompt_id": "p2-{unique}"}}
      """
    Then the client receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p2-{unique}"}}
      """
    And its "data.seq" is greater than {max1}
    And the client receives "prompt_complete"
    And its "data.max_seq" is greater than {max1}

  @id:mitto.prompt.thought @scripted
  @req:mitto.agent-thought.shape @req:mitto.keepalive-ack.is-prompting
  Scenario: Reasoning streams as agent_thought before the answer
    mitto.md §Backend → Frontend Messages: agent_thought {seq, max_seq, text,
    is_prompting} carries the agent's thinking as plain text while the agent
    is responding. ci/testmode.md /think: the reasoning events, then the
    reply (how many chunks is the server's own).

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/think step by step", "prompt_id": "p-{unique}"}}
      """
    Then the client receives, in order:
      | user_prompt     |                                  |
      | agent_thought   | {"data": {"is_prompting": true}} |
      | agent_message   |                                  |
      | prompt_complete |                                  |
    And the client has received at least 1 "agent_thought" where "data.text" is a string

  @id:mitto.prompt.tool-call @scripted
  @req:mitto.tool-call.shape @req:mitto.tool-update.shape @req:mitto.seq.monotonic
  Scenario: A tool run without approval reports tool_call and tool_update
    mitto.md §Backend → Frontend Messages: tool_call {seq, max_seq, id, title,
    status, is_prompting} announces a tool invocation and tool_update {seq,
    max_seq, id, status, is_prompting} a status change of the call it names
    by id. §Key Field Descriptions: seq is monotonically increasing, so the
    update's seq is above the call's. ci/testmode.md /exec: the tool call and
    its result, then the reply.

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/exec ls", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "tool_call"
    And its "data.title" is a string
    And its "data.status" exists
    And I remember its "data.id" as "tool"
    And I remember its "data.seq" as "call_seq"
    And the client receives "tool_update" with:
      """
      {"data": {"id": "{tool}"}}
      """
    And its "data.seq" is greater than {call_seq}
    And the client receives "prompt_complete"

  @id:mitto.prompt.tool-call-statuses @scripted
  @req:mitto.tool-update.statuses @req:mitto.seq.delivered-once @req:mitto.tool-update.shape
  Scenario: A tool call goes in_progress, then completed, each update delivered once
    mitto.md §Backend → Frontend Messages: tool_update {seq, id, status} is a
    "Tool status update". The spec lists no status values: in_progress and
    completed are ACP's (Interpretation). §Key Field Descriptions: seq is a
    monotonically increasing sequence number; Interpretation: an update is
    delivered once, not again with the same seq (mitto.seq-duplicate).

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/exec ls", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "tool_call"
    And I remember its "data.id" as "tool"
    And I remember its "data.seq" as "call_seq"
    And the client receives "tool_update" with:
      """
      {"data": {"id": "{tool}", "status": "in_progress"}}
      """
    And the client receives "tool_update" with:
      """
      {"data": {"id": "{tool}", "status": "completed"}}
      """
    And I remember its "data.seq" as "done_seq"
    And the client receives "agent_message"
    And the client receives "prompt_complete"
    And the client has received 1 "tool_update" where "data.seq" is {done_seq}
    And the client has received 1 "tool_call" where "data.seq" is {call_seq}

  @id:mitto.prompt.agent-error @scripted
  @req:mitto.error.agent-error @req:mitto.keepalive-ack.status @req:mitto.connect.join
  Scenario: A failed turn is reported with error and still ends with prompt_complete
    mitto.md §Backend → Frontend Messages: error {message, code?} notifies an
    error; prompt_complete says the agent finished responding.
    Interpretation: a turn that fails sends error to the session's clients,
    ends with prompt_complete, and keepalive_ack.status is "error" until the
    next turn.

    Given client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/fail out of coffee", "prompt_id": "p-{unique}"}}
      """
    Then the client receives, in order:
      | error           |
      | prompt_complete |
    And client "B" receives, in order:
      | error           |
      | prompt_complete |
    When the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 1}}
      """
    Then the client receives "keepalive_ack"
    And its "data.status" is "error"
    And its "data.is_prompting" is false

  @id:mitto.prompt.html-escaped @scripted
  @req:mitto.agent-message.html-escaped @req:mitto.agent-message.shape
  Scenario: agent_message html escapes the text the agent produced
    mitto.md §Backend → Frontend Messages: agent_message carries an
    HTML-rendered agent response chunk. Interpretation: markup the agent
    writes as text reaches the client escaped, not as live HTML.

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "<b>bold</b>", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "agent_message" with:
      """
      {"data": {"html": "&lt;b&gt;bold&lt;/b&gt;"}}
      """
    And the client receives "prompt_complete"

  @id:mitto.prompt.queued @scripted
  @req:mitto.prompt.queued @req:mitto.keepalive-ack.queue-length @req:mitto.prompt-received.shape @req:mitto.cancel.shape
  Scenario: A prompt sent while the agent is prompting is queued and runs next
    mitto.md §Key Field Descriptions / Keepalive Fields: queue_length is the
    number of messages waiting in the queue. Interpretation: a prompt that
    arrives while the agent is prompting is acknowledged, counted in
    queue_length and run after the current turn.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/slow 20", "prompt_id": "p1-{unique}"}}
      """
    And the client receives "agent_message"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "queued one", "prompt_id": "p2-{unique}"}}
      """
    Then the client receives "prompt_received" with:
      """
      {"data": {"prompt_id": "p2-{unique}"}}
      """
    When the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 7}}
      """
    Then the client receives "keepalive_ack"
    And its "data.is_prompting" is true
    And its "data.queue_length" is 1
    When the client sends:
      """
      {"type": "cancel", "data": {}}
      """
    Then the client receives, in order:
      | prompt_complete |                                        |
      | user_prompt     | {"data": {"prompt_id": "p2-{unique}"}} |
      | prompt_complete |                                        |

  @id:mitto.prompt.resend-not-run-twice
  @req:mitto.prompt.resend @req:mitto.prompt-received.shape
  Scenario: A prompt resent with the same prompt_id is acknowledged but not run twice
    mitto.md §Backend → Frontend Messages: prompt_received is the ACK that the
    prompt was received and persisted; §Delivery Verification Fields let a
    client resend a prompt after a zombie connection. Interpretation: a
    prompt_id the session already has is acknowledged again and not run twice.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "only once", "prompt_id": "p-{unique}"}}
      """
    And the client receives "prompt_complete"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "only once", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "prompt_received" with:
      """
      {"data": {"prompt_id": "p-{unique}"}}
      """
    And the client receives no "user_prompt" within 500ms
    And the client has received 1 "user_prompt" where "data.prompt_id" is "p-{unique}"
