package requirements_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/requirements"
)

// quoted finds the double-quoted passages of a rule's quote (a rule often
// quotes several passages, with its own words between them).
var quoted = regexp.MustCompile(`"([^"]+)"`)

// trailingNote is a rule's own comment after the words it quotes: "…
// (a flow diagram)".
var trailingNote = regexp.MustCompile(`\s*\([^()]*\)$`)

// passages are the pieces of a rule's quote that may be the spec's words:
// its double-quoted passages, and its pieces between "…" and ";" without a
// trailing note of ours; each of three words or more (a rule may quote
// less than a whole sentence).
func passages(rq string) []string {
	var out []string
	add := func(p string) {
		if p = strings.TrimSpace(p); len(strings.Fields(p)) >= 3 {
			out = append(out, p)
		}
	}
	for _, m := range quoted.FindAllStringSubmatch(rq, -1) {
		add(m[1])
	}
	for _, piece := range strings.FieldsFunc(rq, func(r rune) bool { return r == '…' || r == ';' }) {
		add(trailingNote.ReplaceAllString(strings.TrimSpace(piece), ""))
	}
	return out
}

// coveringEntries returns the registry entries a rule's quote rests on:
// those whose quote is inside the rule's quote, and those that contain a
// passage of it. Markdown emphasis and backticks are dropped on both sides:
// some rules quote the spec's words without them.
func coveringEntries(ruleQuote string, reg *requirements.Registry) []requirements.Requirement {
	rq := plainWords(ruleQuote)
	ps := passages(rq)
	var out []requirements.Requirement
	for _, q := range reg.Requirements {
		text := plainWords(q.Quote)
		hit := strings.Contains(rq, text)
		for _, p := range ps {
			hit = hit || strings.Contains(text, p)
		}
		if hit {
			out = append(out, q)
		}
	}
	return out
}

// plainWords is a quote without emphasis or backticks, white space
// collapsed.
func plainWords(s string) string {
	return requirements.Collapse(strings.NewReplacer("**", "", "`", "").Replace(s))
}

// quotesDialect reports whether a rule that applies to every dialect
// quotes this dialect's spec ("mitto: \"…\"").
func quotesDialect(r check.Rule, name string) bool {
	return strings.Contains(r.Quote, name+": ")
}

// TestRulesCovered: every rule of the check engine that quotes a dialect's
// spec rests on entries of that dialect's registry, so that the rule can
// cite them. It lists the rules whose quote no registry quote covers. It
// also logs the rules whose evidence is stated while every entry they rest
// on is not: a severity the registry does not support.
func TestRulesCovered(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			reg := load(t, name)
			for _, r := range check.Rules(name) {
				if strings.TrimSpace(r.Quote) == "" || (r.Dialect == "" && !quotesDialect(r, name)) {
					continue
				}
				entries := coveringEntries(r.Quote, reg)
				if len(entries) == 0 {
					t.Errorf("rule %s (%s): no %s requirement covers its quote %q", r.ID, r.Evidence, name, r.Quote)
					continue
				}
				if r.Evidence != check.Stated {
					continue
				}
				stated := false
				for _, q := range entries {
					stated = stated || q.Evidence == requirements.Stated
				}
				if !stated {
					t.Logf("rule %s is stated, but the entries it rests on are not: %v", r.ID, ids(entries))
				}
			}
		})
	}
}

func ids(qs []requirements.Requirement) []string {
	var out []string
	for _, q := range qs {
		out = append(out, q.ID+" ("+string(q.Evidence)+")")
	}
	return out
}

// TestCoveringEntries: the coverage test can fail.
func TestCoveringEntries(t *testing.T) {
	t.Parallel()
	reg, err := requirements.Parse("d/requirements.json", []byte(`{"dialect": "d", "spec": "d.md", "requirements": [
		{"id": "d.a.one", "section": "§A", "quote": "unknown fields must be ignored.", "evidence": "stated", "level": "must"},
		{"id": "d.a.two", "section": "§A", "quote": "- `+"`seq`"+`: monotonically increasing per run", "evidence": "stated", "level": "must"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ruleQuote string
		want      string
	}{
		{`§A: "Fields may be added over time; unknown fields must be ignored."`, "d.a.one (stated)"},
		{`"monotonically increasing per run" (our reading of it)`, "d.a.two (stated)"},
		{`"increasing"`, ""}, // too short to be a passage
		{`"unknown fields are ignored"`, ""},
		{"unknown **fields** must be `ignored`. (emphasis and backticks aside)", "d.a.one (stated)"},
		{"seq: monotonically increasing per run (a note of ours); other words", "d.a.two (stated)"},
		{"other words … monotonically increasing per run … more words", "d.a.two (stated)"},
	}
	for _, tt := range tests {
		if got := strings.Join(ids(coveringEntries(tt.ruleQuote, reg)), " "); got != tt.want {
			t.Errorf("coveringEntries(%q) = %q, want %q", tt.ruleQuote, got, tt.want)
		}
	}
}

// TestRuleQuotesVerbatim logs the quoted passages of check-engine rules
// that are not the spec's words verbatim (white space collapsed): the
// registry quotes are held to that standard, the rules are not yet. It
// does not fail: the rules will cite registry ids instead of quoting.
func TestRuleQuotesVerbatim(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			reg := load(t, name)
			spec := requirements.Collapse(readSpec(t, reg))
			for _, r := range check.Rules(name) {
				if r.Dialect != name {
					continue
				}
				for _, m := range quoted.FindAllStringSubmatch(requirements.Collapse(r.Quote), -1) {
					if p := strings.TrimSpace(m[1]); len(strings.Fields(p)) >= 3 && !strings.Contains(spec, p) {
						t.Logf("rule %s quotes %q, not verbatim in %s", r.ID, p, reg.Spec)
					}
				}
			}
		})
	}
}
