@coworker
Feature: Observability and harness
  coworker-v3.md §observability_query → observability_query_result,
  §harness_context_get/set → harness_context, §harness_slo_evaluate →
  harness_slo_result. The requests use the spec's own examples.

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.observability.query
  @req:coworker.observability-query-result.shape @req:coworker.observability-query.definition @req:coworker.observability-query.shape
  Scenario: observability_query is answered with its result envelope
    coworker-v3.md §observability_query: "Run an observability query
    (logql / promql / traceql)"; §observability_query_result: "Result
    envelope for a single observability query" {queryType, query, fromMs,
    toMs, status, data}. Control: the result's status is "ok", the query ran;
    a target whose observability is off answers every query with a failed
    result (agent-coworker: "Observability is disabled for this session."),
    which runs nothing, so there the scenario is inconclusive (the check
    engine still judges that result's shape). The result's error text
    (agent-coworker's member, not the spec's) is checked first, so that the
    verdict quotes the server's reason.

    Given the client sends:
      """
      {"type": "observability_query", "sessionId": "{sid}", "query": {"queryType": "promql", "query": "sum(rate(vector_component_errors_total[5m]))", "fromMs": 1738736400000, "toMs": 1738736700000, "limit": 200}}
      """
    And the client receives "observability_query_result"
    And its "result.error" is null or absent
    And its "result.status" is "ok"
    Then its "sessionId" is "{sid}"
    And its "result.queryType" is "promql"
    And its "result.query" is "sum(rate(vector_component_errors_total[5m]))"
    And its "result.fromMs" is 1738736400000
    And its "result.toMs" is 1738736700000
    And its "result.status" is a string

  @id:coworker.observability.query-kinds
  @req:coworker.observability-query-result.shape @req:coworker.observability-query.definition @req:coworker.type.observability-query-type
  Scenario Outline: A <kind> query is answered with a <kind> result
    coworker-v3.md §ObservabilityQueryType: logql, promql or traceql; the
    result envelope names the query's type. Control: the result's status is
    "ok" (with observability off nothing runs: inconclusive).

    Given the client sends:
      """
      {"type": "observability_query", "sessionId": "{sid}", "query": {"queryType": "<kind>", "query": "<query>"}}
      """
    And the client receives "observability_query_result"
    And its "result.error" is null or absent
    And its "result.status" is "ok"
    Then its "result.queryType" is "<kind>"
    And its "result.fromMs" is an integer
    And its "result.toMs" is an integer

    Examples:
      | kind    | query                          |
      | logql   | {app=\"coworker\"} \|= \"error\" |
      | traceql | { duration > 500ms }           |

  @id:coworker.observability.harness-context-unset
  @req:coworker.harness-context.null-if-unset @req:coworker.harness-context-get.definition
  Scenario: harness_context_get on a new session answers a null context
    coworker-v3.md §harness_context_get: "Fetch the current harness context
    payload for this session"; §harness_context: "(null if unset)".

    When the client sends:
      """
      {"type": "harness_context_get", "sessionId": "{sid}"}
      """
    Then the client receives "harness_context"
    And its "sessionId" is "{sid}"
    And its "context" is null

  @id:coworker.observability.harness-context-set
  @req:coworker.harness-context-set.definition @req:coworker.harness-context-get.definition @req:coworker.type.harness-context-payload @req:coworker.harness-context.shape
  Scenario: harness_context_set replaces the context that get returns
    coworker-v3.md §harness_context_set: "Set/replace the harness context
    payload for this session"; §harness_context: the current payload.

    When the client sends:
      """
      {"type": "harness_context_set", "sessionId": "{sid}", "context": {"runId": "run-{unique}", "taskId": "task-123", "objective": "Improve startup reliability", "acceptanceCriteria": ["startup < 800ms", "no startup errors"], "constraints": ["no product behavior changes"], "metadata": {"owner": "platform"}}}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client receives "pong"
    And the client sends:
      """
      {"type": "harness_context_get", "sessionId": "{sid}"}
      """
    Then the client receives "harness_context" with:
      """
      {"context": {"runId": "run-{unique}"}}
      """
    And its "context.objective" is "Improve startup reliability"
    And its "context.acceptanceCriteria" has 2 items
    And its "context.constraints" has 1 item
    And the client has received no "error"

  @id:coworker.observability.slo-evaluate
  @req:coworker.harness-slo-result.shape @req:coworker.harness-slo-evaluate.definition @req:coworker.type.harness-slo-check
  Scenario: harness_slo_evaluate is answered with harness_slo_result
    coworker-v3.md §harness_slo_evaluate: "Evaluate one or more SLO checks";
    §harness_slo_result: the summary {passed, fromMs, toMs, checks} with each
    check's actual value and pass. The spec only shows actual as a number; a
    check nothing could measure (observability disabled) has none, so the
    schema judges it, as a number or null. Control: the check measured
    something (actual is a number); with observability off nothing is
    evaluated (agent-coworker: actual null, pass false, "Observability is
    disabled for this session."), so there the scenario is inconclusive.

    Given the client sends:
      """
      {"type": "harness_slo_evaluate", "sessionId": "{sid}", "checks": [{"id": "vector_errors", "type": "custom", "queryType": "promql", "query": "sum(rate(vector_component_errors_total[5m]))", "op": "<=", "threshold": 0, "windowSec": 300}]}
      """
    And the client receives "harness_slo_result"
    And its "result.checks.0.reason" is null or absent
    And its "result.checks.0.actual" is a number
    Then its "sessionId" is "{sid}"
    And its "result.passed" is a boolean
    And its "result.checks" has 1 item
    And its "result.checks.0.id" is "vector_errors"
    And its "result.checks.0.op" is "<="
    And its "result.checks.0.pass" is a boolean

  @id:coworker.observability.slo-verdict @reference-fixture
  @req:coworker.harness-slo-result.passed @req:coworker.harness-slo-result.shape @req:coworker.harness-slo-evaluate.definition
  Scenario: A failing SLO check makes the summary fail
    coworker-v3.md §harness_slo_result: passed is the verdict over the checks.
    The reference server's observability back end (a fixture only it ships)
    measures a healthy system (latency 120), so a latency check "< 100"
    fails and one ">= 0" passes.

    When the client sends:
      """
      {"type": "harness_slo_evaluate", "sessionId": "{sid}", "checks": [{"id": "fast", "type": "latency", "queryType": "promql", "query": "p99_latency_ms", "op": "<", "threshold": 100, "windowSec": 60}, {"id": "sane", "type": "latency", "queryType": "promql", "query": "p99_latency_ms", "op": ">=", "threshold": 0, "windowSec": 60}]}
      """
    Then the client receives "harness_slo_result"
    And its "result.passed" is false
    And its "result.checks" contains {"id": "fast", "pass": false}
    And its "result.checks" contains {"id": "sane", "pass": true}
