package runner

import (
	"errors"
	messages "github.com/cucumber/messages/go/v21"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

func doc(t *testing.T, s string) any {
	t.Helper()
	v, err := decodeJSON(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPredicates(t *testing.T) {
	t.Parallel()
	msg := `{"a": "x", "n": 3, "f": 1.5, "b": true, "z": null, "arr": [1, {"k": "v"}], "o": {"p": {"q": "deep"}}, "s": "hello world"}`
	tests := []struct {
		path, pred string
		want       bool
	}{
		{"a", `is "x"`, true},
		{"a", `is x`, true},
		{"a", `is "y"`, false},
		{"a", `is not "y"`, true},
		{"a", `is not "x"`, false},
		{"n", `is 3`, true},
		{"n", `is 3.0`, true},
		{"n", `is "3"`, false},
		{"n", `is at least 3`, true},
		{"n", `is greater than 3`, false},
		{"n", `is less than 4`, true},
		{"f", `is at most 1`, false},
		{"n", `is an integer`, true},
		{"f", `is an integer`, false},
		{"f", `is a number`, true},
		{"a", `is a number`, false},
		{"b", `is true`, true},
		{"b", `is a boolean`, true},
		{"z", `is null`, true},
		{"z", `exists`, true},
		{"missing", `is absent`, true},
		{"missing", `exists`, false},
		{"missing", `is null`, false},
		{"missing", `is not "x"`, false},
		{"arr", `has 2 items`, true},
		{"arr", `has 3 items`, false},
		{"arr", `contains {"k": "v"}`, true},
		{"arr", `contains 2`, false},
		{"arr.1.k", `is "v"`, true},
		{"/arr/1/k", `is "v"`, true},
		{"o.p.q", `is "deep"`, true},
		{"s", `contains "world"`, true},
		{"s", `contains "mars"`, false},
		{"a", `is one of ["x", "y"]`, true},
		{"a", `is one of ["y"]`, false},
		{"o", `is an object`, true},
		{"z", `is null or absent`, true},
		{"missing", `is null or absent`, true},
		{"a", `is null or absent`, false},
		{"s", `does not contain "mars"`, true},
		{"s", `does not contain "world"`, false},
		{"arr", `does not contain {"k": "v"}`, false},
		{"arr", `is an array`, true},
	}
	m := doc(t, msg)
	for _, tt := range tests {
		p, err := parsePredicate(tt.pred)
		if err != nil {
			t.Fatalf("%s: %v", tt.pred, err)
		}
		v, ok := lookup(m, tt.path)
		if got, _ := p.test(v, ok); got != tt.want {
			t.Errorf("%s %s = %v, want %v", tt.path, tt.pred, got, tt.want)
		}
	}
	for _, bad := range []string{"is bigger than 3", "is at least x", "is one of 3", "frobs"} {
		if _, err := parsePredicate(bad); err == nil || !isHarness(err) {
			t.Errorf("predicate %q: want a harness error, got %v", bad, err)
		}
	}
}

func TestSubset(t *testing.T) {
	t.Parallel()
	actual := doc(t, `{"type": "error", "code": "X", "details": {"a": 1, "b": [1, 2]}}`)
	tests := []struct {
		want, path string
		ok         bool
	}{
		{`{"type": "error"}`, "", true},
		{`{"details": {"a": 1.0}}`, "", true},
		{`{"details": {"b": [1, 2]}}`, "", true},
		{`{"details": {"b": [1]}}`, "/details/b", false},
		{`{"code": "Y"}`, "/code", false},
		{`{"nope": 1}`, "/nope", false},
		{`{"details": {"a": {"x": 1}}}`, "/details/a", false},
	}
	for _, tt := range tests {
		p, ok := subset(doc(t, tt.want), actual, "")
		if ok != tt.ok || p != tt.path {
			t.Errorf("subset(%s) = %q, %v; want %q, %v", tt.want, p, ok, tt.path, tt.ok)
		}
	}
}

func TestExpand(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"sid": "s1", "eid": "7"}
	got, err := expand(`{"session_id": "{sid}", "last": {eid}, "obj": {"k": {}}}`, vars)
	if err != nil || got != `{"session_id": "s1", "last": 7, "obj": {"k": {}}}` {
		t.Errorf("expand = %q, %v", got, err)
	}
	if _, err := expand("{nope}", vars); err == nil || !isHarness(err) {
		t.Errorf("unknown variable: want a harness error, got %v", err)
	}
}

func TestJudge(t *testing.T) {
	t.Parallel()
	must, should := &Case{Level: "must"}, &Case{Level: "should"}
	passed := []reports.Step{{Status: "passed"}}
	failedStep := []reports.Step{{Status: "failed", Keyword: "Then", Text: "x", Error: "boom"}}
	finding := func(sev check.Severity, dir wire.Direction) []reports.Finding {
		return []reports.Finding{{Finding: check.Finding{Rule: "r", Severity: sev, Dir: dir}}}
	}
	tests := []struct {
		name     string
		c        *Case
		steps    []reports.Step
		errs     []error
		findings []reports.Finding
		env      string
		want     reports.Verdict
	}{
		{"clean", must, passed, nil, nil, "", reports.Passed},
		{"failed step", must, failedStep, []error{errors.New("boom")}, nil, "", reports.Failed},
		{"failed should", should, failedStep, []error{errors.New("boom")}, nil, "", reports.NonStrict},
		{"harness", must, failedStep, []error{harnessf("net down")}, nil, "", reports.Error},
		{"undefined step", must, []reports.Step{{Status: "undefined", Text: "frob"}}, nil, nil, "", reports.Error},
		{"server error finding", must, passed, nil, finding(check.Error, wire.ServerToClient), "", reports.Failed},
		{"server warning", must, passed, nil, finding(check.Warning, wire.ServerToClient), "", reports.NonStrict},
		{"our own invalid frame", must, passed, nil, finding(check.Error, wire.ClientToServer), "", reports.Passed},
		{"info only", must, passed, nil, finding(check.Info, wire.ServerToClient), "", reports.Passed},
		{"error finding in a should", should, passed, nil, finding(check.Error, wire.ServerToClient), "", reports.Failed},
		{"failed should with an error finding", should, failedStep, []error{errors.New("boom")}, finding(check.Error, wire.ServerToClient), "", reports.Failed},
		{"background error", must, passed, nil, []reports.Finding{{Finding: check.Finding{Rule: "r", Severity: check.Error, Dir: wire.ServerToClient}, Background: true}}, "", reports.Passed},
		{"failed after the environment said no", must, failedStep, []error{errors.New("boom")}, nil, "no model key", reports.Inconclusive},
		{"environment does not hide a broken MUST", must, failedStep, []error{errors.New("boom")}, finding(check.Error, wire.ServerToClient), "no model key", reports.Failed},
		{"environment on a passing scenario", must, passed, nil, nil, "no model key", reports.Passed},
	}
	for _, tt := range tests {
		if got, reason := judge(tt.c, tt.steps, tt.errs, tt.findings, tt.env); got != tt.want {
			t.Errorf("%s: %s (%s), want %s", tt.name, got, reason, tt.want)
		}
	}
}

func TestEndpoints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		dialect, target, ref, want string
	}{
		{"minicodex", "ws://h:1/ws", "", "ws://h:1/ws"},
		{"minicodex", "ws://h:1/ws", "/ws?session_id=s", "ws://h:1/ws?session_id=s"},
		{"minicodex", "ws://h:1/minicodex/ws", "/ws", "ws://h:1/minicodex/ws"},
		{"minicodex", "ws://h:1/custom/socket?token=t", "/ws?a=b", "ws://h:1/custom/socket?a=b&token=t"},
		{"minicodex", "ws://h:1", "", "ws://h:1/ws"},
		{"hostd", "ws://h:1", "/ws/host?host_id=x", "ws://h:1/ws/host?host_id=x"},
		{"hostd", "wss://h:1/hostd/ws/app", "/ws/host", "wss://h:1/hostd/ws/host"},
		{"hostd", "ws://h:1/prefix", "/ws/app", "ws://h:1/prefix/ws/app"},
	}
	for _, tt := range tests {
		d := mustDialect(t, tt.dialect)
		ep, err := newEndpoints(tt.target, d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ep.ws(tt.ref)
		if err != nil || got != tt.want {
			t.Errorf("%s %s + %q = %q, %v; want %q", tt.dialect, tt.target, tt.ref, got, err, tt.want)
		}
	}
	ep, _ := newEndpoints("wss://h:1/hostd/ws/app", mustDialect(t, "hostd"))
	if got, _ := ep.http("/auth/login"); got != "https://h:1/hostd/auth/login" {
		t.Errorf("http = %q", got)
	}
}

func mustDialect(t *testing.T, name string) *dialect.Dialect {
	t.Helper()
	d, err := dialect.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDescribeErrorMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		typ  string
		doc  any
		want string
	}{
		{"error", map[string]any{"message": "prompt already in progress"}, `error("prompt already in progress")`},
		{"system.error", map[string]any{"content": map[string]any{"error": "boom"}}, `system.error("boom")`},
		{"error", map[string]any{"code": "x"}, "error"},
		{"assistant_message", map[string]any{"message": "hi"}, "assistant_message"},
	}
	for _, tt := range tests {
		if got := describeMsg(message{typ: tt.typ, doc: tt.doc}); got != tt.want {
			t.Errorf("describeMsg(%s %v) = %s, want %s", tt.typ, tt.doc, got, tt.want)
		}
	}
}

func TestPreconditionFailed(t *testing.T) {
	t.Parallel()
	pickle := &messages.Pickle{Steps: []*messages.PickleStep{
		{Type: messages.PickleStepType_CONTEXT}, {Type: messages.PickleStepType_ACTION}, {Type: messages.PickleStepType_OUTCOME}}}
	tests := []struct {
		statuses []string
		want     bool
	}{
		{[]string{"failed", "skipped", "skipped"}, true},
		{[]string{"passed", "failed", "skipped"}, false},
		{[]string{"passed", "passed", "failed"}, false},
		{[]string{"passed", "passed", "passed"}, false},
	}
	for _, tt := range tests {
		w := &World{sc: &scenarioRun{c: &Case{pickle: pickle}}}
		for _, st := range tt.statuses {
			w.steps = append(w.steps, reports.Step{Status: st})
		}
		if got := w.preconditionFailed() != ""; got != tt.want {
			t.Errorf("%v: precondition failed = %v, want %v", tt.statuses, got, tt.want)
		}
	}
}
