@minicodex
Feature: MiniCodex error codes
  minicodex-v1.md §Semantics: Errors: invalid commands elicit an Error
  {code, message, details?} and do not transition state. §Error codes lists
  INVALID_COMMAND, MISSING_FIELD, BAD_ARGUMENT, STALE_RUN_ID, NOT_RUNNING,
  BUSY, UNKNOWN_CALL_ID and APPROVAL_CONFLICT as a non-exhaustive list of
  names, without saying which case gets which code: the scenarios citing
  minicodex.errors.invalid-command first assert that a command the spec's
  types make invalid is answered with an Error carrying its req_id and
  changes nothing; those citing a minicodex.error-codes.* interpretation
  first assert the code whose name fits (an observation, never a failure). (REPLAY_WINDOW_EXCEEDED is in
  resume.feature, the handshake's errors in connect.feature.) INVALID_COMMAND,
  MISSING_FIELD and BAD_ARGUMENT each cover many conditions, so a refusal
  with one of them must also name the member or condition it is about (the
  refusal names one of …); a refusal for another reason (BUSY, an unknown
  session) makes the scenario inconclusive. The req_ids are chosen so that
  an echoed req_id never names the member by chance.

  Background:
    Given a client connects
    And the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    And the client receives "welcome"

  @id:minicodex.errors.invalid-command-unknown-type @req:minicodex.errors.invalid-command @req:minicodex.client.union @req:minicodex.envelope.req-id @req:minicodex.error.shape
  Scenario: A command of an unknown type is refused with an error carrying its req_id
    minicodex-v1.md §Pydantic (Python) — canonical schema: ClientMessage is a
    closed union of command types, so a command of another type is invalid;
    §Semantics: Errors: an invalid command elicits an Error {code, message};
    §Envelope: req_id correlates a command with its CommandAccepted/Error, so
    the error carries the command's req_id. The connection stays usable.

    When the client sends:
      """
      {"type": "dance", "req_id": "r-dance-{unique}"}
      """
    Then the client receives "error" with:
      """
      {"req_id": "r-dance-{unique}"}
      """
    And the refusal names one of "type", "unknown command"
    And its "code" is a string
    And its "message" is a string
    When the client sends:
      """
      {"type": "ping", "req_id": "r-alive"}
      """
    Then the client receives "accepted" with:
      """
      {"req_id": "r-alive"}
      """

  @id:minicodex.errors.invalid-command-no-type @req:minicodex.error-codes.invalid-command @req:minicodex.envelope.type
  Scenario: A message without a type is INVALID_COMMAND
    minicodex-v1.md §Envelope: every message has type (the discriminator).
    Interpretation: a message without one is not a command at all:
    INVALID_COMMAND rather than MISSING_FIELD.

    When the client sends:
      """
      {"text": "no type", "req_id": "r-e1"}
      """
    Then the client receives "error" with:
      """
      {"code": "INVALID_COMMAND"}
      """
    And the refusal names one of "type"

  @id:minicodex.errors.invalid-command-not-json @req:minicodex.error-codes.invalid-command @req:minicodex.envelope.json-objects
  Scenario: A text frame that is not JSON is INVALID_COMMAND
    minicodex-v1.md §Envelope: all messages are JSON objects. Interpretation:
    a frame that does not parse is answered INVALID_COMMAND and the
    connection stays open.

    When the client sends the text:
      """
      {"type": "ping",
      """
    Then the client receives "error" with:
      """
      {"code": "INVALID_COMMAND"}
      """
    And the refusal names one of "json", "parse", "decode", "syntax", "malformed", "format", "invalid character", "unexpected end", "expecting"
    And the client stays connected for 200ms

  @id:minicodex.errors.invalid-command-not-object @req:minicodex.error-codes.invalid-command @req:minicodex.envelope.json-objects
  Scenario: A JSON value that is not an object is INVALID_COMMAND
    minicodex-v1.md §Envelope: all messages are JSON objects. Interpretation:
    an array is answered INVALID_COMMAND.

    When the client sends the text:
      """
      [{"type": "ping"}]
      """
    Then the client receives "error" with:
      """
      {"code": "INVALID_COMMAND"}
      """
    And the refusal names one of "object", "array", "list", "dict", "mapping"

  @id:minicodex.errors.invalid-command-binary @req:minicodex.error-codes.invalid-command @req:minicodex.envelope.json-objects
  Scenario: A binary frame is INVALID_COMMAND
    minicodex-v1.md §Envelope: all messages are JSON objects. Interpretation:
    a binary frame carries no command and is answered INVALID_COMMAND.

    When the client sends a binary frame of 16 bytes
    Then the client receives "error" with:
      """
      {"code": "INVALID_COMMAND"}
      """
    And the refusal names one of "binary", "text frame", "json", "decode", "utf"
    And the client stays connected for 200ms

  @id:minicodex.errors.invalid-command-oversize @req:minicodex.error-codes.invalid-command
  Scenario: A frame larger than the server accepts is refused, not fatal
    minicodex-v1.md §Semantics: Errors. Interpretation: a text frame of 2 MB
    (over the reference's 1 MiB limit; in any case not a JSON object) is
    answered INVALID_COMMAND and the connection stays usable.

    When the client sends a text frame of 2000000 bytes
    Then the client receives "error" with:
      """
      {"code": "INVALID_COMMAND"}
      """
    And the refusal names one of "size", "large", "bytes", "too long", "too big", "maximum", "json", "object"
    When the client sends:
      """
      {"type": "ping", "req_id": "r-after-big"}
      """
    Then the client receives "accepted" with:
      """
      {"req_id": "r-after-big"}
      """

  @id:minicodex.errors.send-without-text-refused @req:minicodex.errors.invalid-command @req:minicodex.send.shape @req:minicodex.envelope.req-id
  Scenario: A send without text is refused and starts no run
    minicodex-v1.md §Client → Server messages: SendUserText {type: "send",
    text: str} requires text (Pydantic: no default); §Semantics: Errors: an
    invalid command elicits an Error and does not transition state, so no
    run starts; the error carries the command's req_id (§Envelope).

    When the client sends:
      """
      {"type": "send", "client_msg_id": "m-{unique}", "req_id": "r-send-1"}
      """
    Then the client receives "error" with:
      """
      {"req_id": "r-send-1"}
      """
    And the refusal names one of "text"
    And the client receives no "run_status"

  @id:minicodex.errors.missing-field-send-text @req:minicodex.error-codes.missing-field @req:minicodex.send.shape
  Scenario: A send without text is MISSING_FIELD
    minicodex-v1.md §Error codes: MISSING_FIELD; §Client → Server messages:
    SendUserText {type: "send", text: str} requires text. Interpretation: the
    code of a missing required member is MISSING_FIELD, as its name says.

    When the client sends:
      """
      {"type": "send", "client_msg_id": "m-{unique}", "req_id": "r-send-1"}
      """
    Then the client receives "error" with:
      """
      {"code": "MISSING_FIELD", "req_id": "r-send-1"}
      """
    And the refusal names one of "text"
    And the client receives no "run_status"

  @id:minicodex.errors.approve-without-call-id-refused @req:minicodex.errors.invalid-command @req:minicodex.approve.shape @req:minicodex.envelope.req-id
  Scenario: An approve without call_id is refused with an error carrying its req_id
    minicodex-v1.md §Client → Server messages: Approve {call_id: str}
    requires call_id; §Semantics: Errors: an invalid command elicits an
    Error; §Envelope: the error carries the command's req_id.

    When the client sends:
      """
      {"type": "approve", "req_id": "r-nocall"}
      """
    Then the client receives "error" with:
      """
      {"req_id": "r-nocall"}
      """
    And the refusal names one of "call_id", "call id"
    And the client has received no "approval_decision"

  @id:minicodex.errors.missing-field-call-id @req:minicodex.error-codes.missing-field @req:minicodex.approve.shape
  Scenario: An approve without call_id is MISSING_FIELD
    minicodex-v1.md §Error codes: MISSING_FIELD; §Client → Server messages:
    Approve {call_id: str} requires call_id. Interpretation: the code of a
    missing required member is MISSING_FIELD, as its name says.

    When the client sends:
      """
      {"type": "approve", "req_id": "r-nocall"}
      """
    Then the client receives "error" with:
      """
      {"code": "MISSING_FIELD", "req_id": "r-nocall"}
      """
    And the refusal names one of "call_id", "call id"

  @id:minicodex.errors.send-wrong-type-refused @req:minicodex.errors.invalid-command @req:minicodex.send.shape @req:minicodex.envelope.req-id
  Scenario: A send whose text is not a string is refused and starts no run
    minicodex-v1.md §Client → Server messages: SendUserText text: str, so
    text 42 makes the command invalid; §Semantics: Errors: an invalid command
    elicits an Error and does not transition state, so no run starts; the
    error carries the command's req_id (§Envelope).

    When the client sends:
      """
      {"type": "send", "text": 42, "req_id": "r-42"}
      """
    Then the client receives "error" with:
      """
      {"req_id": "r-42"}
      """
    And the refusal names one of "text", "string"
    And the client receives no "run_status"

  @id:minicodex.errors.bad-argument-wrong-type @req:minicodex.error-codes.bad-argument @req:minicodex.send.shape
  Scenario: A member of the wrong type is BAD_ARGUMENT
    minicodex-v1.md §Error codes: BAD_ARGUMENT; §Client → Server messages:
    SendUserText text is a string. Interpretation: a member of the wrong
    type is a bad argument (BAD_ARGUMENT, as its name says), and the refused
    send starts no run.

    When the client sends:
      """
      {"type": "send", "text": 42, "req_id": "r-42"}
      """
    Then the client receives "error" with:
      """
      {"code": "BAD_ARGUMENT", "req_id": "r-42"}
      """
    And the refusal names one of "text", "string"
    And the client receives no "run_status"

  @id:minicodex.errors.bad-argument-unknown-member @req:minicodex.error-codes.bad-argument @req:minicodex.envelope.model
  Scenario: A member the command does not define is BAD_ARGUMENT
    minicodex-v1.md §Pydantic (Python) — canonical schema: the models forbid
    extra members (extra="forbid"). Interpretation: such a command is
    refused with BAD_ARGUMENT.

    When the client sends:
      """
      {"type": "ping", "colour": "red", "req_id": "r-e2"}
      """
    Then the client receives "error" with:
      """
      {"code": "BAD_ARGUMENT"}
      """
    And the refusal names one of "colour", "extra", "unexpected", "not permitted", "unknown member", "unknown field"
    And the client has received no "accepted"

  @id:minicodex.errors.bad-argument-blank-text @req:minicodex.send.blank-text
  Scenario: A send with blank text is BAD_ARGUMENT
    minicodex-v1.md §Client → Server messages: SendUserText text.
    Interpretation: a blank text is no user input: BAD_ARGUMENT, no run.

    When the client sends:
      """
      {"type": "send", "text": "   ", "req_id": "r-send-2"}
      """
    Then the client receives "error" with:
      """
      {"code": "BAD_ARGUMENT"}
      """
    And the refusal names one of "blank", "empty", "whitespace", "text"
    And the client receives no "run_status"

  @id:minicodex.errors.bad-argument-other-session @req:minicodex.envelope.other-session
  Scenario: A command naming another session is BAD_ARGUMENT
    minicodex-v1.md §Envelope: session_id. Interpretation: a command whose
    session_id is not the connection's session is refused with BAD_ARGUMENT
    (to change sessions, reconnect).

    When the client sends:
      """
      {"type": "get_snapshot", "session_id": "sess-other-{unique}", "req_id": "r-other"}
      """
    Then the client receives "error" with:
      """
      {"code": "BAD_ARGUMENT"}
      """
    And the refusal names one of "session_id", "session id", "other session", "another session", "different session", "wrong session", "session mismatch", "not this connection"
    And the client receives no "snapshot"

  @id:minicodex.errors.busy @req:minicodex.error-codes.busy @scripted
  Scenario: A send while a run is active is BUSY and the run goes on
    minicodex-v1.md §Error codes: BUSY; §Semantics: Errors do not transition
    state. Interpretation: a second send while a run is active is refused
    with BUSY (the spec lists the code but does not say a server may not
    queue the send), the active run is not disturbed and the refused send
    starts no second run.

    When the client sends:
      """
      {"type": "send", "text": "/slow 10", "client_msg_id": "m1-{unique}"}
      """
    And the client receives "run_status"
    And the client sends:
      """
      {"type": "send", "text": "second", "client_msg_id": "m2-{unique}", "req_id": "r-busy"}
      """
    Then the client receives "error" with:
      """
      {"code": "BUSY", "req_id": "r-busy"}
      """
    And the client receives "run_status" with:
      """
      {"run_state": {"status": "finished"}}
      """
    And the client has received at least 1 "turn_done" within 5s
    When the client sends:
      """
      {"type": "ping", "req_id": "r-barrier"}
      """
    Then the client receives "accepted" with:
      """
      {"req_id": "r-barrier"}
      """
    And the client receives no "run_status" within 300ms
    And the client has received 1 "turn_done"
    And the client has received 1 "run_status" where "run_state.status" is "finished"

  @id:minicodex.errors.not-running @req:minicodex.error-codes.not-running
  Scenario: An abort with no active run is NOT_RUNNING
    minicodex-v1.md §Error codes: NOT_RUNNING. Interpretation: an abort in a
    session that runs nothing is refused with NOT_RUNNING, as the code's
    name says (the spec does not say an idle abort is an error).

    When the client sends:
      """
      {"type": "abort", "req_id": "r-idle"}
      """
    Then the client receives "error" with:
      """
      {"code": "NOT_RUNNING", "req_id": "r-idle"}
      """
    And the client receives no "run_status"

  @id:minicodex.errors.stale-run-id @req:minicodex.error-codes.stale-run-id @req:minicodex.abort.shape @scripted
  Scenario: An abort naming another run is STALE_RUN_ID and aborts nothing
    minicodex-v1.md §Error codes: STALE_RUN_ID; §Client → Server messages:
    Abort {run_id?}. Interpretation: an abort for a run that is not the
    active one is refused with STALE_RUN_ID, as the code's name says, and
    the active run goes on to finish on its own. The run (/slow 30: 3 s of
    chunks) is given 15 s to finish, so that a loaded machine's late timers
    are not taken for a run that never ends.

    When the client sends:
      """
      {"type": "send", "text": "/slow 30"}
      """
    And the client receives "run_status"
    And the client sends:
      """
      {"type": "abort", "run_id": "00000000-0000-4000-8000-000000000000", "req_id": "r-stale"}
      """
    Then the client receives "error" with:
      """
      {"code": "STALE_RUN_ID", "req_id": "r-stale"}
      """
    And the client receives "run_status" within 15s with:
      """
      {"run_state": {"status": "finished"}}
      """
    And the client has received no "run_status" where "run_state.status" is "aborting"
    And the client has received 30 "assistant_text"

  @id:minicodex.errors.unknown-call-id @req:minicodex.error-codes.unknown-call-id
  Scenario: Approving a call nobody announced is UNKNOWN_CALL_ID
    minicodex-v1.md §Error codes: UNKNOWN_CALL_ID. The spec only shows
    approve/deny naming a call_id that an approval_pending announced (its
    approval path). Interpretation: an approve for a call_id nobody announced
    is refused with UNKNOWN_CALL_ID and decides nothing.

    When the client sends:
      """
      {"type": "approve", "call_id": "call-unknown-{unique}", "req_id": "r-unknown"}
      """
    Then the client receives "error" with:
      """
      {"code": "UNKNOWN_CALL_ID", "req_id": "r-unknown"}
      """
    And the client receives no "approval_decision"

  @id:minicodex.errors.approval-conflict @req:minicodex.error-codes.approval-conflict @req:minicodex.multi-client.approvals-serialized @scripted
  Scenario: Deciding a call twice is APPROVAL_CONFLICT
    minicodex-v1.md §Error codes: APPROVAL_CONFLICT; §Semantics: approvals
    are serialized server-side. Interpretation: a call already decided
    cannot be decided again: the second decision is refused with
    APPROVAL_CONFLICT, as the code's name says, and the first one stands.

    When the client sends:
      """
      {"type": "send", "text": "/tool shell ls"}
      """
    And the client receives "approval_pending"
    And I remember its "call_id" as "call"
    And the client sends:
      """
      {"type": "approve", "call_id": "{call}"}
      """
    And the client receives "approval_decision" with:
      """
      {"call_id": "{call}", "decision": "approve"}
      """
    And the client sends:
      """
      {"type": "deny", "call_id": "{call}", "req_id": "r-twice"}
      """
    Then the client receives "error" with:
      """
      {"code": "APPROVAL_CONFLICT", "req_id": "r-twice"}
      """
    And the client has received 1 "approval_decision"
