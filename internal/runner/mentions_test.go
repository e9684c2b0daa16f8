package runner

import "testing"

func TestMentionsPredicate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		pred    string
		v       any
		present bool
		want    bool
	}{
		{"reference result", `mentions "You answered: yes"`, map[string]any{"status": "completed", "answer": "You answered: yes"}, true, true},
		{"nested in another server's shape", `mentions "You answered: Ada"`, map[string]any{"output": map[string]any{"answer": "You answered: Ada"}, "summary": "You answered: Ada"}, true, true},
		{"case and spacing ignored", `mentions "you answered: yes"`, "YOU  ANSWERED yes.", true, true},
		{"the answer was lost", `mentions "You answered: yes"`, map[string]any{"output": map[string]any{"answer": "You answered: None"}}, true, false},
		{"a plain string", `mentions "Ada"`, "You answered: Ada", true, true},
		{"absent", `mentions "Ada"`, nil, false, false},
		{"not text", `mentions "1"`, true, true, false},
		{"empty words mention nothing", `mentions ""`, "anything", true, false},
		{"a bare word", `mentions yes`, []any{"no", "yes"}, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, err := parsePredicate(c.pred)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := p.test(c.v, c.present); got != c.want {
				t.Errorf("%s on %#v = %v, want %v", c.pred, c.v, got, c.want)
			}
		})
	}
}
