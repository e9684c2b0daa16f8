package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/wsconform/wsconform/features"
	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/requirements"
	"github.com/wsconform/wsconform/internal/runner"
)

// tagReq is the tag by which a scenario cites a requirement: @req:<id>.
const tagReq = "@req:"

// requirementFeatures is the feature tree whose @req: tags the command
// reads: the embedded features (a test swaps in its own).
var requirementFeatures fs.FS = features.FS

func runRequirements(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlags("requirements", "[--dialect NAME] [--section TEXT] [--evidence KIND] [--level LEVEL] [--untested] [--long] [--json] [--file FILE]",
		"Prints the requirement registry of each dialect (features/<dialect>/requirements.json): every\n"+
			"requirement's id, evidence, level and spec section, with the rules of the check engine and the\n"+
			"scenarios (their @req: tags) that cite it. A requirement that neither cites is untested.\n"+
			"Evidence is what the spec gives (stated, shown, interpretation) and caps the severity of a\n"+
			"finding; level is how strongly the words bind (must, should, may, type).\n"+
			"--file reads your own registry instead of the embedded ones (a bad file is exit 2).", stdout)
	name := fs.String("dialect", "", "only this dialect's requirements ("+strings.Join(dialect.Names(), ", ")+")")
	section := fs.String("section", "", "only requirements whose spec section contains TEXT (case aside, a leading § optional)")
	evidence := fs.String("evidence", "", "only requirements of this evidence: stated, shown or interpretation")
	level := fs.String("level", "", "only requirements of this level: must, should, may or type")
	untested := fs.Bool("untested", false, "only requirements no rule and no scenario cites")
	long := fs.Bool("long", false, "also print each requirement's quote, our reading and why it is untested")
	asJSON := fs.Bool("json", false, "print the requirements as JSON")
	file := fs.String("file", "", "read this `FILE` (a requirements.json) instead of the embedded registries")
	colorMode := fs.String("color", console.ColorAuto, "color output: auto, always or never")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("requirements: unexpected argument %q", fs.Arg(0))
	}
	if *name != "" && !dialect.Known(*name) {
		return usageErr("requirements: unknown dialect %q (known: %s)", *name, strings.Join(dialect.Names(), ", "))
	}
	filter := reqFilter{Filter: requirements.Filter{Section: *section}, Untested: *untested}
	if *evidence != "" {
		if filter.Evidence = requirements.Evidence(*evidence); !filter.Evidence.Valid() {
			return usageErr("requirements: --evidence %q: want stated, shown or interpretation", *evidence)
		}
	}
	if *level != "" {
		if filter.Level = requirements.Level(*level); !filter.Level.Valid() {
			return usageErr("requirements: --level %q: want must, should, may or type", *level)
		}
	}
	regs, err := loadRegistries(*file, *name)
	if err != nil {
		return err
	}
	scenarios, err := scenarioCitations(requirementFeatures)
	if err != nil {
		return harnessErr(fmt.Errorf("requirements: %w", err))
	}
	rows := requirementRows(regs, ruleCitations(catalogue("")), scenarios, filter)
	if *asJSON {
		b, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return harnessErr(err)
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	printRequirements(console.New(stdout, *colorMode), regs, rows, *long)
	return nil
}

// loadRegistries reads the user's registry file, or the embedded registry
// of one dialect ("": every dialect). A user's file that is not a
// registry is a usage error naming the file and line.
func loadRegistries(file, name string) ([]*requirements.Registry, error) {
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, usageErr("requirements: %v", err)
		}
		reg, err := requirements.Parse(file, data)
		if err != nil {
			// One line: the console escapes the newlines of an error.
			return nil, usageErr("requirements: %s", strings.ReplaceAll(err.Error(), "\n", "; "))
		}
		if name != "" && reg.Dialect != name {
			return nil, usageErr("requirements: %s holds dialect %q, not %q", file, reg.Dialect, name)
		}
		return []*requirements.Registry{reg}, nil
	}
	names := dialect.Names()
	if name != "" {
		names = []string{name}
	}
	var out []*requirements.Registry
	for _, n := range names {
		reg, err := requirements.Load(features.FS, n)
		if err != nil {
			return nil, harnessErr(fmt.Errorf("requirements: %w", err))
		}
		out = append(out, reg)
	}
	return out, nil
}

