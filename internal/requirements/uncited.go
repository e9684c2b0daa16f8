package requirements

// Uncited lists the requirements that nothing cites and that do not say
// why they are untested: the gaps a protocol team must see. cited holds
// the ids that rules and scenarios name; an id cited but absent from the
// registry is not Uncited's business (Unknown reports it).
func Uncited(reg *Registry, cited map[string]bool) []Requirement {
	var out []Requirement
	for _, q := range reg.Requirements {
		if !cited[q.ID] && q.Untested == "" {
			out = append(out, q)
		}
	}
	return out
}

// Unknown lists the cited ids that the registry does not have, sorted as
// given: a rule or scenario citing a requirement that does not exist.
func Unknown(reg *Registry, cited []string) []string {
	var out []string
	for _, id := range cited {
		if _, ok := reg.Lookup(id); !ok {
			out = append(out, id)
		}
	}
	return out
}
