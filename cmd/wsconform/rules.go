package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/fixture"
	"github.com/wsconform/wsconform/internal/proxy"
)

func runRules(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlags("rules", "[--dialect NAME] [--json] [--long]",
		"Prints the rule catalogue: every rule's id, severity, evidence and the spec section it\n"+
			"comes from. Evidence is what the spec gives for the rule, and caps its severity:\n"+
			"  stated          the spec's words (MUST, never, every) or types require it: an error\n"+
			"  shown           only an example or a diagram shows it: a warning at most\n"+
			"  interpretation  the spec is silent and this is our reading: a warning at most\n"+
			"--long adds each rule's requirement, the spec words it rests on and the ids of the registry's\n"+
			"requirements it checks (see 'wsconform requirements').", stdout)
	name := fs.String("dialect", "", "only the rules that apply to this dialect ("+strings.Join(dialect.Names(), ", ")+")")
	asJSON := fs.Bool("json", false, "print the catalogue as JSON")
	long := fs.Bool("long", false, "also print each rule's requirement and the spec words it rests on")
	colorMode := fs.String("color", console.ColorAuto, "color output: auto, always or never")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("rules: unexpected argument %q", fs.Arg(0))
	}
	if *name != "" && !dialect.Known(*name) {
		return usageErr("rules: unknown dialect %q (known: %s)", *name, strings.Join(dialect.Names(), ", "))
	}
	rules := catalogue(*name)
	if *asJSON {
		b, err := json.MarshalIndent(rules, "", "  ")
		if err != nil {
			return harnessErr(err)
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	p := console.New(stdout, *colorMode)
	groups := []string{""}
	if *name != "" {
		groups = append(groups, *name)
	} else {
		groups = append(groups, dialect.Names()...)
	}
	for _, g := range groups {
		printGroup(p, stdout, g, rules, *long)
	}
	return nil
}

// catalogue is every rule a command can report for a dialect ("": all):
// the check engine's, plus those of the proxy (its own relay findings) and
// of the replay fixture (a client that differs from a recording), which
// apply to every dialect.
func catalogue(name string) []check.Rule {
	rules := check.Rules(name)
	rules = append(rules, proxy.Rules()...)
	return append(rules, fixture.Rules()...)
}

func printGroup(p *console.Printer, w io.Writer, group string, rules []check.Rule, long bool) {
	var mine []check.Rule
	for _, r := range rules {
		if r.Dialect == group {
			mine = append(mine, r)
		}
	}
	title := group
	if group == "" {
		title = "every dialect"
	}
	p.Bold("%s (%d rules)\n", title, len(mine))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range mine {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Evidence, r.Spec)
		if long {
			fmt.Fprintf(tw, "  \t\t\t%s\n", r.Summary)
			if r.Quote != "" {
				fmt.Fprintf(tw, "  \t\t\trests on: %s\n", r.Quote)
			}
			if len(r.Requires) > 0 {
				fmt.Fprintf(tw, "  \t\t\trequires: %s\n", strings.Join(r.Requires, ", "))
			}
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
}
