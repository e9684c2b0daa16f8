package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/wsconform/wsconform/features"
	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/fixture"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/requirements"
	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/schemas"
)

// explainArgs are explain's arguments.
type explainArgs struct {
	ID      string `json:"id" jsonschema:"a rule id (minicodex.replay-gap, schema.violation) or a requirement id (minicodex.handshake.reply), as a problem names them"`
	Dialect string `json:"dialect,omitempty" jsonschema:"the dialect, for a rule of every dialect (schema.violation) and for type"`
	Type    string `json:"type,omitempty" jsonschema:"a message type (a problem's type): adds the spec's valid examples of that message"`
}

func (a *explainArgs) check() error {
	if strings.TrimSpace(a.ID) == "" {
		return fmt.Errorf("argument \"id\": give a rule or requirement id")
	}
	return checkDialect(a.Dialect)
}

// explainRule is a rule of the check engine.
type explainRule struct {
	ID       string   `json:"id"`
	Severity string   `json:"severity"`
	Evidence string   `json:"evidence"`
	Dialect  string   `json:"dialect,omitempty"`
	Spec     string   `json:"spec"`
	Quote    string   `json:"quote,omitempty"`
	Summary  string   `json:"summary" jsonschema:"what conforming traffic does"`
	Requires []string `json:"requires,omitempty"`
}

// explainRequirement is a registry entry with what cites it.
type explainRequirement struct {
	Dialect   string     `json:"dialect"`
	ID        string     `json:"id"`
	Section   string     `json:"section"`
	Quote     string     `json:"quote" jsonschema:"the spec's exact words"`
	Evidence  string     `json:"evidence"`
	Level     string     `json:"level"`
	Reading   string     `json:"reading,omitempty" jsonschema:"our reading, for an interpretation"`
	Untested  string     `json:"untested,omitempty"`
	Rules     []string   `json:"rules"`
	Scenarios []scenario `json:"scenarios" jsonschema:"the conformance scenarios that test it (run them with run_scenarios and tags @id:ID)"`
}

type scenario struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// example is a message from the spec's examples (schemas/<d>/examples).
type example struct {
	Dir     string `json:"dir"`
	Type    string `json:"type"`
	Valid   bool   `json:"valid"`
	Why     string `json:"why,omitempty" jsonschema:"for an invalid example: what is wrong with it"`
	Message any    `json:"message" jsonschema:"the message, a JSON object"`
}

// explainResult is what explain returns.
type explainResult struct {
	ID           string               `json:"id"`
	Kind         string               `json:"kind" jsonschema:"rule or requirement"`
	Rule         *explainRule         `json:"rule,omitempty"`
	Requirements []explainRequirement `json:"requirements"`
	Examples     []example            `json:"examples,omitempty" jsonschema:"conforming messages (valid) and violating ones (invalid) from the spec's examples"`
}

// catalogue is every rule a command reports: the check engine's, the
// proxy's and the replay fixture's (as `wsconform rules`).
func catalogue() []check.Rule {
	rules := check.Rules("")
	rules = append(rules, proxy.Rules()...)
	return append(rules, fixture.Rules()...)
}

// scenarioIndex is the embedded features' scenarios, parsed once.
var scenarioIndex = sync.OnceValues(func() (*runner.Catalog, error) {
	return runner.LoadCatalog(features.FS, []string{"."}, "")
})

// explain answers with the rule or requirement and what cites it.
func (s *Server) explain(_ context.Context, a explainArgs) (explainResult, error) {
	id := strings.TrimSpace(a.ID)
	out := explainResult{ID: id, Requirements: []explainRequirement{}}
	regs, err := registries()
	if err != nil {
		return out, err
	}
	cat, err := scenarioIndex()
	if err != nil {
		return out, fmt.Errorf("read the features: %w", err)
	}
	var reqIDs []string
	for _, r := range catalogue() {
		if r.ID == id {
			out.Kind = "rule"
			out.Rule = &explainRule{ID: r.ID, Severity: r.Severity.String(), Evidence: string(r.Evidence), Dialect: r.Dialect,
				Spec: r.Spec, Quote: r.Quote, Summary: r.Summary, Requires: r.Requires}
			reqIDs = r.Requires
			break
		}
	}
	if out.Kind == "" {
		for _, reg := range regs {
			if _, ok := reg.Lookup(id); ok {
				out.Kind = "requirement"
				reqIDs = []string{id}
			}
		}
	}
	if out.Kind == "" {
		return out, fmt.Errorf("%q is neither a rule nor a requirement id%s", id, suggest(id, regs))
	}
	for _, rid := range reqIDs {
		for _, reg := range regs {
			if q, ok := reg.Lookup(rid); ok {
				out.Requirements = append(out.Requirements, requirementOf(reg.Dialect, q, cat))
			}
		}
	}
	d := a.Dialect
	if d == "" && out.Rule != nil {
		d = out.Rule.Dialect
	}
	if d == "" && len(out.Requirements) > 0 {
		d = out.Requirements[0].Dialect
	}
	if d != "" {
		out.Examples = examples(d, a.Type, id)
	}
	return out, nil
}

