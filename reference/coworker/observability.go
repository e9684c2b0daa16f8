package coworker

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// Observability and harness (§observability_status, §observability_query,
// §harness_context_get/set, §harness_slo_evaluate). Queries are answered
// from deterministic data: no endpoint is contacted.

var (
	queryTypes = []string{"logql", "promql", "traceql"}
	sloTypes   = []string{"latency", "error_rate", "custom"}
	sloOps     = []string{"<", "<=", ">", ">=", "==", "!="}
)

type observabilityStatusEvent struct {
	head
	Enabled       bool          `json:"enabled"`
	Observability observability `json:"observability"`
}

func observabilityStatus(s *session) observabilityStatusEvent {
	return observabilityStatusEvent{head: s.h("observability_status"), Enabled: !s.mutated(mutObservabilityOff), Observability: observabilityConfig}
}

type queryResult struct {
	QueryType string `json:"queryType"`
	Query     string `json:"query"`
	FromMs    int64  `json:"fromMs"`
	ToMs      int64  `json:"toMs"`
	Status    string `json:"status"`
	Data      any    `json:"data"`
	// Error says why a query whose status is "error" failed (agent-coworker
	// sends it; the spec's envelope shows only status "ok").
	Error string `json:"error,omitempty"`
}

type queryResultEvent struct {
	head
	Result queryResult `json:"result"`
}

// window resolves a query's time range: toMs defaults to now, fromMs to
// the default window before it.
func (s *session) window(from, to int64, hasFrom, hasTo bool, windowSec int64) (int64, int64) {
	if !hasTo {
		to = s.env.Now().UnixMilli()
	}
	if !hasFrom {
		from = to - windowSec*1000
	}
	return from, to
}

// observabilityQuery answers an empty result of the query's kind. A blank
// query or a range that ends before it starts cannot be evaluated:
// observability_error.
func (s *session) observabilityQuery(p *payload) func() {
	q := p.object("query")
	qt := q.oneOf("queryType", queryTypes...)
	text := q.str("query")
	from, hasFrom := q.optInt("fromMs")
	to, hasTo := q.optInt("toMs")
	if limit, ok := q.optInt("limit"); ok && limit < 1 {
		q.fail("limit", "must be at least 1")
	}
	return func() {
		if strings.TrimSpace(text) == "" {
			s.fail(codeObservabilityError, srcObservability, "query failed: the query is empty")
			return
		}
		from, to := s.window(from, to, hasFrom, hasTo, observabilityConfig.DefaultWindowSec)
		if s.mutated(mutObservabilityOff) {
			s.emit(queryResultEvent{head: s.h("observability_query_result"), Result: queryResult{
				QueryType: qt, Query: text, FromMs: from, ToMs: to, Status: "error", Error: observabilityOffMessage,
			}})
			return
		}
		if from > to {
			s.fail(codeObservabilityError, srcObservability, fmt.Sprintf("query failed: fromMs %d is after toMs %d", from, to))
			return
		}
		s.emit(queryResultEvent{head: s.h("observability_query_result"), Result: queryResult{
			QueryType: qt, Query: text, FromMs: from, ToMs: to, Status: "ok", Data: queryData(qt),
		}})
	}
}

// queryData is the empty answer of each backend, in its own format.
func queryData(queryType string) any {
	switch queryType {
	case "promql":
		return map[string]any{"status": "success", "data": map[string]any{"resultType": "vector", "result": []any{}}}
	case "logql":
		return map[string]any{"status": "success", "data": map[string]any{"resultType": "streams", "result": []any{}}}
	}
	return map[string]any{"traces": []any{}}
}

// harnessContext is the stored payload with the time it was set.
type harnessContext struct {
	RunID              string            `json:"runId"`
	TaskID             string            `json:"taskId,omitempty"`
	Objective          string            `json:"objective"`
	AcceptanceCriteria []string          `json:"acceptanceCriteria"`
	Constraints        []string          `json:"constraints"`
	Metadata           map[string]string `json:"metadata,omitempty"`
	UpdatedAt          string            `json:"updatedAt"`
}

type harnessContextEvent struct {
	head
	Context *harnessContext `json:"context"`
}

