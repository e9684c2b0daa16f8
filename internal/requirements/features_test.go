package requirements_test

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cucumber/godog"

	"github.com/wsconform/wsconform/features"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/requirements"
)

// Tags of the embedded features that this meta-test reads.
const (
	tagReq    = "@req:"
	tagMust   = "@must"
	tagShould = "@should"
)

// scenario is one scenario of a feature file as the meta-test sees it.
type scenario struct {
	where string   // file:line "name"
	reqs  []string // its @req ids, in tag order: the first is the primary
	level []string // hand-set level tags it still carries
}

// readScenarios parses one dialect's features (Scenario Outlines count
// once, with the tags of all their Examples).
func readScenarios(t *testing.T, fsys fs.FS, name string) []scenario {
	t.Helper()
	suite := godog.TestSuite{Options: &godog.Options{FS: fsys, Paths: []string{name}}}
	fts, err := suite.RetrieveFeatures()
	if err != nil {
		t.Fatalf("read %s features: %v", name, err)
	}
	byNode := map[string]*scenario{}
	var order []string
	for _, ft := range fts {
		for _, p := range ft.Pickles {
			node := p.AstNodeIds[0]
			sc, ok := byNode[node]
			if !ok {
				line := 0
				if s := ft.FindScenario(node); s != nil {
					line = int(s.Location.Line)
				}
				sc = &scenario{where: fmt.Sprintf("%s:%d %q", p.Uri, line, p.Name)}
				byNode[node] = sc
				order = append(order, node)
			}
			for _, tag := range p.Tags {
				switch {
				case strings.HasPrefix(tag.Name, tagReq):
					if id := strings.TrimPrefix(tag.Name, tagReq); !contains(sc.reqs, id) {
						sc.reqs = append(sc.reqs, id)
					}
				case tag.Name == tagMust || tag.Name == tagShould:
					if !contains(sc.level, tag.Name) {
						sc.level = append(sc.level, tag.Name)
					}
				}
			}
		}
	}
	out := make([]scenario, 0, len(order))
	for _, node := range order {
		out = append(out, *byNode[node])
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// scenarioProblems is what is wrong with the scenarios' citations: a scenario
// without @req, an id the registry lacks, a hand-set @must or @should left
// beside the @req tags that now derive the level.
func scenarioProblems(reg *requirements.Registry, scs []scenario) []string {
	var out []string
	for _, sc := range scs {
		if len(sc.reqs) == 0 {
			out = append(out, sc.where+": cites no requirement (@req:ID)")
		}
		for _, id := range requirements.Unknown(reg, sc.reqs) {
			out = append(out, fmt.Sprintf("%s: @req:%s is not in %s", sc.where, id, reg.File))
		}
		if len(sc.level) > 0 {
			out = append(out, fmt.Sprintf("%s: %s set by hand (the level derives from the first @req)", sc.where, strings.Join(sc.level, " ")))
		}
	}
	return out
}

// derivedLevel is the level a scenario takes from its primary requirement
// (BRIEF of issue 23): stated must or type → must, stated should/may as
// written, shown → shown, interpretation → interpretation.
func derivedLevel(q requirements.Requirement) string {
	switch q.Evidence {
	case requirements.Shown:
		return "shown"
	case requirements.Interpretation:
		return "interpretation"
	}
	if q.Level == requirements.Type {
		return string(requirements.Must)
	}
	return string(q.Level)
}

// TestFeaturesCiteRequirements: every embedded scenario cites one or more
// requirements of its dialect with @req:ID (the first is the one it is
// about), every cited id exists, and no scenario sets its level by hand.
// A dialect whose features carry no @req tag at all is skipped, saying so:
// its scenarios are not tagged yet.
func TestFeaturesCiteRequirements(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			reg := load(t, name)
			scs := readScenarios(t, features.FS, name)
			if len(scs) == 0 {
				t.Fatalf("%s: no scenarios", name)
			}
			tagged := false
			for _, sc := range scs {
				tagged = tagged || len(sc.reqs) > 0
			}
			if !tagged {
				t.Skipf("%s: no scenario carries an @req tag yet", name)
			}
			for _, p := range scenarioProblems(reg, scs) {
				t.Error(p)
			}
			levels := map[string]int{}
			for _, sc := range scs {
				if len(sc.reqs) == 0 {
					continue
				}
				if q, ok := reg.Lookup(sc.reqs[0]); ok {
					levels[derivedLevel(q)]++
				}
			}
			keys := make([]string, 0, len(levels))
			for k := range levels {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var b strings.Builder
			for _, k := range keys {
				fmt.Fprintf(&b, " %s %d", k, levels[k])
			}
			t.Logf("%s: %d scenarios, by derived level:%s", name, len(scs), b.String())
		})
	}
}

// TestFeaturesCiteFires: the check above is not vacuous. A scenario with
// no @req, one citing an unknown id and one still tagged @must are each
// reported.
func TestFeaturesCiteFires(t *testing.T) {
	t.Parallel()
	const name = "hostd"
	reg := load(t, name)
	id := reg.Requirements[0].ID
	feature := `@hostd
Feature: planted

  @id:hostd.planted.fine @req:` + id + `
  Scenario: fine
    Given a client connects

  @id:hostd.planted.none
  Scenario: none
    Given a client connects

  @id:hostd.planted.unknown @req:hostd.no-such-thing
  Scenario: unknown
    Given a client connects

  @id:hostd.planted.level @req:` + id + ` @must
  Scenario: level
    Given a client connects
`
	fsys := fstest.MapFS{name + "/planted.feature": {Data: []byte(feature)}}
	got := scenarioProblems(reg, readScenarios(t, fsys, name))
	want := []string{
		`hostd/planted.feature:9 "none": cites no requirement`,
		`hostd/planted.feature:13 "unknown": @req:hostd.no-such-thing is not in`,
		`hostd/planted.feature:17 "level": @must set by hand`,
	}
	if len(got) != len(want) {
		t.Fatalf("scenarioProblems = %q, want %d problems", got, len(want))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("problem %d = %q, want it to contain %q", i, got[i], w)
		}
	}
}
