package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wsconform/wsconform/internal/runner"
)

// credentials are the scenario variables only the user can supply against
// a target of their own; the reference server's demo credentials
// (runner.ReferenceVars) are filled in for it alone.
var credentials = []string{"user", "password", "host_token"}

// checkCredentials refuses, before anything connects, a run whose
// scenarios need credentials that were not given (--var user=…): one
// usage error naming the --var flags, not one scenario error each.
// Scenarios the run skips anyway do not count.
func checkCredentials(cat *runner.Catalog, opts runner.Options) error {
	missing := map[string]bool{}
	needing := map[string]int{} // dialect → scenarios that need a missing one
	for _, c := range cat.Cases {
		runs := false
		for _, t := range opts.Targets {
			runs = runs || c.SkipReason(t, opts) == ""
		}
		need := false
		for _, name := range credentials {
			if _, set := opts.Vars[name]; runs && c.Vars[name] && !set {
				missing[name], need = true, true
			}
		}
		if need {
			needing[c.Dialect]++
		}
	}
	if len(missing) == 0 {
		return nil
	}
	var names, vars, ds []string
	for _, n := range credentials {
		if missing[n] {
			names = append(names, n)
			vars = append(vars, fmt.Sprintf("--var %s=…", n))
		}
	}
	n := 0
	for d, k := range needing {
		ds = append(ds, d)
		n += k
	}
	sort.Strings(ds)
	return usageErr("run: %d %s scenarios log in to the target: pass %s (the embedded reference server supplies its demo login; against a target, only you know %s)",
		n, strings.Join(ds, "/"), strings.Join(vars, " "), strings.Join(names, ", "))
}
