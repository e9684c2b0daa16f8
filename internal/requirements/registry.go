package requirements

import (
	"sort"
	"strings"
)

// Registry is the requirements of one dialect, in file order.
type Registry struct {
	Dialect      string        `json:"dialect"`
	Spec         string        `json:"spec"`
	Requirements []Requirement `json:"requirements"`

	// File is the name the registry was read from, for messages.
	File string `json:"-"`

	dialectLine int
	byID        map[string]int
}

// index builds the lookup table once the entries are known to be unique.
func (r *Registry) index() {
	r.byID = make(map[string]int, len(r.Requirements))
	for i, q := range r.Requirements {
		r.byID[q.ID] = i
	}
}

// Lookup returns the requirement with this id.
func (r *Registry) Lookup(id string) (Requirement, bool) {
	i, ok := r.byID[id]
	if !ok {
		return Requirement{}, false
	}
	return r.Requirements[i], true
}

// IDs returns every id, sorted.
func (r *Registry) IDs() []string {
	ids := make([]string, 0, len(r.Requirements))
	for _, q := range r.Requirements {
		ids = append(ids, q.ID)
	}
	sort.Strings(ids)
	return ids
}

// Filter selects requirements; a zero member selects everything.
type Filter struct {
	// Section matches a requirement whose section contains it, ignoring
	// case and a leading §: "load_events" finds "§load_events Parameters".
	Section  string
	Evidence Evidence
	Level    Level
}

// Select returns the requirements the filter matches, in file order.
func (r *Registry) Select(f Filter) []Requirement {
	want := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(f.Section), "§"))
	var out []Requirement
	for _, q := range r.Requirements {
		if want != "" && !strings.Contains(strings.ToLower(q.Section), want) {
			continue
		}
		if f.Evidence != "" && q.Evidence != f.Evidence {
			continue
		}
		if f.Level != "" && q.Level != f.Level {
			continue
		}
		out = append(out, q)
	}
	return out
}

// Count is how many requirements a registry has of each evidence and level.
type Count map[Evidence]map[Level]int

// Counts tallies the registry by evidence and level.
func (r *Registry) Counts() Count {
	c := Count{}
	for _, q := range r.Requirements {
		if c[q.Evidence] == nil {
			c[q.Evidence] = map[Level]int{}
		}
		c[q.Evidence][q.Level]++
	}
	return c
}