// reqFilter selects requirements: the registry's filter, and Untested for
// those nothing cites.
type reqFilter struct {
	requirements.Filter
	Untested bool
}

// reqRow is one requirement with the rules and scenarios that cite it.
type reqRow struct {
	Dialect string `json:"dialect"`
	requirements.Requirement
	Rules     []string `json:"rules"`
	Scenarios []string `json:"scenarios"`
}

// citations maps a requirement id to the ids of what cites it, sorted.
type citations map[string][]string

// ruleCitations is which rules cite each requirement.
func ruleCitations(rules []check.Rule) citations {
	out := citations{}
	for _, r := range rules {
		for _, id := range r.Requires {
			out[id] = append(out[id], r.ID)
		}
	}
	return out.sorted()
}

// scenarioCitations is which scenarios of a feature tree cite each
// requirement with an @req: tag.
func scenarioCitations(fsys fs.FS) (citations, error) {
	cat, err := runner.LoadCatalog(fsys, []string{"."}, "")
	if err != nil {
		return nil, err
	}
	out := citations{}
	for _, c := range cat.Cases {
		for _, tag := range c.Tags {
			if id, ok := strings.CutPrefix(tag, tagReq); ok && id != "" {
				out[id] = append(out[id], c.ID)
			}
		}
	}
	return out.sorted(), nil
}

// sorted sorts each list and drops repeats (a rule registered per
// direction, a scenario outline's examples).
func (c citations) sorted() citations {
	for id, list := range c {
		sort.Strings(list)
		var uniq []string
		for i, s := range list {
			if i == 0 || s != list[i-1] {
				uniq = append(uniq, s)
			}
		}
		c[id] = uniq
	}
	return c
}

// requirementRows joins the registries with their citations and applies
// the filter, in registry order.
func requirementRows(regs []*requirements.Registry, rules, scenarios citations, f reqFilter) []reqRow {
	rows := []reqRow{}
	for _, reg := range regs {
		for _, q := range reg.Select(f.Filter) {
			row := reqRow{Dialect: reg.Dialect, Requirement: q,
				Rules: orEmpty(rules[q.ID]), Scenarios: orEmpty(scenarios[q.ID])}
			if f.Untested && (len(row.Rules) > 0 || len(row.Scenarios) > 0) {
				continue
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// orEmpty makes a nil list an empty one, so that JSON shows [] not null.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// printRequirements prints the rows grouped by dialect, every text through
// the printer (a user's registry file is printed escaped).
func printRequirements(p *console.Printer, regs []*requirements.Registry, rows []reqRow, long bool) {
	for _, reg := range regs {
		var mine []reqRow
		width := 0
		for _, r := range rows {
			if r.Dialect == reg.Dialect {
				mine = append(mine, r)
				width = max(width, utf8.RuneCountInString(console.Escape(r.ID)))
			}
		}
		untested := 0
		for _, r := range mine {
			if len(r.Rules) == 0 && len(r.Scenarios) == 0 {
				untested++
			}
		}
		p.Bold("%s (%d requirements, %d cited by no rule or scenario)\n", reg.Dialect, len(mine), untested)
		for _, r := range mine {
			pad := strings.Repeat(" ", width-utf8.RuneCountInString(console.Escape(r.ID)))
			p.Printf("  %s%s  %-14s  %-6s  %s\n", r.ID, pad, r.Evidence, r.Level, r.Section)
			p.Printf("      rules: %s\n", joinOrNone(r.Rules))
			p.Printf("      scenarios: %s\n", joinOrNone(r.Scenarios))
			if long {
				p.Printf("      quote: %s\n", r.Quote)
				if r.Reading != "" {
					p.Printf("      reading: %s\n", r.Reading)
				}
				if r.Untested != "" {
					p.Printf("      untested: %s\n", r.Untested)
				}
			}
		}
		p.Printf("\n")
	}
}

func joinOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
