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
	// Rule is the check rule id the violation must make fire. Empty for a
	// behaviour the spec allows (a real server's choice where the spec is
	// silent): no rule fires, and the runner's catalogue names the
	// scenarios that must notice it.
	Rule string
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
