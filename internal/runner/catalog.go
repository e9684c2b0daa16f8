package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v21"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/requirements"
)

// Case is one scenario as written: its stable id, level, dialect and tags.
type Case struct {
	ID      string
	Name    string
	Feature string
	File    string
	Line    int
	Dialect string
	// Level is derived from the primary requirement (Levels), or read from
	// @must / @should in a feature tree without a registry.
	Level string
	Tags  []string
	// Reqs are the ids of its @req:ID tags in the order written; the
	// first is its primary requirement (Primary, from the registry): the
	// one it is about, whose evidence and level give it its level.
	Reqs     []string
	Primary  *requirements.Requirement
	Scripted bool
	// MutatesTarget: the scenario changes state outside its session
	// (stored credentials, skills, workspace backups); it runs against a
	// foreign target only with --allow-mutations.
	MutatesTarget bool
	// Fixture: the scenario reads data only the reference server ships
	// (demo skills, a slash command, an observability back end); it never
	// runs against a foreign target.
	Fixture bool
	// Serial: the scenario shares server state with others and runs
	// alone, after the concurrent ones.
	Serial bool
	// Timeout is the scenario's own budget (@timeout:D, budget.go); 0
	// keeps Timeouts.Scenario.
	Timeout time.Duration
	// Sends holds the message types the scenario sends itself, Mentions
	// the quoted words of its steps: a prompt the scenario waits for by
	// name, or whose reply it sends, is left to the scenario.
	Sends    map[string]bool
	Mentions map[string]bool
	// Vars are the {variables} its steps (Background included) use.
	Vars        map[string]bool
	Requirement string
	// tagLevel is what @must / @should say, checked against the derived
	// level (a checked redundancy) or, without a registry, the level.
	tagLevel string
	pickle   *messages.Pickle
}

// Catalog is the scenarios of a feature tree, by id, in file order.
type Catalog struct {
	Cases []*Case
	// Registries are the requirement registries of the dialects of Cases
	// that have one, in dialect order.
	Registries []*requirements.Registry
	// Citing lists, per requirement id, the ids of every scenario of the
	// features that cites it, selected by the tags or not: coverage tells
	// "no scenario" from "not selected" with it.
	Citing   map[string][]string
	byPickle map[string]*Case
	keywords map[string]string // step AST id → "Given ", "When "…
	// pickles counts every scenario of the features, selected or not:
	// no more than these run in one godog suite (schedule.go).
	pickles int
}

// Tag conventions of the features.
const (
	tagID       = "@id:"
	tagReq      = "@req:"
	tagMust     = "@must"
	tagShould   = "@should"
	tagScripted = "@scripted"
	tagMutates  = "@mutates-target"
	tagSerial   = "@serial"
	tagFixture  = "@reference-fixture"
)

// LoadCatalog parses the features under paths of fsys, keeping the
// scenarios that match the tag expression. Every scenario must carry an
// @id, a level (its primary @req:ID, or @must/@should where the dialect
// has no registry) and a dialect (tag or top folder); all problems are
// returned together. The tag expression also sees a scenario's derived
// level as a tag (@must, @should, @may, @shown, @interpretation), so that
// "@must && ~@scripted" selects what it always did.
func LoadCatalog(fsys fs.FS, paths []string, tags string) (*Catalog, error) {
	if err := checkTagExpr(tags); err != nil {
		return nil, err
	}
	suite := godog.TestSuite{Options: &godog.Options{FS: fsys, Paths: paths}}
	features, err := suite.RetrieveFeatures()
	if err != nil {
		return nil, fmt.Errorf("read features: %w", err)
	}
	cat := &Catalog{byPickle: map[string]*Case{}, keywords: map[string]string{}, Citing: map[string][]string{}}
	regs := newRegistries(fsys)
	var problems []string
	seen := map[string]string{}
	for _, ft := range features {
		cat.addKeywords(ft.GherkinDocument)
		cat.pickles += len(ft.Pickles)
		for _, p := range ft.Pickles {
			c, err := newCase(p, ft.GherkinDocument, ft.FindScenario(p.AstNodeIds[0]))
			var levelProblems []string
			if err == nil {
				levelProblems = c.resolveLevel(regs)
				cat.cite(c)
			}
			var all []string
			if c != nil {
				all = append(append([]string(nil), c.Tags...), "@"+c.Level, "@"+c.Dialect)
			}
			if !matchTags(tags, all) && c != nil {
				continue
			}
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			if len(levelProblems) > 0 {
				problems = append(problems, levelProblems...)
				continue
			}
			if where, dup := seen[c.ID]; dup && len(p.AstNodeIds) == 1 {
				problems = append(problems, fmt.Sprintf("%s:%d: id %s is already used at %s", c.File, c.Line, c.ID, where))
				continue
			} else if dup {
				c.ID = fmt.Sprintf("%s#%d", c.ID, countPrefix(seen, c.ID)+1)
			}
			seen[c.ID] = fmt.Sprintf("%s:%d", c.File, c.Line)
			cat.Cases = append(cat.Cases, c)
			cat.byPickle[p.Id] = c
		}
	}
	cat.Registries = regs.of(cat.Cases)
	problems = append(problems, regs.problems...)
	if len(problems) > 0 {
		sort.Strings(problems)
		// One line: the console escapes newlines in an error (its text
		// can quote the network), so a list would print as "\n".
		return nil, errors.New("features: " + strings.Join(problems, "; "))
	}
	return cat, nil
}

