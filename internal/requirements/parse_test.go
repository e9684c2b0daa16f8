package requirements

import (
	"strings"
	"testing"
)

// good is a small valid registry; the bad cases below are edits of it, so
// that each one breaks exactly one thing.
const good = `{
  "dialect": "mini",
  "spec": "mini.md",
  "requirements": [
    {
      "id": "mini.resume.replay-delta",
      "section": "§Handshake & resume",
      "quote": "Server replies welcome + snapshot (optional) + replay delta",
      "evidence": "stated",
      "level": "must"
    },
    {
      "id": "mini.envelope.type",
      "section": "§Envelope",
      "quote": "type: string (discriminator)",
      "evidence": "stated",
      "level": "type"
    },
    {
      "id": "mini.resume.last-seen",
      "section": "§Handshake & resume",
      "quote": "resume with last_seen_event_id",
      "evidence": "interpretation",
      "level": "should",
      "reading": "last_seen_event_id is the last event the client saw",
      "untested": "needs a second client"
    }
  ]
}
`

func TestParseGood(t *testing.T) {
	t.Parallel()
	reg, err := Parse("mini/requirements.json", []byte(good))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if reg.Dialect != "mini" || reg.Spec != "mini.md" || len(reg.Requirements) != 3 {
		t.Fatalf("got dialect %q spec %q and %d requirements", reg.Dialect, reg.Spec, len(reg.Requirements))
	}
	q, ok := reg.Lookup("mini.envelope.type")
	if !ok || q.Level != Type || q.Line != 12 {
		t.Errorf("Lookup(mini.envelope.type) = %+v, %v; want level type at line 12", q, ok)
	}
	if _, ok := reg.Lookup("mini.nope.nope"); ok {
		t.Error("Lookup found an id the registry does not have")
	}
	want := []string{"mini.envelope.type", "mini.resume.last-seen", "mini.resume.replay-delta"}
	if got := reg.IDs(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("IDs() = %v, want %v", got, want)
	}
}

func TestSelect(t *testing.T) {
	t.Parallel()
	reg, err := Parse("mini/requirements.json", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		f    Filter
		want []string
	}{
		{"all", Filter{}, []string{"mini.resume.replay-delta", "mini.envelope.type", "mini.resume.last-seen"}},
		{"section without §, any case", Filter{Section: "handshake"}, []string{"mini.resume.replay-delta", "mini.resume.last-seen"}},
		{"section with §", Filter{Section: "§Envelope"}, []string{"mini.envelope.type"}},
		{"evidence", Filter{Evidence: Interpretation}, []string{"mini.resume.last-seen"}},
		{"level", Filter{Level: Must}, []string{"mini.resume.replay-delta"}},
		{"section and evidence", Filter{Section: "handshake", Evidence: Stated}, []string{"mini.resume.replay-delta"}},
		{"nothing", Filter{Level: May}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, q := range reg.Select(tt.f) {
				got = append(got, q.ID)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("Select(%+v) = %v, want %v", tt.f, got, tt.want)
			}
		})
	}
	c := reg.Counts()
	if c[Stated][Must] != 1 || c[Stated][Type] != 1 || c[Interpretation][Should] != 1 || c[Shown][Must] != 0 {
		t.Errorf("Counts() = %v", c)
	}
}

