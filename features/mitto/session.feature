@mitto
Feature: Mitto cancel and rename_session
  mitto.md §Frontend → Backend Messages: cancel {} cancels the current agent
  operation; rename_session {name} renames the current session.

  Background:
    Given a client connects
    And the client receives "connected"
    And I remember its "data.session_id" as "sid"

  @id:mitto.cancel.mid-turn @scripted
  @req:mitto.cancel.shape @req:mitto.prompt-complete.shape @req:mitto.keepalive-ack.is-prompting
  Scenario: cancel stops a running turn, which ends with prompt_complete
    mitto.md §Frontend → Backend Messages: cancel cancels the current agent
    operation; §Backend → Frontend Messages: prompt_complete says the agent
    finished responding, after which it sends no more of the answer, and
    keepalive_ack.is_prompting says whether it is responding. The turn
    (ci/testmode.md /slow 300: 30 s of chunks) would outlast the receive
    timeout if the cancel did nothing; how fast a cancel lands is not stated,
    so no shorter time is asserted.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/slow 300", "prompt_id": "p-{unique}"}}
      """
    And the client receives "agent_message"
    When the client sends:
      """
      {"type": "cancel", "data": {}}
      """
    Then the client receives "prompt_complete"
    And the client receives no "agent_message" within 300ms
    When the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 5}}
      """
    Then the client receives "keepalive_ack"
    And its "data.is_prompting" is false

  @id:mitto.cancel.other-client-sees-end @scripted
  @req:mitto.session.events-to-all-clients @req:mitto.cancel.shape @req:mitto.connect.join
  Scenario: A turn cancelled by one client ends for every client
    mitto.md §Frontend → Backend Messages: cancel cancels the current agent
    operation of the session. Interpretation: prompt_complete (the agent
    finished responding) reaches every client of the session, not only the
    one that cancelled (the spec says "to all clients" of user_prompt
    alone). The turn (/slow 300)
    would outlast the receive timeout if the cancel did nothing. (The second
    client joins with /ws?session_id=ID, this feature's reading: see
    connect.feature.)

    Given client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    And its "data.session_id" is "{sid}"
    And the client sends:
      """
      {"type": "prompt", "data": {"message": "/slow 300", "prompt_id": "p-{unique}"}}
      """
    And client "B" receives "agent_message"
    When client "B" sends:
      """
      {"type": "cancel", "data": {}}
      """
    Then client "B" receives "prompt_complete"
    And the client receives "prompt_complete"
    And the client receives no "agent_message" within 300ms

  @id:mitto.cancel.tool-fails @scripted
  @req:mitto.cancel.tool-fails @req:mitto.ui-prompt-dismiss.shape @req:mitto.tool-update.statuses
  Scenario: cancel while a tool waits for permission dismisses it and fails the tool call
    mitto.md §Backend → Frontend Messages: ui_prompt_dismiss dismisses the
    active prompt on cancel. Interpretation: the tool call that waited for the
    permission ends with tool_update status "failed".

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/tool deploy", "prompt_id": "p-{unique}"}}
      """
    And the client receives "tool_call"
    And I remember its "data.id" as "tool"
    And the client receives "ui_prompt"
    And I remember its "data.request_id" as "rid"
    When the client sends:
      """
      {"type": "cancel", "data": {}}
      """
    Then the client receives "ui_prompt_dismiss"
    And its "data.request_id" is "{rid}"
    And the client receives "tool_update" with:
      """
      {"data": {"id": "{tool}", "status": "failed"}}
      """
    And the client receives "prompt_complete"

  @id:mitto.cancel.then-prompt @scripted
  @req:mitto.cancel.shape @req:mitto.seq.monotonic
  Scenario: After a cancel the session takes the next prompt
    mitto.md §Frontend → Backend Messages: cancel cancels the current
    operation only; the session goes on with the next prompt, whose seq
    continues above max_seq (§Key Field Descriptions).

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/slow 300", "prompt_id": "p1-{unique}"}}
      """
    And the client receives "agent_message"
    And the client sends:
      """
      {"type": "cancel", "data": {}}
      """
    And the client receives "prompt_complete"
    And I remember its "data.max_seq" as "max"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "after cancel", "prompt_id": "p2-{unique}"}}
      """
    Then the client receives "user_prompt" with:
      """
      {"data": {"prompt_id": "p2-{unique}"}}
      """
    And its "data.seq" is greater than {max}
    And the client receives "agent_message"
    And the client receives "prompt_complete"

  @id:mitto.cancel.idle
  @req:mitto.cancel.idle @req:mitto.cancel.shape
  Scenario: cancel with nothing running is refused and changes nothing
    mitto.md §Frontend → Backend Messages: cancel cancels the current agent
    operation. Interpretation: with no operation running the server answers
    error and the session is unchanged.

    When the client sends:
      """
      {"type": "cancel", "data": {}}
      """
    Then the client receives "error"
    And the client receives no "prompt_complete" within 300ms
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "still fine", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "prompt_complete"

  @id:mitto.rename.accepted
  @req:mitto.rename.accepted @req:mitto.rename-session.shape
  Scenario: rename_session is accepted and the session goes on
    mitto.md §Frontend → Backend Messages: rename_session {name} renames the
    current session. The spec defines no reply, so none is expected.
    Interpretation: a valid rename is not refused with error and the session
    stays usable (the spec names no reason to refuse one, nor says it may
    not).

    When the client sends:
      """
      {"type": "rename_session", "data": {"name": "Release planning {unique}"}}
      """
    Then the client receives no "error" within 300ms
    And the client stays connected
    And the effect cannot be observed: mitto.md defines no message that carries a session's name, so the new name is never seen
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "named now", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "prompt_complete"

  @id:mitto.rename.other-client-unaffected
  @req:mitto.rename.accepted @req:mitto.keepalive-ack.status-values @req:mitto.connect.join
  Scenario: A rename from one client does not disturb another client of the session
    mitto.md §Frontend → Backend Messages: rename_session renames the current
    session, which every client shares; §Keepalive Fields: status is a
    session status (active, completed, error). Interpretation: no client gets
    an error for a valid rename, and the session's status stays one of the
    listed values (the spec lists them without closing the type).

    Given client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    When client "B" sends:
      """
      {"type": "rename_session", "data": {"name": "Shared {unique}"}}
      """
    Then client "B" receives no "error" within 300ms
    And the client has received no "error"
    When the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 6}}
      """
    Then the client receives "keepalive_ack"
    And its "data.status" is one of ["active", "completed", "error"]

  @id:mitto.rename.empty-name
  @req:mitto.rename.accepted @req:mitto.error.shape
  Scenario: An empty session name is refused
    mitto.md §Frontend → Backend Messages: rename_session {name}.
    Interpretation: a name that is empty after trimming names nothing and is
    refused with error.

    When the client sends:
      """
      {"type": "rename_session", "data": {"name": "   "}}
      """
    Then the client receives "error"
    And its "data.message" is a string
