package check

import (
	"fmt"
	"sort"

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
	Quote   string `json:"quote,omitempty"`
	Summary string `json:"summary"`
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
		out = append(out, Rule{ID: a.ID, Severity: Warning, Evidence: Interpretation, Dialect: name,
			Spec: a.Spec, Quote: a.Quote, Summary: a.Summary})
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
	_, ambiguity := Lookup(id)
	return ambiguity
}
