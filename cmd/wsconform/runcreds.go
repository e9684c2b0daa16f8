package main

import (
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"

	"github.com/wsconform/wsconform/features"
	"github.com/wsconform/wsconform/internal/runner"
)

// credentialRef matches the scenario variables that only the user can
// supply against a target of their own: the reference server's demo
// credentials (runner.ReferenceVars) are filled in for it alone.
var credentialRef = regexp.MustCompile(`\{(user|password|host_token)\}`)

// scenarioStart is a line that starts a scenario (or a rule) in Gherkin.
var scenarioStart = regexp.MustCompile(`^\s*(Scenario|Scenario Outline|Scenario Template|Example|Rule):`)

// checkCredentials refuses, before anything connects, a run whose
// scenarios need credentials that were not given (--var user=…): one
// usage error naming the --var flags, not one scenario error each.
// Scenarios the run would skip anyway (scripted without --scripted,
// mutating without --allow-mutations, reference fixtures) do not count.
func checkCredentials(cat *runner.Catalog, opts runner.Options, f *runFlags) error {
	fsys := opts.Features
	if fsys == nil {
		fsys = features.FS
	}
	missing := map[string]bool{}
	needing := map[string]int{} // dialect → scenarios that need a missing one
	texts := map[string]string{}
	for _, c := range cat.Cases {
		if (c.Scripted && !f.scripted) || (c.MutatesTarget && !f.mutations) || c.Fixture {
			continue
		}
		text, ok := texts[c.File]
		if !ok {
			b, err := fs.ReadFile(fsys, strings.TrimPrefix(c.File, "./"))
			if err != nil {
				continue // the runner reports what it cannot read
			}
			text = string(b)
			texts[c.File] = text
		}
		need := false
		for _, m := range credentialRef.FindAllStringSubmatch(scenarioText(text, c.Line), -1) {
			if _, set := opts.Vars[m[1]]; !set {
				missing[m[1]] = true
				need = true
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
	for _, n := range []string{"user", "password", "host_token"} {
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

// scenarioText is what a scenario starting at line (1-based) reads: the
// feature's header and Background (everything before its first scenario)
// and its own lines up to the next scenario.
func scenarioText(text string, line int) string {
	lines := strings.Split(text, "\n")
	var b strings.Builder
	for _, l := range lines {
		if scenarioStart.MatchString(l) {
			break
		}
		b.WriteString(l + "\n")
	}
	if line < 1 || line > len(lines) {
		return b.String()
	}
	for i := line - 1; i < len(lines); i++ {
		if i > line-1 && scenarioStart.MatchString(lines[i]) {
			break
		}
		b.WriteString(lines[i] + "\n")
	}
	return b.String()
}
