@coworker
Feature: sessionId on every client message
  coworker-v3.md §Client -> Server Messages: "Every message (except
  client_hello) must include sessionId"; §Error Reference: unknown_session
  is a "sessionId mismatch for this connection", validation_failed a
  "Required field missing/invalid", both from the protocol source ("session
  validation in websocket handler").

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.session-id.required
  @req:coworker.client.session-id-missing @req:coworker.client.session-id @req:coworker.error-reference.validation-failed @req:coworker.error-reference.unknown-session @req:coworker.error-reference.source-protocol
  Scenario Outline: <type> without sessionId is refused and not carried out
    coworker-v3.md §Client -> Server Messages: every message but client_hello
    must include sessionId; a message without it is refused with an error
    event and not acted on. Interpretation: a missing sessionId is a required
    field missing (validation_failed); unknown_session is accepted too, as no
    id is not the connection's id. validation_failed is the code of every
    invalid field, so the refusal must name the sessionId.

    When the client sends:
      """
      {"type": "<type>"<members>}
      """
    Then the client receives "error"
    And its "code" is one of ["validation_failed", "unknown_session"]
    And its "source" is "protocol"
    And its "sessionId" is "{sid}"
    And the refusal names one of "sessionId", "session id", "unknown session", "session mismatch", "no session", "invalid session", "missing session"
    And the client receives no "<answer>" within 300ms

    Examples:
      | type                             | members                                                                                                                                 | answer                      |
      | ping                             |                                                                                                                                         | pong                        |
      | user_message                     | , "text": "hello"                                                                                                                       | session_busy                |
      | ask_response                     | , "requestId": "req-ask-001", "answer": "Option A"                                                                                      | assistant_message           |
      | approval_response                | , "requestId": "req-approval-001", "approved": true                                                                                     | assistant_message           |
      | set_model                        | , "model": "claude-3-opus", "provider": "anthropic"                                                                                     | config_updated              |
      | provider_auth_authorize          | , "provider": "codex-cli", "methodId": "oauth_cli"                                                                                      | provider_auth_challenge     |
      | provider_auth_callback           | , "provider": "codex-cli", "methodId": "oauth_cli"                                                                                      | provider_auth_result        |
      | provider_auth_set_api_key        | , "provider": "openai", "methodId": "api_key", "apiKey": "sk-proj-wsconform"                                                            | provider_auth_result        |
      | list_tools                       |                                                                                                                                         | tools                       |
      | list_commands                    |                                                                                                                                         | commands                    |
      | execute_command                  | , "name": "review", "arguments": "HEAD~3..HEAD"                                                                                         | session_busy                |
      | list_skills                      |                                                                                                                                         | skills_list                 |
      | read_skill                       | , "skillName": "pdf"                                                                                                                    | skill_content               |
      | disable_skill                    | , "skillName": "pdf"                                                                                                                    | skills_list                 |
      | enable_skill                     | , "skillName": "pdf"                                                                                                                    | skills_list                 |
      | delete_skill                     | , "skillName": "pdf"                                                                                                                    | skills_list                 |
      | set_enable_mcp                   | , "enableMcp": false                                                                                                                    | session_settings            |
      | harness_context_get              |                                                                                                                                         | harness_context             |
      | harness_context_set              | , "context": {"runId": "run-01", "objective": "Improve startup reliability", "acceptanceCriteria": [], "constraints": []}               | harness_context             |
      | observability_query              | , "query": {"queryType": "promql", "query": "up"}                                                                                       | observability_query_result  |
      | harness_slo_evaluate             | , "checks": [{"id": "up", "type": "custom", "queryType": "promql", "query": "up", "op": ">=", "threshold": 1, "windowSec": 300}]         | harness_slo_result          |
      | reset                            |                                                                                                                                         | reset_done                  |
      | cancel                           |                                                                                                                                         | session_busy                |
      | session_backup_get               |                                                                                                                                         | session_backup_state        |
      | session_backup_checkpoint        |                                                                                                                                         | session_backup_state        |
      | session_backup_restore           |                                                                                                                                         | session_backup_state        |
      | session_backup_delete_checkpoint | , "checkpointId": "cp-0001"                                                                                                             | session_backup_state        |

  @id:coworker.session-id.required-provider-reads
  @req:coworker.client.session-id-missing @req:coworker.client.session-id @req:coworker.error-reference.validation-failed @req:coworker.error-reference.unknown-session @req:coworker.error-reference.source-protocol
  Scenario Outline: <type> without sessionId is refused
    coworker-v3.md §Client -> Server Messages: every message but client_hello
    must include sessionId; a message without it is refused with an error
    event. Interpretation: a missing sessionId is a required field missing
    (validation_failed, whose refusal must then name the sessionId);
    unknown_session is accepted too. Whether the
    request was carried out is not judged here: a server may send
    provider_catalog, provider_auth_methods and provider_status unasked on
    connect (the real agent-coworker does, at any time after server_hello),
    so an answer cannot be told from that burst.

    When the client sends:
      """
      {"type": "<type>"<members>}
      """
    Then the client receives "error"
    And its "code" is one of ["validation_failed", "unknown_session"]
    And its "source" is "protocol"
    And its "sessionId" is "{sid}"
    And the refusal names one of "sessionId", "session id", "unknown session", "session mismatch", "no session", "invalid session", "missing session"

    Examples:
      | type                             | members                                                                                                                                 | answer                      |
      | refresh_provider_status          |                                                                                                                                         | provider_status             |
      | provider_catalog_get             |                                                                                                                                         | provider_catalog            |
      | provider_auth_methods_get        |                                                                                                                                         | provider_auth_methods       |

  @id:coworker.session-id.unknown
  @req:coworker.error-reference.unknown-session @req:coworker.ping.valid-session @req:coworker.error-reference.source-protocol @req:coworker.event.json
  Scenario: A sessionId that is not the connection's is unknown_session
    coworker-v3.md §Error Reference: unknown_session is a "sessionId mismatch
    for this connection"; §ping: ping "Requires a valid sessionId for this
    connection".

    When the client sends:
      """
      {"type": "ping", "sessionId": "00000000-0000-4000-8000-000000000000"}
      """
    Then the client receives "error"
    And its "code" is "unknown_session"
    And its "source" is "protocol"
    And its "sessionId" is "{sid}"
    And the client receives no "pong" within 300ms

  @id:coworker.session-id.other-connection
  @req:coworker.error-reference.unknown-session @req:coworker.connection.one-session @req:coworker.client.session-id
  Scenario: Another connection's sessionId is unknown here
    coworker-v3.md §Connection: one session per connection; §Error Reference:
    unknown_session for a sessionId that does not match this connection, even
    when it is the live session of another connection.

    When client "B" connects
    And client "B" receives "server_hello"
    And I remember its "sessionId" as "sid_b"
    And client "B" sends:
      """
      {"type": "list_tools", "sessionId": "{sid}"}
      """
    Then client "B" receives "error"
    And its "code" is "unknown_session"
    And its "sessionId" is "{sid_b}"
    And client "B" receives no "tools" within 300ms
    And the client receives no "tools" within 100ms

  @id:coworker.session-id.wrong-id-starts-no-turn
  @req:coworker.error-reference.unknown-session @req:coworker.client.session-id @req:coworker.user-message-echo.confirmation
  Scenario: A user_message with a wrong sessionId starts no turn
    coworker-v3.md §user_message: "must include sessionId"; §Error Reference:
    unknown_session. The refused message is neither echoed nor run.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}-other", "text": "hello", "clientMessageId": "m-{unique}"}
      """
    Then the client receives "error"
    And its "code" is "unknown_session"
    And the client receives no "session_busy" within 300ms
    And the client has received no "user_message"

  @id:coworker.session-id.blank
  @req:coworker.client.session-id-missing @req:coworker.error-reference.validation-failed @req:coworker.error-reference.unknown-session
  Scenario: A blank sessionId is refused
    coworker-v3.md §Client -> Server Messages: sessionId is required;
    §Error Reference: validation_failed "Required field missing/invalid".
    Interpretation: an empty string is an invalid sessionId (validation_failed,
    whose refusal must then name the sessionId), unknown_session is accepted
    too.

    When the client sends:
      """
      {"type": "ping", "sessionId": ""}
      """
    Then the client receives "error"
    And its "code" is one of ["validation_failed", "unknown_session"]
    And the refusal names one of "sessionId", "session id", "unknown session", "session mismatch", "no session", "invalid session", "missing session"
    And the client receives no "pong" within 300ms
