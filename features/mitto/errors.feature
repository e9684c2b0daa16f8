@mitto
Feature: Mitto errors for bad client input
  mitto.md §Backend → Frontend Messages: error {message, code?} notifies the
  client of an error. The spec does not say when it is sent.
  Interpretation (every scenario here): a message the server cannot take is
  answered with error {message} to its sender, and the connection and the
  session stay usable; the codes are the server's own, so only the message is
  checked.

  Background:
    Given a client connects
    And the client receives "connected"

  @id:mitto.errors.invalid-json
  @req:mitto.envelope.invalid-input @req:mitto.envelope.json @req:mitto.error.shape @req:mitto.keepalive-ack.shape
  Scenario: Text that is not JSON is answered with error
    mitto.md §Message Envelope: every message is a JSON envelope {type, data}.
    Interpretation: text that is not JSON is answered with error and the
    connection stays usable.

    When the client sends the text:
      """
      {"type": "prompt", "data": 
      """
    Then the client receives "error"
    And its "data.message" is a string
    And the client stays connected
    When the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 1}}
      """
    Then the client receives "keepalive_ack"

  @id:mitto.errors.unknown-type
  @req:mitto.client.unknown-type @req:mitto.error.shape @req:mitto.keepalive-ack.shape
  Scenario: A message type the client may not send is answered with error
    mitto.md §Frontend → Backend Messages lists the types a frontend sends.
    Interpretation: a backend-only type sent by a client is answered with
    error and the connection stays usable.

    When the client sends:
      """
      {"type": "prompt_complete", "data": {"event_count": 1, "max_seq": 1}}
      """
    Then the client receives "error"
    And its "data.message" is a string
    When the client sends:
      """
      {"type": "keepalive", "data": {"client_time": 1}}
      """
    Then the client receives "keepalive_ack"

  @id:mitto.errors.missing-envelope-data
  @req:mitto.envelope.invalid-input @req:mitto.envelope.shape @req:mitto.error.shape
  Scenario: A message without its data object is answered with error
    mitto.md §Message Envelope: {type, data}; rename_session carries its
    name in data. Interpretation: a message without data is answered with
    error.

    When the client sends:
      """
      {"type": "rename_session"}
      """
    Then the client receives "error"
    And its "data.message" is a string

  @id:mitto.errors.prompt-without-id
  @req:mitto.prompt.without-id @req:mitto.prompt.shape @req:mitto.error.shape
  Scenario: A prompt without prompt_id is refused and not run
    mitto.md §Frontend → Backend Messages: prompt {message, image_ids?,
    prompt_id}; prompt_id is required (no ?). Interpretation: a prompt
    without it is refused with error and not run.

    When the client sends:
      """
      {"type": "prompt", "data": {"message": "no id"}}
      """
    Then the client receives "error"
    And the refusal names one of "prompt_id", "prompt id"
    And the client receives no "user_prompt" within 300ms

  @id:mitto.errors.binary-frame
  @req:mitto.envelope.invalid-input @req:mitto.envelope.json @req:mitto.error.shape
  Scenario: A binary frame is answered with error
    mitto.md §Message Envelope: messages are JSON; a binary frame is not one.
    Interpretation: it is answered with error and the connection stays open.

    When the client sends a binary frame of 16 bytes
    Then the client receives "error"
    And the client stays connected for 200ms

  @id:mitto.errors.bad-limit
  @req:mitto.load-events.limit-capped @req:mitto.load-events.limit @req:mitto.error.shape
  Scenario: A load_events limit that is not a positive integer is refused
    mitto.md §load_events Parameters: limit is an int, the maximum number of
    events to return. Interpretation: a limit that is not an int is refused
    with error and nothing is loaded.

    When the client sends:
      """
      {"type": "load_events", "data": {"limit": "ten"}}
      """
    Then the client receives "error"
    And the client receives no "events_loaded" within 300ms