// TestParseBad edits the good registry one way at a time; each edit must be
// a clear error naming the file and the line of the entry it broke.
func TestParseBad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		old, new string
		want     string // substring of the error, with file and line
	}{
		{"duplicate id", `"mini.envelope.type"`, `"mini.resume.replay-delta"`,
			`mini/requirements.json:12: duplicate id "mini.resume.replay-delta" (first at line 5)`},
		{"unknown evidence", `"evidence": "stated",
      "level": "type"`, `"evidence": "proven",
      "level": "type"`, `mini/requirements.json:12: mini.envelope.type: evidence "proven": want stated, shown or interpretation`},
		{"unknown level", `"level": "type"`, `"level": "MUST"`,
			`mini/requirements.json:12: mini.envelope.type: level "MUST": want must, should, may or type`},
		{"empty quote", `"quote": "type: string (discriminator)"`, `"quote": "  "`,
			`mini/requirements.json:12: mini.envelope.type: no quote`},
		{"missing quote", `"quote": "type: string (discriminator)",`, ``,
			`mini/requirements.json:12: mini.envelope.type: no quote`},
		{"null quote", `"quote": "type: string (discriminator)"`, `"quote": null`,
			`mini/requirements.json:12: mini.envelope.type: no quote`},
		{"interpretation without reading", `"reading": "last_seen_event_id is the last event the client saw",`, ``,
			`mini/requirements.json:19: mini.resume.last-seen: an interpretation says the reading we chose`},
		{"id of another dialect", `"mini.envelope.type"`, `"maxi.envelope.type"`,
			`mini/requirements.json:12: id "maxi.envelope.type" does not start with the dialect "mini."`},
		{"id with two parts", `"mini.envelope.type"`, `"mini.envelope"`,
			`mini/requirements.json:12: id "mini.envelope": want <dialect>.<area>.<what>`},
		{"id in capitals", `"mini.envelope.type"`, `"mini.Envelope.type"`,
			`mini/requirements.json:12: id "mini.Envelope.type"`},
		{"id with underscore", `"mini.envelope.type"`, `"mini.envelope.msg_type"`,
			`mini/requirements.json:12: id "mini.envelope.msg_type"`},
		{"no id", `"id": "mini.envelope.type",`, ``,
			`mini/requirements.json:12: requirement without an id`},
		{"no section", `"section": "§Envelope",`, ``,
			`mini/requirements.json:12: mini.envelope.type: no section`},
		{"unknown member in an entry", `"level": "type"`, `"level": "type", "severity": "error"`,
			`mini/requirements.json:12: unknown field "severity"`},
		{"member twice in an entry", `"level": "type"`, `"level": "type", "quote": "other words"`,
			`mini/requirements.json:12: member "quote" appears twice in one requirement`},
		{"number for a string", `"level": "type"`, `"level": 3`,
			`mini/requirements.json:12: member "level": want a string`},
		{"entry not an object", `    {
      "id": "mini.envelope.type",`, `    "mini.envelope.type", {
      "id": "mini.envelope.type",`, `mini/requirements.json:12: a requirement is a JSON object`},
		{"unknown top-level member", `"spec": "mini.md",`, `"spec": "mini.md", "version": 2,`,
			`mini/requirements.json:3: unknown member "version"`},
		{"top-level member twice", `"spec": "mini.md",`, `"spec": "mini.md", "spec": "other.md",`,
			`mini/requirements.json:3: member "spec" appears twice`},
		{"no dialect", `"dialect": "mini",`, ``, `mini/requirements.json:1: no dialect`},
		{"dialect not a word", `"dialect": "mini"`, `"dialect": "Mini Codex"`,
			`mini/requirements.json:2: dialect "Mini Codex"`},
		{"no spec", `"spec": "mini.md",`, ``, `mini/requirements.json:1: no spec`},
		{"requirements not an array", `"requirements": [`, `"requirements": {"a": [`,
			`mini/requirements.json:4: requirements: want an array, found "{"`},
		{"syntax error", `"level": "must"
    },`, `"level": "must"
    }}`, `mini/requirements.json:11: invalid character '}'`},
		{"truncated", good, good[:200], `unexpected end of file`},
		{"trailing data", good, good + "{}", `mini/requirements.json:30: data after the registry object`},
		{"not an object", good, `[]`, `mini/requirements.json:1: a registry is a JSON object: want "{", found "["`},
		{"empty file", good, ``, `unexpected end of file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if !strings.Contains(good, tt.old) {
				t.Fatalf("the edit's old text is not in the good registry: %q", tt.old)
			}
			data := strings.Replace(good, tt.old, tt.new, 1)
			_, err := Parse("mini/requirements.json", []byte(data))
			if err == nil {
				t.Fatalf("Parse accepted a registry with %s", tt.name)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse error:\n%v\nwant it to contain\n%s", err, tt.want)
			}
		})
	}
}

// TestParseReportsEveryProblem: one pass lists every broken entry, so a
// file is fixed in one round, and the list is capped.
func TestParseReportsEveryProblem(t *testing.T) {
	t.Parallel()
	data := strings.Replace(good, `"evidence": "interpretation"`, `"evidence": "guess"`, 1)
	data = strings.Replace(data, `"level": "must"`, `"level": "strong"`, 1)
	_, err := Parse("f.json", []byte(data))
	if err == nil || !strings.Contains(err.Error(), `f.json:5:`) || !strings.Contains(err.Error(), `f.json:19:`) {
		t.Fatalf("Parse error = %v, want problems at lines 5 and 19", err)
	}

	var b strings.Builder
	b.WriteString(`{"dialect": "mini", "spec": "mini.md", "requirements": [`)
	for i := range 50 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"id": "mini.a.b", "section": "§S", "quote": "q", "evidence": "stated", "level": "must"}`)
	}
	b.WriteString("]}")
	_, err = Parse("f.json", []byte(b.String()))
	if err == nil {
		t.Fatal("Parse accepted 50 entries with one id")
	}
	if n := strings.Count(err.Error(), "\n") + 1; n != maxProblems+1 {
		t.Errorf("Parse reported %d lines, want %d (capped, with a last line saying so)", n, maxProblems+1)
	}
	if !strings.Contains(err.Error(), "too many problems") {
		t.Errorf("Parse error does not say the list was capped:\n%v", err)
	}
}