// cite records the requirements a scenario cites, each scenario once.
func (cat *Catalog) cite(c *Case) {
	for _, id := range c.Reqs {
		if !slices.Contains(cat.Citing[id], c.ID) {
			cat.Citing[id] = append(cat.Citing[id], c.ID)
		}
	}
}

// sentType finds the type member of a JSON docstring ("type" or "event").
var sentType = regexp.MustCompile(`"(?:type|event)"\s*:\s*"([^"]+)"`)

// sentTypes lists the message types a scenario's docstrings send.
func sentTypes(p *messages.Pickle) map[string]bool {
	out := map[string]bool{}
	for _, st := range p.Steps {
		if st.Argument == nil || st.Argument.DocString == nil {
			continue
		}
		for _, m := range sentType.FindAllStringSubmatch(st.Argument.DocString.Content, -1) {
			out[m[1]] = true
		}
	}
	return out
}

// quoted finds the quoted words of a step's text.
var quoted = regexp.MustCompile(`"([^"]+)"`)

// mentioned lists the quoted words of a scenario's steps.
func mentioned(p *messages.Pickle) map[string]bool {
	out := map[string]bool{}
	for _, st := range p.Steps {
		for _, m := range quoted.FindAllStringSubmatch(st.Text, -1) {
			out[m[1]] = true
		}
		if st.Argument != nil && st.Argument.DataTable != nil {
			for _, row := range st.Argument.DataTable.Rows {
				if len(row.Cells) > 0 {
					out[strings.TrimSpace(row.Cells[0].Value)] = true
				}
			}
		}
	}
	return out
}

// usedVars lists the {variables} a scenario's steps, docstrings and tables
// use.
func usedVars(p *messages.Pickle) map[string]bool {
	out := map[string]bool{}
	add := func(text string) {
		for _, m := range varRef.FindAllStringSubmatch(text, -1) {
			out[m[1]] = true
		}
	}
	for _, st := range p.Steps {
		add(st.Text)
		if st.Argument == nil {
			continue
		}
		if st.Argument.DocString != nil {
			add(st.Argument.DocString.Content)
		}
		if st.Argument.DataTable != nil {
			for _, row := range st.Argument.DataTable.Rows {
				for _, cell := range row.Cells {
					add(cell.Value)
				}
			}
		}
	}
	return out
}

func countPrefix(seen map[string]string, id string) int {
	n := 0
	for k := range seen {
		if k == id || strings.HasPrefix(k, id+"#") {
			n++
		}
	}
	return n
}

