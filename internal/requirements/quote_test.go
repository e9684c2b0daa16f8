package requirements

import (
	"strings"
	"testing"
)

func TestCollapse(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"  a \t b\n\nc  ", "a b c"},
		{"| `limit`      | int   | Maximum |", "| `limit` | int | Maximum |"},
		{"**Key**: step_id", "**Key**: step_id"}, // markdown is kept
		{"", ""},
	}
	for _, tt := range tests {
		if got := Collapse(tt.in); got != tt.want {
			t.Errorf("Collapse(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// spec is a small spec for the quote checks.
const spec = "Handshake & resume\n- Server replies welcome + snapshot (optional) +\n  replay delta\n\nEnvelope\n- type: string (discriminator)\n"

func TestCheckQuotes(t *testing.T) {
	t.Parallel()
	reg, err := Parse("mini/requirements.json", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	// The third quote is not in spec: exactly that one is reported, with
	// its file and line.
	errs := CheckQuotes(reg, spec)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "mini/requirements.json:19: mini.resume.last-seen: quote not found in mini.md") {
		t.Fatalf("CheckQuotes = %v, want one problem for mini.resume.last-seen at line 19", errs)
	}

	tests := []struct {
		name  string
		quote string
		found bool
	}{
		{"wrapped where the spec is not", "Server replies welcome +\nsnapshot (optional) + replay delta", true},
		{"a word edited", "Server replies welcome + snapshot (optional) + replay deltas", false},
		{"case changed", "server replies welcome", false},
		{"markdown dropped", "type: string discriminator", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &Registry{File: "f", Spec: "mini.md", Requirements: []Requirement{{ID: "mini.a.b", Quote: tt.quote}}}
			if got := len(CheckQuotes(r, spec)) == 0; got != tt.found {
				t.Errorf("quote %q found = %v, want %v", tt.quote, got, tt.found)
			}
		})
	}
}

func TestCheckWording(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		q    Requirement
		ok   bool
	}{
		{"must with must", Requirement{Evidence: Stated, Level: Must, Quote: "unknown fields must be ignored."}, true},
		{"must with MUST", Requirement{Evidence: Stated, Level: Must, Quote: "the endpoint MUST NOT send"}, true},
		{"guarantee", Requirement{Evidence: Stated, Level: Must, Quote: "`index` is monotonic (0-based)"}, true},
		{"description only", Requirement{Evidence: Stated, Level: Must, Quote: "Client acknowledges receipt"}, false},
		{"musty is not must", Requirement{Evidence: Stated, Level: Must, Quote: "a musty room"}, false},
		{"should", Requirement{Evidence: Stated, Level: Should, Quote: "(should usually end with `\\n`)"}, true},
		{"should without should", Requirement{Evidence: Stated, Level: Should, Quote: "must be ignored"}, false},
		{"may", Requirement{Evidence: Stated, Level: May, Quote: "clients may request replay"}, true},
		{"may without may", Requirement{Evidence: Stated, Level: May, Quote: "Human-readable button text"}, false},
		{"type with a member", Requirement{Evidence: Stated, Level: Type, Quote: "- `exit_code`: integer"}, true},
		{"type with a Literal", Requirement{Evidence: Stated, Level: Type, Quote: "Literal[\"drain\", \"ok\"]"}, true},
		{"type without syntax", Requirement{Evidence: Stated, Level: Type, Quote: "Tool status update"}, false},
		{"a message's definition under its heading", Requirement{Evidence: Stated, Level: Must, Quote: "### reset\n\nClear conversation history and todos."}, true},
		{"a heading without a definition", Requirement{Evidence: Stated, Level: Must, Quote: "### reset"}, false},
		{"a heading in the middle", Requirement{Evidence: Stated, Level: Must, Quote: "Clear it. ### reset"}, false},
		{"test matrix line", Requirement{Evidence: Stated, Level: Must, Section: "§Test matrix", Quote: "Abort: abort mid-run → aborted terminal"}, true},
		{"shown is not checked", Requirement{Evidence: Shown, Level: Must, Quote: "{approved: true}"}, true},
		{"interpretation is not checked", Requirement{Evidence: Interpretation, Level: Should, Quote: "New connection receives"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.q.ID = "mini.a.b"
			err := CheckWording(tt.q)
			if (err == nil) != tt.ok {
				t.Errorf("CheckWording(%q) = %v, want ok %v", tt.q.Quote, err, tt.ok)
			}
		})
	}
}
