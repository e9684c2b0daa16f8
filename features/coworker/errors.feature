@coworker
Feature: Structured errors
  coworker-v3.md §error, §Error Reference: every error condition is an error
  event {type, sessionId, message, code, source} whose code and source come
  from the spec's lists. Each scenario provokes one code; the check engine
  judges the shape of every error event (an unlisted code or source fails).

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.errors.invalid-json
  @req:coworker.error-reference.invalid-json @req:coworker.error-reference.source-protocol @req:coworker.error.codes @req:coworker.event.json
  Scenario: Malformed JSON is invalid_json
    coworker-v3.md §Error Reference: invalid_json, "Malformed JSON payload",
    from the protocol source ("Parse/shape/session validation in websocket
    handler"). The error event still carries the connection's sessionId
    (§Server -> Client Events: "All events are JSON with a type and
    sessionId").

    When the client sends the text:
      """
      {"type": "ping", "sessionId": 
      """
    Then the client receives "error"
    And its "code" is "invalid_json"
    And its "source" is "protocol"
    And its "sessionId" is "{sid}"
    And its "message" is a string

  @id:coworker.errors.invalid-payload
  @req:coworker.error-reference.invalid-payload @req:coworker.error-reference.source-protocol @req:coworker.error.codes
  Scenario Outline: JSON that is not an object is invalid_payload (<what>)
    coworker-v3.md §Error Reference: invalid_payload, "Parsed JSON is not an
    object".

    When the client sends the text:
      """
      <text>
      """
    Then the client receives "error"
    And its "code" is "invalid_payload"
    And its "source" is "protocol"

    Examples:
      | what   | text                                    |
      | array  | [{"type": "ping", "sessionId": "{sid}"}] |
      | string | "ping"                                  |
      | number | 42                                      |
      | null   | null                                    |

  @id:coworker.errors.missing-type
  @req:coworker.error-reference.missing-type @req:coworker.error-reference.source-protocol @req:coworker.error.codes
  Scenario Outline: A missing or non-string type is missing_type (<what>)
    coworker-v3.md §Error Reference: missing_type, "Missing/non-string type".

    When the client sends:
      """
      <message>
      """
    Then the client receives "error"
    And its "code" is "missing_type"
    And its "source" is "protocol"

    Examples:
      | what        | message                                   |
      | no type     | {"sessionId": "{sid}"}                     |
      | number type | {"type": 7, "sessionId": "{sid}"}          |
      | null type   | {"type": null, "sessionId": "{sid}"}       |
      | object type | {"type": {"name": "ping"}, "sessionId": "{sid}"} |

  @id:coworker.errors.unknown-type
  @req:coworker.error-reference.unknown-type @req:coworker.error-reference.source-protocol @req:coworker.error.codes
  Scenario: An unrecognized type is unknown_type
    coworker-v3.md §Error Reference: unknown_type, "Unrecognized type".

    When the client sends:
      """
      {"type": "no_such_request", "sessionId": "{sid}"}
      """
    Then the client receives "error"
    And its "code" is "unknown_type"
    And its "source" is "protocol"

  @id:coworker.errors.connect-provider-removed
  @req:coworker.error-reference.unknown-type @req:coworker.migration.connect-provider-removed
  Scenario: connect_provider, removed in 3.0, is an unknown type
    coworker-v3.md §Protocol v3 Migration: "connect_provider is removed";
    clients use provider_auth_authorize, provider_auth_callback and
    provider_auth_set_api_key. A 3.0 server treats it as an unrecognized type
    (§Error Reference: unknown_type) and connects nothing.

    When the client sends:
      """
      {"type": "connect_provider", "sessionId": "{sid}", "provider": "openai", "apiKey": "sk-proj-wsconform"}
      """
    Then the client receives "error"
    And its "code" is "unknown_type"
    And the client receives no "provider_auth_result" within 300ms

  @id:coworker.errors.validation-failed
  @req:coworker.error-reference.validation-failed @req:coworker.error-reference.source-protocol @req:coworker.error.codes
  Scenario Outline: A required member missing or invalid is validation_failed (<what>)
    coworker-v3.md §Error Reference: validation_failed, "Required field
    missing/invalid" (the message shapes of §Client -> Server Messages), from
    the protocol source; the request is not carried out. validation_failed is
    the code of every invalid field, so the refusal must also name the member
    tested (a refusal of another member proves nothing about this one).

    When the client sends:
      """
      {"type": "<type>", "sessionId": "{sid}"<members>}
      """
    Then the client receives "error"
    And its "code" is "validation_failed"
    And its "source" is "protocol"
    And the refusal names one of <member>
    And the client receives no "<answer>" within 300ms

    Examples:
      | what                           | type                      | members                                                              | answer                     | member |
      | user_message without text      | user_message              |                                                                      | session_busy               | "missing text", "text is missing", "text is required", "text required", "invalid text", "text must" |
      | user_message text not a string | user_message              | , "text": 42                                                         | session_busy               | "missing text", "text is missing", "text is required", "text required", "invalid text", "text must" |
      | set_model without model        | set_model                 | , "provider": "openai"                                               | config_updated             | "missing model", "model is missing", "model is required", "model required", "invalid model", "model must", "model id" |
      | set_api_key without apiKey     | provider_auth_set_api_key | , "provider": "openai", "methodId": "api_key"                        | provider_auth_result       | "missing apiKey", "apiKey is missing", "apiKey is required", "apiKey required", "invalid apiKey", "apiKey must" |
      | read_skill without skillName   | read_skill                |                                                                      | skill_content              | "skillName", "skill name" |
      | enableMcp not a boolean        | set_enable_mcp            | , "enableMcp": "yes"                                                 | session_settings           | "invalid enableMcp", "enableMcp must", "boolean" |
      | approved missing               | approval_response         | , "requestId": "req-approval-001"                                    | assistant_message          | "approved" |
      | query without queryType        | observability_query       | , "query": {"query": "up"}                                           | observability_query_result | "queryType", "query type" |
      | queryType outside its enum     | observability_query       | , "query": {"queryType": "sql", "query": "select 1"}                 | observability_query_result | "queryType", "query type" |
      | context without objective      | harness_context_set       | , "context": {"runId": "run-01", "acceptanceCriteria": [], "constraints": []} | harness_context   | "objective" |
      | SLO op outside its enum        | harness_slo_evaluate      | , "checks": [{"id": "c", "type": "custom", "queryType": "promql", "query": "up", "op": "=~", "threshold": 0, "windowSec": 300}] | harness_slo_result | "check.op", "checks[0].op", "checks.0.op", "operator" |
      | checkpointId missing on delete | session_backup_delete_checkpoint |                                                               | session_backup_state       | "checkpointId", "checkpoint id" |

  @id:coworker.errors.permission-denied
  @req:coworker.read-skill.unknown @req:coworker.error-reference.permission-denied @req:coworker.error-reference.validation-failed
  Scenario: A skill name that leaves the skills directory is refused
    coworker-v3.md §Error Reference: permission_denied, "Path/URL/policy
    guard blocked action"; validation_failed, "Required field
    missing/invalid". A skillName with a path traversal names no skill: it
    is refused with an error event and nothing is read. Either code fits
    (the reference's path guard says permission_denied, the real
    agent-coworker finds no such skill: validation_failed). Neither code is
    only about this, so the refusal must name the skill, its path or the
    guard.

    When the client sends:
      """
      {"type": "read_skill", "sessionId": "{sid}", "skillName": "../../../etc/passwd"}
      """
    Then the client receives "error"
    And its "code" is one of ["permission_denied", "validation_failed"]
    And the refusal names one of "etc/passwd", "skillName", "skill name", "traversal", "outside", "skills directory", "path"
    And the client receives no "skill_content" within 300ms

  @id:coworker.errors.provider-error @reference-fixture
  @req:coworker.set-model.unknown-model @req:coworker.error-reference.provider-error @req:coworker.error-reference.source-provider
  Scenario: Switching to a model the provider does not offer is provider_error
    coworker-v3.md §Error Reference: provider_error, "Provider auth or model
    operation failure", from the provider source. Interpretation: set_model
    with a model the provider does not have fails as a model operation. The
    spec does not restrict set_model to the catalog's models (the real
    agent-coworker accepts any model id), so this holds the reference
    server's own choice and runs only against it.

    When the client sends:
      """
      {"type": "set_model", "sessionId": "{sid}", "provider": "openai", "model": "no-such-model-{unique}"}
      """
    Then the client receives "error"
    And its "code" is "provider_error"
    And its "source" is "provider"
    And the refusal names one of "no-such-model", "unknown model", "model not", "not offered"
    And the client receives no "config_updated" within 300ms

  @id:coworker.errors.backup-error
  @req:coworker.session-backup.unknown-checkpoint @req:coworker.error-reference.backup-error @req:coworker.error-reference.source-backup
  Scenario: Restoring a checkpoint that does not exist is backup_error
    coworker-v3.md §Error Reference: backup_error, "Session backup/checkpoint
    operation failure", from the backup source. Interpretation: restoring an
    unknown checkpoint is such a failure. backup_error is the code of every
    backup failure (the real agent-coworker also says "Session backup is
    unavailable" with it), so the refusal must name the checkpoint.

    When the client sends:
      """
      {"type": "session_backup_restore", "sessionId": "{sid}", "checkpointId": "cp-missing-{unique}"}
      """
    Then the client receives "error"
    And its "code" is "backup_error"
    And its "source" is "backup"
    And the refusal names one of "cp-missing", "unknown checkpoint", "checkpoint not found", "no such checkpoint", "checkpointId", "checkpoint id"
    And the client receives no "session_backup_state" within 300ms

  @id:coworker.errors.observability-error
  @req:coworker.observability-query.invalid @req:coworker.error-reference.observability-error @req:coworker.error-reference.validation-failed
  Scenario: An empty observability query is refused
    coworker-v3.md §Error Reference: observability_error, "Query/evaluation
    or observability failure"; validation_failed, "Required field
    missing/invalid". A blank query cannot be evaluated: it is refused with
    an error event and no result. Either code fits (the reference says
    observability_error, the real agent-coworker validation_failed); neither
    is only about this, so the refusal must say the query is empty.

    When the client sends:
      """
      {"type": "observability_query", "sessionId": "{sid}", "query": {"queryType": "logql", "query": ""}}
      """
    Then the client receives "error"
    And its "code" is one of ["observability_error", "validation_failed"]
    And the refusal names one of "empty", "blank", "invalid query.query", "query.query must", "query.query missing"
    And the client receives no "observability_query_result" within 300ms

  @id:coworker.errors.reversed-window
  @req:coworker.observability-query.invalid @req:coworker.type.observability-query-request
  Scenario: A query window that ends before it starts is not evaluated
    coworker-v3.md §observability_query: fromMs and toMs bound the query;
    §Error Reference: observability_error, "Query/evaluation or
    observability failure". Interpretation: fromMs after toMs cannot be
    evaluated, so no result reports status "ok". The spec does not say
    whether the failure is an error event (the reference) or a result whose
    status is not ok (the real agent-coworker), so either passes, if it
    names the window. Control: the same query over the spec's own window
    gets a result with status "ok" first; a target whose observability is
    off (agent-coworker without a back end answers every query "Observability
    is disabled for this session.") never reaches the window check, so the
    scenario is inconclusive there, not passed.

    Given the client sends:
      """
      {"type": "observability_query", "sessionId": "{sid}", "query": {"queryType": "promql", "query": "up", "fromMs": 1738736400000, "toMs": 1738736700000}}
      """
    And the client receives "observability_query_result"
    And its "result.error" is null or absent
    And its "result.status" is "ok"
    When the client sends:
      """
      {"type": "observability_query", "sessionId": "{sid}", "query": {"queryType": "promql", "query": "up", "fromMs": 1738736700000, "toMs": 1738736400000}}
      """
    Then the client receives "error|observability_query_result"
    And the client has received 1 "observability_query_result" where "result.status" is "ok"
    And the refusal names one of "fromMs", "toMs", "window", "time range", "start time", "end time", "start timestamp", "end timestamp", "reversed"

  @id:coworker.errors.internal-error @scripted
  @req:coworker.turn.failed @req:coworker.error-reference.internal-error @req:coworker.error-reference.source-session @req:coworker.error.any-condition
  Scenario: A failed agent turn is an error event and ends the turn
    coworker-v3.md §error: "Any error condition"; §Error Reference:
    internal_error, "Unexpected runtime failure". The turn still ends with
    session_busy false. Interpretation: a turn that fails (the scripted
    agent's /fail) is an internal_error of the session source. internal_error
    is the code of every unexpected failure (a model without a key fails a
    turn too), so the error must carry the failure's own words.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/fail the disk is full"}
      """
    Then the client receives "error"
    And its "code" is "internal_error"
    And its "source" is "session"
    And the refusal names one of "the disk is full"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """

  @id:coworker.errors.binary-frame
  @req:coworker.client.invalid-frame @req:coworker.client.json
  Scenario: A binary frame is refused with an error event
    coworker-v3.md §Client -> Server Messages: "All messages are JSON" (text).
    Interpretation: the spec has no code for a binary frame; it is not a JSON
    object, so invalid_payload (invalid_json is accepted too).

    When the client sends a binary frame of 16 bytes
    Then the client receives "error"
    And its "code" is one of ["invalid_payload", "invalid_json"]
    And the client stays connected for 100ms

  @id:coworker.errors.session-survives
  @req:coworker.error.session-survives @req:coworker.ping.pong
  Scenario: The session keeps working after an error
    coworker-v3.md §error: errors are events of the session (they carry its
    sessionId). Interpretation: an error does not end the connection or the
    session; the next valid request is answered.

    When the client sends the text:
      """
      not json at all
      """
    And the client receives "error"
    And its "code" is "invalid_json"
    And the client sends:
      """
      {"type": "no_such_request", "sessionId": "{sid}"}
      """
    And the client receives "error"
    And its "code" is "unknown_type"
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    Then the client receives "pong"
    And its "sessionId" is "{sid}"
