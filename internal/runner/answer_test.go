package runner

import (
	"encoding/json"
	"testing"

	"github.com/wsconform/wsconform/features"
)

func TestAnswerTemplates(t *testing.T) {
	t.Parallel()
	prompt := map[string]any{"type": "ask", "sessionId": "s1", "requestId": "r1",
		"options": []any{"A", "B", "C"}, "data": map[string]any{"options": []any{map[string]any{"id": "x"}}}}
	tests := []struct {
		tmpl any
		want string
	}{
		{map[string]any{"id": "{$requestId}"}, `{"id":"r1"}`},
		{map[string]any{"a": "{$options.0|yes}"}, `{"a":"A"}`},
		{map[string]any{"a": "{$options.-1|no}"}, `{"a":"C"}`},
		{map[string]any{"a": "{$nothing.0|yes}"}, `{"a":"yes"}`},
		{map[string]any{"a": "{$options}"}, `{"a":["A","B","C"]}`},
		{map[string]any{"a": "id={$data.options.0.id}!"}, `{"a":"id=x!"}`},
		{map[string]any{"n": []any{"{$sessionId}", true}}, `{"n":["s1",true]}`},
	}
	for _, tt := range tests {
		b, _ := json.Marshal(fill(tt.tmpl, prompt))
		if string(b) != tt.want {
			t.Errorf("fill(%v) = %s, want %s", tt.tmpl, b, tt.want)
		}
	}
}

// TestClientSpecs: every dialect's client.json parses, names its prompts'
// replies, and has a template for every policy.
func TestClientSpecs(t *testing.T) {
	t.Parallel()
	for _, d := range []string{"coworker", "hostd", "minicodex", "mitto", "myagent"} {
		spec, err := loadClientSpec(features.FS, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range spec.Answers {
			if a.Prompt == "" || len(a.Replies) == 0 || a.Approve == nil || a.Deny == nil || a.First == nil {
				t.Errorf("%s: answer to %q is incomplete", d, a.Prompt)
			}
		}
	}
}

func TestAnswersItself(t *testing.T) {
	t.Parallel()
	a := answerSpec{Prompt: "approval", Replies: []string{"approval_response", "cancel"}}
	tests := []struct {
		c    Case
		want bool
	}{
		{Case{}, false},
		{Case{Mentions: map[string]bool{"approval": true}}, true},
		{Case{Sends: map[string]bool{"cancel": true}}, true},
		{Case{Sends: map[string]bool{"user_message": true}, Mentions: map[string]bool{"assistant_message": true}}, false},
	}
	for _, tt := range tests {
		if got := tt.c.answersItself(a); got != tt.want {
			t.Errorf("%+v: answersItself = %v, want %v", tt.c, got, tt.want)
		}
	}
}

func TestSkipReason(t *testing.T) {
	t.Parallel()
	ref, foreign := Target{Reference: true}, Target{}
	tests := []struct {
		c    Case
		t    Target
		opts Options
		want string
	}{
		{Case{Fixture: true}, ref, Options{}, ""},
		{Case{Fixture: true}, foreign, Options{Scripted: true, AllowMutations: true}, SkipFixture},
		{Case{Scripted: true}, foreign, Options{}, SkipScripted},
		{Case{Scripted: true}, foreign, Options{Scripted: true}, ""},
		{Case{MutatesTarget: true}, foreign, Options{}, SkipMutates},
		{Case{MutatesTarget: true}, foreign, Options{AllowMutations: true}, ""},
		{Case{}, foreign, Options{}, ""},
	}
	for _, tt := range tests {
		if got := tt.c.SkipReason(tt.t, tt.opts); got != tt.want {
			t.Errorf("%+v on %+v with %+v: %q, want %q", tt.c, tt.t, tt.opts, got, tt.want)
		}
	}
}
