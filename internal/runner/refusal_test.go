package runner

import (
	"strings"
	"testing"
)

func TestAboutWhat(t *testing.T) {
	t.Parallel()
	others, err := compileRefusals([]refusalSpec{{Match: `observability is off`, Why: "observability is off"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		doc   any
		words []string
		named bool
		other string
	}{
		{"names the member", map[string]any{"type": "error", "data": map[string]any{"message": "missing prompt_id"}}, []string{"prompt_id"}, true, ""},
		{"camel case", map[string]any{"message": "promptId is required"}, []string{"prompt_id"}, true, ""},
		{"spaced", map[string]any{"message": "no prompt id given"}, []string{"prompt_id"}, true, ""},
		{"busy", map[string]any{"message": "prompt already in progress"}, []string{"prompt_id"}, false, "the session was busy with another request"},
		{"disabled", map[string]any{"message": "Observability is disabled for this session."}, []string{"fromMs", "toMs", "window"}, false, "the feature is disabled or unavailable on the target"},
		{"unknown session", map[string]any{"error": "session not found"}, []string{"approval"}, false, "the target did not know the session"},
		{"dialect's own reason", map[string]any{"message": "observability is off"}, []string{"window"}, false, "observability is off"},
		{"names nothing", map[string]any{"message": "bad request"}, []string{"prompt_id"}, false, ""},
		{"code counts", map[string]any{"code": "validation_failed", "message": "x"}, []string{"validation_failed"}, true, ""},
		{"nested text", map[string]any{"data": []any{map[string]any{"detail": "fromMs after toMs"}}}, []string{"fromMs"}, true, ""},
		{"the words win over another reason", map[string]any{"message": "unknown session id"}, []string{"session"}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			named, other := aboutWhat(refusalText(c.doc), c.words, others)
			if named != c.named || other != c.other {
				t.Errorf("aboutWhat(%q, %v) = %v, %q; want %v, %q", refusalText(c.doc), c.words, named, other, c.named, c.other)
			}
		})
	}
}

// TestRefusalTextBounded: a deep or wide hostile refusal gives a bounded
// text, never a panic.
func TestRefusalTextBounded(t *testing.T) {
	t.Parallel()
	var deep any = "bottom"
	for i := 0; i < 10000; i++ {
		deep = []any{deep}
	}
	if got := refusalText(deep); got != "" {
		t.Errorf("text below depth 8 = %q, want none", got)
	}
	wide := make([]any, 10000)
	for i := range wide {
		wide[i] = "w"
	}
	if n := strings.Count(refusalText(wide), "w"); n > 65 {
		t.Errorf("wide refusal gave %d parts, want at most 65", n)
	}
}

func TestTypeIs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		got, want string
		ok        bool
	}{
		{"error", "error", true},
		{"error", "error|observability_query_result", true},
		{"observability_query_result", "error|observability_query_result", true},
		{"observability_query_result", "error | observability_query_result", true},
		{"pong", "error|observability_query_result", false},
		{"err", "error", false},
		{"error|pong", "error|pong", false},
	}
	for _, c := range cases {
		if got := typeIs(c.got, c.want); got != c.ok {
			t.Errorf("typeIs(%q, %q) = %v, want %v", c.got, c.want, got, c.ok)
		}
	}
}
