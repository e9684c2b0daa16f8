package server

import (
	"fmt"
	"sort"
	"strings"
)

// Mutation is a deliberate spec violation a dialect can commit on request
// (--mutate NAME), so the conformance runner can prove it catches it.
type Mutation struct {
	Name    string
	Summary string
	// Rule is the check rule id the violation must make fire. Empty when
	// no rule can see it: then the runner's catalogue names the scenarios
	// whose steps must notice it (fail) or that it must leave inconclusive
	// (a fake of a vacuous pass: a refusal for another reason, an ignored
	// action).
	Rule string
	// Allowed marks a behaviour the spec allows (a real server's choice
	// where the spec is silent), not a violation: the suite must pass
	// against it, except the scenarios that test exactly that choice.
	Allowed bool
}

// Fires says in words what the mutation makes happen, for serve
// --list-mutations.
func (m Mutation) Fires() string {
	switch {
	case m.Rule != "":
		return "fires " + m.Rule
	case m.Allowed:
		return "no rule: the spec allows it"
	default:
		return "no rule: its scenarios' steps fail, or it makes them inconclusive"
	}
}

// Mutations is the set of mutations a server commits. The zero value
// commits none.
type Mutations map[string]bool

// Has reports whether mutation name is on.
func (m Mutations) Has(name string) bool { return m[name] }

// ParseMutations checks names against the mutations the served dialects
// offer and returns the set.
func ParseMutations(names []string, offered []Mutation) (Mutations, error) {
	known := map[string]bool{}
	for _, o := range offered {
		known[o.Name] = true
	}
	set := Mutations{}
	for _, n := range names {
		if !known[n] {
			all := make([]string, 0, len(known))
			for k := range known {
				all = append(all, k)
			}
			sort.Strings(all)
			return nil, fmt.Errorf("unknown mutation %q (offered: %s)", n, strings.Join(all, ", "))
		}
		set[n] = true
	}
	return set, nil
}
