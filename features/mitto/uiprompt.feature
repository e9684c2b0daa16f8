@mitto
Feature: Mitto UI prompts
  mitto.md §Unified UI Prompt System: the server asks with ui_prompt
  {request_id, prompt_type, question, options[], blocking, …}, the client
  answers with ui_prompt_answer {request_id, option_id, label}, and
  ui_prompt_dismiss {request_id} closes a prompt (timeout/cancel).

  Background:
    Given a client connects
    And the client receives "connected"
    And I remember its "data.session_id" as "sid"

  @id:mitto.uiprompt.permission-answered @scripted
  @req:mitto.ui-prompt.type-permission @req:mitto.ui-prompt.shape @req:mitto.option.kind @req:mitto.ui-prompt-answer.shape
  Scenario: A permission prompt blocks the turn until it is answered
    mitto.md §Unified UI Prompt System / Prompt Types: a permission prompt
    (ACP agent) is blocking; §Option Properties: its options' kinds are
    allow_once and reject_once, and ui_prompt_answer returns the chosen
    option's id (and label). ci/testmode.md /tool: an approval request for
    the call; once answered, the turn goes on and ends (prompt_complete:
    the agent finished responding).

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/tool deploy", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "ui_prompt" with:
      """
      {"data": {"prompt_type": "permission", "blocking": true}}
      """
    And its "data.request_id" exists
    And its "data.question" is a string
    And its "data.options" contains {"kind": "allow_once"}
    And its "data.options" contains {"kind": "reject_once"}
    And I remember its "data.request_id" as "rid"
    And I remember its "data.options.0.id" as "opt"
    And I remember its "data.options.0.label" as "label"
    When the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{rid}", "option_id": "{opt}", "label": "{label}"}}
      """
    Then the client receives "prompt_complete"

  @id:mitto.uiprompt.permission-allow @scripted
  @req:mitto.ui-prompt.permission-allow @req:mitto.ui-prompt.permission-options @req:mitto.ui-prompt.tool-call-id @req:mitto.tool-update.statuses
  Scenario: A permission prompt answered with allow lets the tool run
    mitto.md §Unified UI Prompt System: a permission ui_prompt offers
    allow_once and reject_once; ui_prompt_answer returns the chosen option's
    id. The spec only shows the option ids allow_once and reject_once and the
    tool_call_id that names the tool call (its example), and lists no tool
    statuses (in_progress and completed are ACP's: Interpretation).

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/tool deploy", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "tool_call"
    And I remember its "data.id" as "tool"
    And the client receives "ui_prompt" with:
      """
      {"data": {"prompt_type": "permission", "blocking": true, "tool_call_id": "{tool}"}}
      """
    And its "data.options" contains {"id": "allow_once", "kind": "allow_once"}
    And its "data.options" contains {"id": "reject_once", "kind": "reject_once"}
    And I remember its "data.request_id" as "rid"
    When the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{rid}", "option_id": "allow_once", "label": "Allow"}}
      """
    Then the client receives, in order:
      | tool_update     | {"data": {"id": "{tool}", "status": "in_progress"}} |
      | tool_update     | {"data": {"id": "{tool}", "status": "completed"}}   |
      | agent_message   |                                                     |
      | prompt_complete |                                                     |

  @id:mitto.uiprompt.permission-deny @scripted
  @req:mitto.ui-prompt.permission-deny @req:mitto.ui-prompt.permission-options @req:mitto.tool-update.statuses
  Scenario: A permission prompt answered with deny fails the tool call
    mitto.md §Unified UI Prompt System / Option Properties: reject_once denies
    the permission request. The spec only shows the option id reject_once
    (its example). Interpretation: the denied tool call ends with tool_update
    status "failed" and the agent goes on. Control: first a call answered
    allow_once completes, so a server that fails every tool call, or
    declines every answer, makes the scenario inconclusive rather than pass.

    Given the client sends:
      """
      {"type": "prompt", "data": {"message": "/tool deploy", "prompt_id": "p0-{unique}"}}
      """
    And the client receives "ui_prompt"
    And I remember its "data.request_id" as "allowed"
    And the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{allowed}", "option_id": "allow_once", "label": "Allow"}}
      """
    And the client receives "tool_update" with:
      """
      {"data": {"status": "completed"}}
      """
    And the client receives "prompt_complete"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/tool rm", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "tool_call"
    And I remember its "data.id" as "tool"
    And the client receives "ui_prompt"
    And I remember its "data.request_id" as "rid"
    When the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{rid}", "option_id": "reject_once", "label": "Deny"}}
      """
    Then the client receives, in order:
      | tool_update     | {"data": {"id": "{tool}", "status": "failed"}} |
      | agent_message   |                                                |
      | prompt_complete |                                                |
    And the client has received 1 "tool_update" where "data.status" is "completed"

  @id:mitto.uiprompt.yes-no @scripted
  @req:mitto.ui-prompt.type-yes-no @req:mitto.ui-prompt-answer.shape
  Scenario: A yes_no question is answered and the agent continues
    mitto.md §Unified UI Prompt System / Prompt Types: yes_no is a blocking
    two-button question; the answer returns the chosen option's id. (How many
    options a prompt type has is judged by the check engine: the table lists
    it without closing it, a warning.) ci/testmode.md /ask: the question,
    then the reply; this feature reads /ask (confirm) as yes_no, /ask select
    as select and /ask multiselect as options_buttons.

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/ask Shall we continue?", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "ui_prompt" with:
      """
      {"data": {"prompt_type": "yes_no", "blocking": true}}
      """
    And I remember its "data.request_id" as "rid"
    And I remember its "data.options.0.id" as "opt"
    And I remember its "data.options.0.label" as "label"
    When the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{rid}", "option_id": "{opt}", "label": "{label}"}}
      """
    Then the client receives "agent_message"
    And the client receives "prompt_complete"

  @id:mitto.uiprompt.select @scripted
  @req:mitto.ui-prompt.type-select @req:mitto.option.id @req:mitto.option.label @req:mitto.ui-prompt-answer.shape
  Scenario: A select question is a blocking dropdown that takes one of its options
    mitto.md §Unified UI Prompt System / Prompt Types: select is a blocking
    dropdown selection; §Option Properties: an option's id and label are
    strings, and the answer returns the chosen id. (The "max 10 options" is
    judged by the check engine: listed, not closed, a warning.)
    ci/testmode.md /ask: the reply is "You answered: ANSWER", so the agent's
    reply names the option chosen, here the second (a server that lost the
    answer, or took the first option, would not).

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/ask select Pick a colour", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "ui_prompt" with:
      """
      {"data": {"prompt_type": "select", "blocking": true}}
      """
    And its "data.options.0.id" is a string
    And its "data.options.0.label" is a string
    And I remember its "data.request_id" as "rid"
    And I remember its "data.options.1.id" as "opt"
    And I remember its "data.options.1.label" as "label"
    When the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{rid}", "option_id": "{opt}", "label": "{label}"}}
      """
    Then the client receives "prompt_complete"
    And the client has received at least 1 "agent_message" where "data.html" contains "{label}"

  @id:mitto.uiprompt.options-buttons @scripted
  @req:mitto.ui-prompt.type-options-buttons @req:mitto.ui-prompt-answer.shape
  Scenario: An options_buttons question blocks the turn until a button is chosen
    mitto.md §Unified UI Prompt System / Prompt Types: options_buttons is a
    blocking multiple choice of buttons; the answer returns the chosen
    option's id. (The "max 4" is judged by the check engine: listed, not
    closed, a warning.)

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/ask multiselect Which ones?", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "ui_prompt" with:
      """
      {"data": {"prompt_type": "options_buttons", "blocking": true}}
      """
    And I remember its "data.request_id" as "rid"
    And I remember its "data.options.0.id" as "opt"
    And I remember its "data.options.0.label" as "label"
    When the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{rid}", "option_id": "{opt}", "label": "{label}"}}
      """
    Then the client receives "prompt_complete"

  @id:mitto.uiprompt.action-buttons-non-blocking @scripted @reference-fixture
  @req:mitto.ui-prompt.type-action-buttons
  Scenario: Follow-up action_buttons do not block the turn
    mitto.md §Unified UI Prompt System / Prompt Types: action_buttons are
    suggested follow-up prompts and are not blocking, so the agent finishes
    its turn without an answer. The hint "/ask action_buttons" is the
    reference server's own, not one ci/testmode.md publishes: the scenario is
    tagged as a reference fixture.

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/ask action_buttons What next?", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "ui_prompt" with:
      """
      {"data": {"prompt_type": "action_buttons", "blocking": false}}
      """
    And the client receives "prompt_complete"

  @id:mitto.uiprompt.dismiss-on-cancel @scripted
  @req:mitto.ui-prompt-dismiss.shape @req:mitto.cancel.shape @req:mitto.ui-prompt-dismiss.names-prompt
  Scenario: Cancelling the turn dismisses its open prompt
    mitto.md §Backend → Frontend Messages: ui_prompt_dismiss {request_id}
    dismisses the active UI prompt on timeout or cancel, naming the request_id
    of that prompt. (Whether it comes before or after the turn's
    prompt_complete is not stated, so the end of the turn is not asserted.)

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/ask Are you sure?", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "ui_prompt"
    And I remember its "data.request_id" as "rid"
    When the client sends:
      """
      {"type": "cancel", "data": {}}
      """
    Then the client receives "ui_prompt_dismiss"
    And its "data.request_id" is "{rid}"

  @id:mitto.uiprompt.dismiss-other-client @scripted
  @req:mitto.ui-prompt-dismiss.answered-elsewhere @req:mitto.session.events-to-all-clients @req:mitto.connect.join
  Scenario: A prompt answered in one client is dismissed in the other
    mitto.md §Backend → Frontend Messages: ui_prompt_dismiss dismisses the
    active UI prompt. Interpretation: once one client of the session answered
    a prompt, it is no longer active, so the server dismisses it on the other
    clients (a second tab closes it).

    Given client "B" connects to "/ws?session_id={sid}"
    And client "B" receives "connected"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/ask Deploy now?", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "ui_prompt"
    And I remember its "data.request_id" as "rid"
    And client "B" receives "ui_prompt" with:
      """
      {"data": {"request_id": "{rid}"}}
      """
    And I remember its "data.options.0.id" as "opt"
    And I remember its "data.options.0.label" as "label"
    When client "B" sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{rid}", "option_id": "{opt}", "label": "{label}"}}
      """
    Then the client receives "ui_prompt_dismiss"
    And its "data.request_id" is "{rid}"
    And client "B" receives "prompt_complete"

  @id:mitto.uiprompt.answer-unknown-request
  @req:mitto.ui-prompt-answer.unknown-request @req:mitto.error.shape
  Scenario: An answer naming no open prompt is refused with error
    mitto.md §Unified UI Prompt System: ui_prompt_answer names the request_id
    of a ui_prompt. Interpretation: an answer for a request_id the server
    never asked is answered with error {message}, and the connection stays
    usable.

    When the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "never-asked-{unique}", "option_id": "yes", "label": "Yes"}}
      """
    Then the client receives "error"
    And its "data.message" is a string
    And the refusal names one of "request_id", "request id", "unknown request", "no open", "not open", "no pending", "not pending", "no such prompt", "unknown prompt"
    When the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 1}}
      """
    Then the client receives "keepalive_ack"

  @id:mitto.uiprompt.answer-twice @scripted
  @req:mitto.ui-prompt-answer.once @req:mitto.error.shape
  Scenario: A second answer to an answered prompt is refused
    mitto.md §Backend → Frontend Messages: ui_prompt_dismiss closes the active
    prompt. Interpretation: an answered prompt is no longer open, so a second
    answer (another tab's late click) is refused with error and changes
    nothing.

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/ask Really?", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "ui_prompt"
    And I remember its "data.request_id" as "rid"
    And I remember its "data.options.0.id" as "opt"
    And I remember its "data.options.0.label" as "label"
    And I remember its "data.options.1.id" as "opt2"
    And I remember its "data.options.1.label" as "label2"
    When the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{rid}", "option_id": "{opt}", "label": "{label}"}}
      """
    And the client receives "prompt_complete"
    And the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{rid}", "option_id": "{opt2}", "label": "{label2}"}}
      """
    Then the client receives "error"
    And the refusal names one of "answered", "request_id", "request id", "no open", "not open", "no pending", "not pending", "no longer"
    And the client receives no "agent_message" within 300ms

  @id:mitto.uiprompt.answer-invalid-option @scripted
  @req:mitto.ui-prompt-answer.invalid-option @req:mitto.option.id
  Scenario: An answer with an option_id the prompt did not offer is refused
    mitto.md §Unified UI Prompt System / Option Properties: id is the
    machine-readable identifier returned in the response. Interpretation: an
    option_id the prompt did not offer is refused with error and the prompt
    stays open for a valid answer.

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/ask Go?", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "ui_prompt"
    And I remember its "data.request_id" as "rid"
    And I remember its "data.options.0.id" as "opt"
    And I remember its "data.options.0.label" as "label"
    When the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{rid}", "option_id": "maybe-{unique}", "label": "Maybe"}}
      """
    Then the client receives "error"
    And the refusal names one of "option"
    And the client receives no "ui_prompt_dismiss" within 200ms
    When the client sends:
      """
      {"type": "ui_prompt_answer", "data": {"request_id": "{rid}", "option_id": "{opt}", "label": "{label}"}}
      """
    Then the client receives "prompt_complete"

  @id:mitto.uiprompt.legacy-permission-answer @scripted
  @req:mitto.permission-answer.legacy @req:mitto.permission-answer.shape @req:mitto.ui-prompt.tool-call-id @req:mitto.tool-update.statuses
  Scenario: The legacy permission_answer still answers a permission prompt
    mitto.md §Frontend → Backend Messages: permission_answer {request_id,
    approved} is the legacy answer, superseded by ui_prompt_answer but still
    listed. Interpretation: a server still takes it for a ui_prompt of
    prompt_type permission (the spec calls it legacy, and only shows
    tool_call_id in its example); the approved tool completes (ACP's status
    name).

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "/tool build", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "ui_prompt" with:
      """
      {"data": {"prompt_type": "permission"}}
      """
    And I remember its "data.request_id" as "rid"
    And I remember its "data.tool_call_id" as "tool"
    When the client sends:
      """
      {"type": "permission_answer", "data": {"request_id": "{rid}", "approved": true}}
      """
    Then the client receives "tool_update" with:
      """
      {"data": {"id": "{tool}", "status": "completed"}}
      """
    And the client receives "prompt_complete"
