package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wsconform/wsconform/internal/dialect"
)

// Rule is one requirement the checker enforces. Like an h2spec case it
// carries the requirement text (Summary) and where the spec states it.
type Rule struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	// Evidence is what the spec gives for the rule; it caps Severity.
	Evidence Evidence `json:"evidence"`
	// Dialect is empty for rules that apply to every dialect.
	Dialect string `json:"dialect,omitempty"`
	Spec    string `json:"spec"`
	// Quote is the spec's words (or type) the rule rests on; every error
	// rule has one.
	Quote string `json:"quote,omitempty"`
	// Requires names the entries of the dialect's requirement registry
	// (features/<dialect>/requirements.json) the rule checks, so that a
	// finding says which requirement it is about and its severity can be
	// held to that requirement's evidence (TestRulesCiteRequirements). A
	// rule of every dialect (see Generic) has none: no one registry holds
	// RFC 6455, RFC 8259 or a dialect's own schema.
	Requires []string `json:"requires,omitempty"`
	Summary  string   `json:"summary"`
	// Once makes a session report the rule once, not on every frame: one
	// reading repeated is one finding. OncePerType keys it by message type
	// (an undocumented type), OncePerMember by member, whatever messages
	// carry it (an optional member sent as null).
	Once Once `json:"once,omitempty"`
}

// Once says what makes two findings of a rule the same reading.
type Once string

// The Once scopes; the empty Once reports every finding.
const (
	OncePerType   Once = "type"
	OncePerMember Once = "member"
)

// onceKey is the key a session reports a Once finding once under.
func (o Once) key(f Finding) string {
	what := f.Type
	if o == OncePerMember {
		what = dialect.GenericPointer(f.Pointer)
	}
	return f.Rule + "\x00" + string(f.Dir) + "\x00" + what
}

// at starts a finding of this rule on a frame.
func (r Rule) at(m *message) Finding {
	return Finding{
		Rule:     r.ID,
		Severity: r.Severity,
		Evidence: r.Evidence,
		Spec:     r.Spec,
		Quote:    r.Quote,
		Requires: r.Requires,
		Type:     m.Type,
		Conn:     m.Frame.Conn,
		Dir:      m.Frame.Dir,
		Frame:    m.Frame.Index,
	}
}

// fire is at with a formatted message.
func (r Rule) fire(m *message, format string, args ...any) Finding {
	f := r.at(m)
	f.Message = fmt.Sprintf(format, args...)
	return f
}

// registry holds every rule declared by the rule files, by id.
var registry = map[string]Rule{}

// register adds rules to the catalogue at init time; a duplicate id is a
// programming error caught by the first test run, and so is a rule that
// breaks the evidence policy (TestEvidencePolicy).
func register(rules ...Rule) []Rule {
	for _, r := range rules {
		if _, dup := registry[r.ID]; dup {
			panic("check: duplicate rule id " + r.ID)
		}
		registry[r.ID] = r
	}
	return rules
}

// Lookup returns a rule by id, including the ambiguity rules that dialect
// manifests declare.
func Lookup(id string) (Rule, bool) {
	if r, ok := registry[id]; ok {
		return r, true
	}
	if r, ok := protocolRules[id]; ok {
		return r, true
	}
	for _, name := range dialect.Names() {
		for _, r := range ambiguityRules(name) {
			if r.ID == id {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// Rules returns the catalogue for one dialect (the generic rules plus its
// own), or for every dialect when name is empty, sorted by id.
func Rules(name string) []Rule {
	var out []Rule
	for _, r := range registry {
		if r.Dialect == "" || name == "" || r.Dialect == name {
			out = append(out, r)
		}
	}
	for _, n := range dialect.Names() {
		if name == "" || n == name {
			out = append(out, ambiguityRules(n)...)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Dialect != out[j].Dialect {
			return out[i].Dialect < out[j].Dialect
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// ambiguityRules turns a dialect manifest's ambiguities into rules.
func ambiguityRules(name string) []Rule {
	d, err := dialect.Get(name)
	if err != nil {
		return nil
	}
	var out []Rule
	seen := map[string]bool{}
	for _, a := range d.Ambiguities() {
		if seen[a.ID] { // one contradiction may be declared per direction
			continue
		}
		seen[a.ID] = true
		out = append(out, ambiguityRule(name, a))
	}
	return out
}

// Stateless reports whether a rule judges a frame by itself (the frame and
// schema rules, and a spec's contradictions) rather than the order or
// pairing of frames: its finding is about a member of one message.
func Stateless(id string) bool {
	if r, ok := registry[id]; ok {
		return r.Dialect == ""
	}
	if _, ok := protocolRules[id]; ok {
		return false
	}
	_, ambiguity := Lookup(id)
	return ambiguity
}

// ambiguityRule is the rule of one contradiction of a dialect's spec. Its
// id is the registry's id of the contradiction (an interpretation entry:
// both readings pass), so the rule requires that entry.
func ambiguityRule(name string, a dialect.Ambiguity) Rule {
	return Rule{ID: a.ID, Severity: Warning, Evidence: Interpretation, Dialect: name,
		Spec: a.Spec, Quote: a.Quote, Requires: []string{a.ID}, Summary: a.Summary}
}

// GenericPrefixes are the id prefixes of the rules that apply to every
// dialect: the frame rules (RFC 6455, RFC 8259, RFC 7493), the schema rules
// (whose requirement is the member a schema error names), a recording that
// cannot be read, the proxy's relay findings and a replayed client's
// mismatch. No dialect registry holds their requirements, so they cite
// none; every other rule cites at least one entry of its dialect's
// registry.
var GenericPrefixes = []string{"frame.", "schema.", "recording.", "proxy.", "replay."}

// Generic reports whether a rule id is one of a rule of every dialect,
// which may cite no requirement.
func Generic(id string) bool {
	for _, p := range GenericPrefixes {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return false
}