// newCase reads the conventions of one pickle.
func newCase(p *messages.Pickle, doc *messages.GherkinDocument, sc *messages.Scenario) (*Case, error) {
	c := &Case{Name: p.Name, File: p.Uri, pickle: p}
	if doc.Feature != nil {
		c.Feature = doc.Feature.Name
	}
	if sc != nil {
		c.Line = int(sc.Location.Line)
		c.Requirement = strings.TrimSpace(sc.Description)
	}
	c.Sends, c.Mentions, c.Vars = sentTypes(p), mentioned(p), usedVars(p)
	where := fmt.Sprintf("%s:%d: scenario %q", c.File, c.Line, c.Name)
	for _, t := range p.Tags {
		c.Tags = append(c.Tags, t.Name)
		switch {
		case strings.HasPrefix(t.Name, tagID):
			c.ID = strings.TrimPrefix(t.Name, tagID)
		case strings.HasPrefix(t.Name, tagReq):
			c.Reqs = append(c.Reqs, strings.TrimPrefix(t.Name, tagReq))
		case t.Name == tagMust:
			c.tagLevel = LevelMust
		case t.Name == tagShould:
			c.tagLevel = LevelShould
		case t.Name == tagScripted:
			c.Scripted = true
		case t.Name == tagMutates:
			c.MutatesTarget = true
		case t.Name == tagSerial:
			c.Serial = true
		case t.Name == tagFixture:
			c.Fixture = true
		case strings.HasPrefix(t.Name, tagTimeout):
			d, err := parseBudget(t.Name)
			if err != nil {
				return c, fmt.Errorf("%s: %w", where, err)
			}
			if c.Timeout > 0 {
				return c, fmt.Errorf("%s has two %s tags", where, tagTimeout)
			}
			c.Timeout = d
		case dialect.Known(strings.TrimPrefix(t.Name, "@")):
			c.Dialect = strings.TrimPrefix(t.Name, "@")
		}
	}
	if c.Dialect == "" {
		top, _, _ := strings.Cut(strings.TrimPrefix(p.Uri, "/"), "/")
		if dialect.Known(top) {
			c.Dialect = top
		}
	}
	switch {
	case c.ID == "":
		return c, fmt.Errorf("%s has no @id:… tag", where)
	case c.Dialect == "":
		return c, fmt.Errorf("%s names no dialect (tag it @%s or put it in a folder of that name)", where, strings.Join(dialect.Names(), ", @"))
	}
	if why := c.checkBudget(DefaultTimeouts.Scenario); why != "" {
		return c, fmt.Errorf("%s: %s", where, why)
	}
	return c, nil
}

// addKeywords remembers the keyword of every step, which pickles drop.
func (cat *Catalog) addKeywords(doc *messages.GherkinDocument) {
	if doc.Feature == nil {
		return
	}
	add := func(steps []*messages.Step) {
		for _, s := range steps {
			cat.keywords[s.Id] = s.Keyword
		}
	}
	walk := func(children []*messages.FeatureChild) {
		for _, ch := range children {
			if ch.Background != nil {
				add(ch.Background.Steps)
			}
			if ch.Scenario != nil {
				add(ch.Scenario.Steps)
			}
			if ch.Rule != nil {
				for _, rc := range ch.Rule.Children {
					if rc.Background != nil {
						add(rc.Background.Steps)
					}
					if rc.Scenario != nil {
						add(rc.Scenario.Steps)
					}
				}
			}
		}
	}
	walk(doc.Feature.Children)
}

// keyword returns the keyword a pickle step was written with.
func (cat *Catalog) keyword(st *messages.PickleStep) string {
	if len(st.AstNodeIds) > 0 {
		if k, ok := cat.keywords[st.AstNodeIds[0]]; ok {
			return strings.TrimSpace(k)
		}
	}
	return "*"
}

// checkTagExpr refuses what godog's tag filter would crash on: an empty
// term, as in "@a &&" or "@a,,@b".
func checkTagExpr(expr string) error {
	if strings.TrimSpace(expr) == "" {
		return nil
	}
	for _, and := range strings.Split(expr, "&&") {
		for _, or := range strings.Split(and, ",") {
			t := strings.TrimSpace(or)
			if t == "" || t == "~" || t == "@" || t == "~@" {
				return fmt.Errorf("tag expression %q: empty term (write e.g. \"@must && ~@scripted\" or \"@id:a,@id:b\")", expr)
			}
		}
	}
	return nil
}
