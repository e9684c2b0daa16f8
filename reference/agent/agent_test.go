package agent

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestPlan(t *testing.T) {
	t.Parallel()
	pace := Pace{Chunk: time.Millisecond, Slow: 100 * time.Millisecond}
	tests := []struct {
		text  string
		check func(s Script) bool
		want  string
	}{
		{"hello there", func(s Script) bool { return s.Reply() == "Echo: hello there" && s.Tool == nil && s.Fail == "" }, "echo"},
		{"/tool shell {\"cmd\":\"ls\"}", func(s Script) bool {
			return s.Tool != nil && s.Tool.Name == "shell" && s.Tool.NeedsApproval && s.Tool.Args["cmd"] == "ls"
		}, "approval tool call with JSON args"},
		{"/tool shell ls -la", func(s Script) bool { return s.Tool != nil && s.Tool.Args["input"] == "ls -la" }, "non-JSON args kept as input"},
		{"/exec read", func(s Script) bool { return s.Tool != nil && !s.Tool.NeedsApproval }, "tool without approval"},
		{"/tool", func(s Script) bool { return s.Reply() == "Echo: /tool" }, "bare /tool echoes"},
		{"/ask Proceed?", func(s Script) bool {
			return s.Question != nil && s.Question.Kind == "confirm" && s.Question.Text == "Proceed?" && len(s.Question.Options) == 2
		}, "confirm question"},
		{"/ask select Pick a colour", func(s Script) bool {
			return s.Question.Kind == "select" && s.Question.Text == "Pick a colour" && len(s.Question.Options) == 3
		}, "select question"},
		{"/ask text", func(s Script) bool { return s.Question.Kind == "confirm" && s.Question.Text == "text" }, "kind word alone is the question"},
		{"/think step by step", func(s Script) bool { return strings.Join(s.Reasoning, "") == "step by step" }, "reasoning"},
		{"/slow 3", func(s Script) bool { return len(s.Chunks) == 3 && s.Pause == 100*time.Millisecond }, "slow"},
		{"/stream 5", func(s Script) bool { return len(s.Chunks) == 5 && s.Pause == time.Millisecond }, "stream"},
		{"/slow 0", func(s Script) bool { return s.Reply() == "Echo: /slow 0" }, "zero chunks echoes"},
		{"/slow 100001", func(s Script) bool { return s.Reply() == "Echo: /slow 100001" }, "too many chunks echoes"},
		{"/fail", func(s Script) bool { return s.Fail != "" }, "fail with default message"},
		{"/fail boom", func(s Script) bool { return s.Fail == "boom" }, "fail with message"},
		{"", func(s Script) bool { return s.Reply() == "Echo: " }, "empty text"},
	}
	for _, tt := range tests {
		if s := Plan(tt.text, pace); !tt.check(s) {
			t.Errorf("Plan(%q) = %+v; want %s", tt.text, s, tt.want)
		}
	}
}

func TestPlanIsDeterministic(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"/tool a {\"x\":1}", "/ask multiselect which?", "hi", "/slow 4"} {
		a, b := Plan(text, Pace{}), Plan(text, Pace{})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("Plan(%q) differs between calls", text)
		}
	}
}

func FuzzPlan(f *testing.F) {
	for _, c := range Commands {
		f.Add(c.Syntax)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s := Plan(text, Pace{})
		if len(s.Chunks) == 0 && s.Tool == nil && s.Question == nil {
			t.Fatalf("Plan(%q) does nothing", text)
		}
		if len(s.Chunks) > MaxChunks {
			t.Fatalf("Plan(%q) has %d chunks", text, len(s.Chunks))
		}
	})
}