// registries are the embedded requirement registries of every dialect.
func registries() ([]*requirements.Registry, error) {
	var out []*requirements.Registry
	for _, n := range dialect.Names() {
		reg, err := requirements.Load(features.FS, n)
		if err != nil {
			return nil, fmt.Errorf("read the requirements: %w", err)
		}
		out = append(out, reg)
	}
	return out, nil
}

// requirementOf is a requirement with the rules and scenarios that cite it.
func requirementOf(d string, q requirements.Requirement, cat *runner.Catalog) explainRequirement {
	out := explainRequirement{Dialect: d, ID: q.ID, Section: q.Section, Quote: q.Quote, Evidence: string(q.Evidence),
		Level: string(q.Level), Reading: q.Reading, Untested: q.Untested, Rules: []string{}, Scenarios: []scenario{}}
	for _, r := range catalogue() {
		for _, id := range r.Requires {
			if id == q.ID {
				out.Rules = addRule(out.Rules, r.ID)
			}
		}
	}
	names := map[string]string{}
	for _, c := range cat.Cases {
		names[c.ID] = c.Name
	}
	ids := append([]string(nil), cat.Citing[q.ID]...)
	sort.Strings(ids)
	for i, id := range ids {
		if i > 0 && ids[i-1] == id {
			continue
		}
		out.Scenarios = append(out.Scenarios, scenario{ID: id, Name: names[id]})
	}
	return out
}

// suggest names up to ten known ids that share the asked id's first
// part, so that a typo is one step from the right id.
func suggest(id string, regs []*requirements.Registry) string {
	prefix, _, _ := strings.Cut(id, ".")
	var near []string
	add := func(x string) {
		if len(near) < 10 && strings.HasPrefix(x, prefix) {
			near = append(near, x)
		}
	}
	for _, r := range catalogue() {
		add(r.ID)
	}
	for _, reg := range regs {
		for _, x := range reg.IDs() {
			add(x)
		}
	}
	if len(near) == 0 {
		return "; `wsconform rules` and `wsconform requirements` list them"
	}
	return "; known ids like it: " + strings.Join(near, ", ")
}

// maxExamples bounds the examples returned.
const maxExamples = 6

// examples are the spec's examples of a dialect for a message type (its
// valid ones) and the invalid ones that show the rule id, with the valid
// messages of their types.
func examples(d, typ, rule string) []example {
	var out []example
	for _, dir := range []string{"s2c", "c2s"} {
		entries, err := fs.ReadDir(schemas.FS, path.Join(d, "examples", dir))
		if err != nil {
			continue
		}
		for _, e := range entries {
			t := strings.TrimSuffix(e.Name(), ".json")
			b, err := fs.ReadFile(schemas.FS, path.Join(d, "examples", dir, e.Name()))
			if err != nil {
				continue
			}
			var ex struct {
				Valid   []any `json:"valid"`
				Invalid []struct {
					Why     string `json:"why"`
					Message any    `json:"message"`
					Rule    string `json:"rule"`
				} `json:"invalid"`
			}
			if json.Unmarshal(b, &ex) != nil {
				continue
			}
			var bad []example
			for _, inv := range ex.Invalid {
				if inv.Rule == rule && (typ == "" || typ == t) {
					bad = append(bad, example{Dir: dir, Type: t, Why: inv.Why, Message: inv.Message})
				}
			}
			if t != typ && len(bad) == 0 {
				continue
			}
			if len(ex.Valid) > 0 && len(out) < maxExamples {
				out = append(out, example{Dir: dir, Type: t, Valid: true, Message: ex.Valid[len(ex.Valid)-1]})
			}
			out = append(out, bad[:min(len(bad), maxExamples-len(out))]...)
		}
	}
	return out
}