func (s *session) harnessContextGet(p *payload) func() {
	return func() { s.emit(harnessContextEvent{head: s.h("harness_context"), Context: s.harness}) }
}

// harnessContextSet replaces the context and answers with it.
func (s *session) harnessContextSet(p *payload) func() {
	c := p.object("context")
	hc := &harnessContext{
		RunID:              c.name("runId"),
		Objective:          c.name("objective"),
		AcceptanceCriteria: c.strList("acceptanceCriteria"),
		Constraints:        c.strList("constraints"),
	}
	hc.TaskID, _ = c.optStr("taskId")
	if md := c.optObject("metadata"); md != nil {
		hc.Metadata = map[string]string{}
		for _, k := range slices.Sorted(maps.Keys(md.m)) {
			v := md.m[k]
			str, ok := v.(string)
			if !ok {
				md.fail(k, "must be a string, got "+jsonx.Kind(v))
				break
			}
			hc.Metadata[k] = str
		}
	}
	return func() {
		hc.UpdatedAt = s.env.Stamp()
		s.harness = hc
		s.emit(harnessContextEvent{head: s.h("harness_context"), Context: hc})
	}
}

type sloCheck struct {
	ID        string  `json:"id"`
	Type      string  `json:"type"`
	QueryType string  `json:"queryType"`
	Query     string  `json:"query"`
	Op        string  `json:"op"`
	Threshold float64 `json:"threshold"`
	WindowSec int64   `json:"windowSec"`
	// Actual is null when nothing could be measured (observability off).
	Actual *float64 `json:"actual"`
	Pass   bool     `json:"pass"`
	// Reason says why a check could not be measured (agent-coworker sends
	// it; the spec does not show it).
	Reason string `json:"reason,omitempty"`
}

type sloResult struct {
	ReportOnly bool       `json:"reportOnly"`
	StrictMode bool       `json:"strictMode"`
	Passed     bool       `json:"passed"`
	FromMs     int64      `json:"fromMs"`
	ToMs       int64      `json:"toMs"`
	Checks     []sloCheck `json:"checks"`
}

type sloResultEvent struct {
	head
	Result sloResult `json:"result"`
}

// harnessSloEvaluate evaluates each check against sloActuals over the
// widest window asked for. Report-only: a failed check does not fail the
// request.
func (s *session) harnessSloEvaluate(p *payload) func() {
	items := p.list("checks")
	if p.problem() == "" && len(items) == 0 {
		p.fail("checks", "must hold at least one check")
	}
	checks := make([]sloCheck, 0, len(items))
	for _, c := range items {
		ck := sloCheck{
			ID: c.name("id"), Type: c.oneOf("type", sloTypes...), QueryType: c.oneOf("queryType", queryTypes...),
			Query: c.str("query"), Op: c.oneOf("op", sloOps...), Threshold: c.number("threshold"), WindowSec: c.integer("windowSec"),
		}
		if ck.WindowSec < 1 {
			c.fail("windowSec", "must be at least 1")
		}
		checks = append(checks, ck)
	}
	return func() {
		res := sloResult{ReportOnly: true, Passed: true, Checks: checks}
		var widest int64
		for i := range res.Checks {
			ck := &res.Checks[i]
			if strings.TrimSpace(ck.Query) == "" {
				s.fail(codeObservabilityError, srcObservability, fmt.Sprintf("SLO evaluation failed: check %q has an empty query", clip(ck.ID)))
				return
			}
			widest = max(widest, ck.WindowSec)
			if s.mutated(mutObservabilityOff) {
				ck.Reason, res.Passed = observabilityOffMessage, false
				continue
			}
			actual := sloActuals[ck.Type]
			ck.Actual = &actual
			ck.Pass = compare(actual, ck.Op, ck.Threshold)
			res.Passed = res.Passed && ck.Pass
		}
		res.FromMs, res.ToMs = s.window(0, 0, false, false, widest)
		s.emit(sloResultEvent{head: s.h("harness_slo_result"), Result: res})
	}
}

func compare(a float64, op string, b float64) bool {
	switch op {
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case ">=":
		return a >= b
	case "==":
		return a == b
	}
	return a != b
}
