package perf

import (
	"strings"
	"testing"
)

func TestParseGoal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		goal string
		want []goal // text is not compared
		ok   bool
	}{
		{"≥ 300k", []goal{{op: "≥", n: 300e3}}, true},
		{">= 1.5M frames/s", []goal{{op: "≥", n: 1.5e6}}, true},
		{"< 50 MB", []goal{{op: "<", n: 50}}, true},
		{"≤ 5", []goal{{op: "≤", n: 5}}, true},
		{"0", []goal{{op: "=", n: 0}}, true},
		{"wsproxy ≥ 0.8× tcp-relay", []goal{{subject: "wsproxy", op: "≥", n: 0.8, ref: "tcp-relay"}}, true},
		{"wsproxy ≥ 0.95x tcp-relay; ≥ 5× mitmproxy", []goal{
			{subject: "wsproxy", op: "≥", n: 0.95, ref: "tcp-relay"},
			{subject: "wsproxy", op: "≥", n: 5, ref: "mitmproxy"},
		}, true},
		{"1,000 xyz", []goal{{op: "=", n: 1000}}, true}, // words after a space are a unit, not a ratio
		{"", nil, false},
		{"fast enough", nil, false},
		{"every dialect ≥ 300k", nil, false},
		{"≥ 300k; soon", nil, false},
	}
	for _, tt := range tests {
		got, ok := parseGoal(tt.goal)
		if ok != tt.ok || len(got) != len(tt.want) {
			t.Errorf("parseGoal(%q) = %+v, %v; want %+v, %v", tt.goal, got, ok, tt.want, tt.ok)
			continue
		}
		for i := range got {
			got[i].text = ""
			if got[i] != tt.want[i] {
				t.Errorf("parseGoal(%q)[%d] = %+v, want %+v", tt.goal, i, got[i], tt.want[i])
			}
		}
	}
}

func TestGoalJudge(t *testing.T) {
	t.Parallel()
	fig := func(vals map[string][]float64) *Figure { return &Figure{Values: vals} }
	notInstalled := map[string]string{"mitmproxy": "not installed: apt-get install mitmproxy"}
	tests := []struct {
		name, goal string
		fig        *Figure
		judged     bool
		met        bool
		why        string
		ratios     string
	}{
		{"every subject met", "≥ 300k", fig(map[string][]float64{"a": {3e5, 4e5, 5e5}, "b": {3.1e5}}), true, true, "", ""},
		{"one subject short", "≥ 300k", fig(map[string][]float64{"a": {4e5}, "b": {2e5}}), true, false, "", ""},
		{"median, not best", "≤ 5", fig(map[string][]float64{"wsconform": {4, 6, 7}}), true, false, "", ""},
		{"ratio met", "wsproxy ≥ 0.8× tcp-relay", fig(map[string][]float64{"wsproxy": {90}, "tcp-relay": {100}, "direct": {10}}), true, true, "", "wsproxy/tcp-relay 0.90×"},
		{"ratio not met", "wsproxy ≥ 0.95× tcp-relay", fig(map[string][]float64{"wsproxy": {90}, "tcp-relay": {100}}), true, false, "", "wsproxy/tcp-relay 0.90×"},
		{"reference not installed", "wsproxy ≥ 5× mitmproxy", fig(map[string][]float64{"wsproxy": {90}}), false, false, "mitmproxy: not installed: apt-get install mitmproxy", ""},
		{"subject missing", "wsproxy ≥ 0.8× tcp-relay", fig(map[string][]float64{"tcp-relay": {100}}), false, false, "no figure for wsproxy", ""},
		{"exactly zero", "0", fig(map[string][]float64{"wsproxy": {0, 0, 3}}), true, true, "", ""},
	}
	for _, tt := range tests {
		gs, ok := parseGoal(tt.goal)
		if !ok || len(gs) != 1 {
			t.Fatalf("%s: goal %q does not read", tt.name, tt.goal)
		}
		v := gs[0].judge(tt.fig, subjectOrder(tt.fig), notInstalled)
		if v.judged != tt.judged || v.met != tt.met || v.why != tt.why || strings.Join(v.ratios, "; ") != tt.ratios {
			t.Errorf("%s: judge = %+v; want judged %v met %v why %q ratios %q", tt.name, v, tt.judged, tt.met, tt.why, tt.ratios)
		}
	}
}
