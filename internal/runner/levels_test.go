package runner

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/requirements"
	"github.com/wsconform/wsconform/reports"
)

// TestDeriveLevel: each row of the table of BRIEF23/DESIGN.md.
func TestDeriveLevel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ev    requirements.Evidence
		level requirements.Level
		want  string
	}{
		{requirements.Stated, requirements.Must, LevelMust},
		{requirements.Stated, requirements.Type, LevelMust},
		{requirements.Stated, requirements.Should, LevelShould},
		{requirements.Stated, requirements.May, LevelMay},
		{requirements.Shown, requirements.Must, LevelShown},
		{requirements.Shown, requirements.Type, LevelShown},
		{requirements.Interpretation, requirements.Must, LevelInterpretation},
		{requirements.Interpretation, requirements.Should, LevelInterpretation},
	}
	for _, tt := range tests {
		if got := DeriveLevel(requirements.Requirement{Evidence: tt.ev, Level: tt.level}); got != tt.want {
			t.Errorf("%s %s: %s, want %s", tt.ev, tt.level, got, tt.want)
		}
	}
}

// levelRegistry has one minicodex requirement per derived level.
const levelRegistry = `{
  "dialect": "minicodex",
  "spec": "minicodex-v1.md",
  "requirements": [
    {"id": "minicodex.t.must", "section": "§Handshake & resume", "quote": "the server MUST answer", "evidence": "stated", "level": "must"},
    {"id": "minicodex.t.type", "section": "§Envelope", "quote": "type: string", "evidence": "stated", "level": "type"},
    {"id": "minicodex.t.should", "section": "§Envelope", "quote": "it SHOULD answer", "evidence": "stated", "level": "should"},
    {"id": "minicodex.t.may", "section": "§Envelope", "quote": "it MAY answer", "evidence": "stated", "level": "may"},
    {"id": "minicodex.t.shown", "section": "§Examples", "quote": "{\"type\": \"pong\"}", "evidence": "shown", "level": "type"},
    {"id": "minicodex.t.interp", "section": "§Load_Events", "quote": "ping", "evidence": "interpretation", "level": "should", "reading": "a ping is answered"},
    {"id": "minicodex.t.other", "section": "§Other", "quote": "other", "evidence": "stated", "level": "must"}
  ]
}`

// levelFeature is one scenario citing req (with extra tags) that expects
// a "pong" the test server never sends.
func levelFeature(tags string) fstest.MapFS {
	return fstest.MapFS{
		"minicodex/requirements.json": {Data: []byte(levelRegistry)},
		"minicodex/level.feature": {Data: []byte(`@minicodex
Feature: levels
  ` + tags + `
  Scenario: a ping is answered
    Given a client connects
    When the client sends:
      """
      {"type": "ping", "req_id": "r1"}
      """
    Then the client receives "pong" within 300ms
`)}}
}

// TestCatalogProblems: each thing that can be wrong with a scenario's
// requirements is named, all in one line.
func TestCatalogProblems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tags string
		fsys       fstest.MapFS
		want       string
	}{
		{"unknown id", "@id:t.a @req:minicodex.t.nope", nil, "cites unknown requirement @req:minicodex.t.nope (not in minicodex/requirements.json)"},
		{"another dialect", "@id:t.a @req:mitto.envelope.json", nil, "cites @req:mitto.envelope.json of dialect mitto"},
		{"contradicted level", "@id:t.a @should @req:minicodex.t.must", nil, "@should contradicts requirement minicodex.t.must (stated must)"},
		{"contradicted by interpretation", "@id:t.a @must @req:minicodex.t.interp", nil, "@must contradicts requirement minicodex.t.interp (interpretation should)"},
		{"no level", "@id:t.a", nil, "has no level: cite its requirement (@req:ID) or tag it @must or @should"},
		{"no registry", "@id:t.a @req:minicodex.t.must", fstest.MapFS{}, "cites @req:minicodex.t.must, but there is no minicodex/requirements.json"},
		{"bad registry", "@id:t.a @req:minicodex.t.must", fstest.MapFS{"minicodex/requirements.json": {Data: []byte(`{"dialect": "minicodex", "spec": "x.md", "requirements": [{"id": "bad"}]}`)}}, "minicodex/requirements.json:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := levelFeature(tt.tags)
			if tt.fsys != nil {
				delete(fsys, "minicodex/requirements.json")
				for k, v := range tt.fsys {
					fsys[k] = v
				}
			}
			_, err := LoadCatalog(fsys, []string{"."}, "")
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line with %q", err, tt.want)
			}
		})
	}
	// all problems together, as before
	fsys := levelFeature("@id:t.a @req:minicodex.t.nope @req:mitto.envelope.json")
	_, err := LoadCatalog(fsys, []string{"."}, "")
	if err == nil || !strings.Contains(err.Error(), "minicodex.t.nope") || !strings.Contains(err.Error(), "mitto.envelope.json") {
		t.Errorf("error %v, want both problems", err)
	}
}

// TestCatalogLevels: the primary requirement is the first @req tag, the
// level is derived from it, a level tag that agrees is accepted, and a
// tree without a registry keeps @must / @should.
func TestCatalogLevels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tags, level, primary string
		reqs                 int
	}{
		{"@id:t.a @req:minicodex.t.interp @req:minicodex.t.must", LevelInterpretation, "minicodex.t.interp", 2},
		{"@id:t.a @must @req:minicodex.t.type", LevelMust, "minicodex.t.type", 1},
		{"@id:t.a @req:minicodex.t.shown", LevelShown, "minicodex.t.shown", 1},
		{"@id:t.a @should", LevelShould, "", 0},
	}
	for _, tt := range tests {
		cat, err := LoadCatalog(levelFeature(tt.tags), []string{"."}, "")
		if err != nil {
			t.Fatalf("%s: %v", tt.tags, err)
		}
		c := cat.Cases[0]
		primary := ""
		if c.Primary != nil {
			primary = c.Primary.ID
		}
		if c.Level != tt.level || primary != tt.primary || len(c.Reqs) != tt.reqs {
			t.Errorf("%s: level %s primary %q reqs %v", tt.tags, c.Level, primary, c.Reqs)
		}
		if len(cat.Registries) != 1 || len(cat.Citing) != tt.reqs {
			t.Errorf("%s: %d registries, citing %v", tt.tags, len(cat.Registries), cat.Citing)
		}
	}
	fsys := levelFeature("@id:t.a @must")
	delete(fsys, "minicodex/requirements.json")
	cat, err := LoadCatalog(fsys, []string{"."}, "")
	if err != nil || cat.Cases[0].Level != LevelMust || cat.Registries != nil {
		t.Errorf("without a registry: %v, %+v", err, cat)
	}
}

// twoFeature has scenarios citing requirements of two sections.
var twoFeature = fstest.MapFS{
	"minicodex/requirements.json": {Data: []byte(levelRegistry)},
	"minicodex/two.feature": {Data: []byte(`@minicodex
Feature: two
  @id:t.one @req:minicodex.t.interp @req:minicodex.t.must
  Scenario: one
    Given a client connects

  @id:t.two @req:minicodex.t.must
  Scenario: two
    Given a client connects

  @id:t.three @req:minicodex.t.should
  Scenario: three
    Given a client connects
`)}}

// TestSelect: --tags @req:ID selects through the tag filter (a context
// requirement too), a derived level is a tag, and --section matches the
// primary requirement's section only, ignoring case and §.
func TestSelect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tags, section, want string
	}{
		{"@req:minicodex.t.must", "", "t.one t.two"},
		{"@req:minicodex.t.should", "", "t.three"},
		{"@must", "", "t.two"},
		{"@interpretation,@should", "", "t.one t.three"},
		{"~@must", "", "t.one t.three"},
		{"", "§load_events", "t.one"},
		{"", "handshake", "t.two"},
		{"@must", "envelope", ""},
	}
	for _, tt := range tests {
		cat, err := Load(Options{Features: twoFeature, Tags: tt.tags, Section: tt.section})
		if err != nil {
			t.Fatalf("%q %q: %v", tt.tags, tt.section, err)
		}
		var ids []string
		for _, c := range cat.Cases {
			ids = append(ids, c.ID)
		}
		if got := strings.Join(ids, " "); got != tt.want {
			t.Errorf("--tags %q --section %q: %q, want %q", tt.tags, tt.section, got, tt.want)
		}
		if got := cat.Citing["minicodex.t.must"]; len(got) != 2 {
			t.Errorf("citing %v: every scenario of the features, selected or not", got)
		}
	}
}

// TestVerdictPerLevel runs a scenario whose step fails against a loopback
// server that never answers, once per level of its primary requirement:
// only a stated MUST or type fails it; "SHOULD not met" only for a SHOULD.
func TestVerdictPerLevel(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(upgrader(func(c *websocket.Conn) {
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close) // after the parallel subtests
	tests := []struct {
		req    string
		want   reports.Verdict
		reason string
	}{
		{"minicodex.t.must", reports.Failed, "Then the client receives"},
		{"minicodex.t.type", reports.Failed, "Then the client receives"},
		{"minicodex.t.should", reports.NonStrict, "SHOULD not met: Then"},
		{"minicodex.t.may", reports.Observation, "the spec allows (MAY): Then"},
		{"minicodex.t.shown", reports.NonStrict, "the spec only shows: Then"},
		{"minicodex.t.interp", reports.Observation, "the spec does not say; this server: Then"},
	}
	for _, tt := range tests {
		t.Run(tt.req, func(t *testing.T) {
			t.Parallel()
			res, err := Run(context.Background(), Options{Features: levelFeature("@id:t.level @req:" + tt.req),
				Targets: []Target{{Name: "t", URL: wsURL(srv)}}})
			if err != nil {
				t.Fatal(err)
			}
			s := res[0]
			if s.Verdict != tt.want || !strings.HasPrefix(s.Reason, tt.reason) {
				t.Fatalf("verdict %s (%s), want %s (%s…)", s.Verdict, s.Reason, tt.want, tt.reason)
			}
			if s.Primary == nil || s.Primary.ID != tt.req || len(s.Requirements) != 1 {
				t.Errorf("primary %+v requirements %v", s.Primary, s.Requirements)
			}
		})
	}
}

// TestRepeatObservation: runs that only differ between passed and
// observation stay an observation (never flaky, which fails a run).
func TestRepeatObservation(t *testing.T) {
	t.Parallel()
	runs := []reports.Scenario{{ID: "a", Target: "t", Verdict: reports.Passed}, {ID: "a", Target: "t", Verdict: reports.Observation, Reason: "x"}}
	got := mergeRepeats(runs)
	if len(got) != 1 || got[0].Verdict != reports.Observation || !strings.Contains(got[0].Reason, "verdicts differ across 2 runs") {
		t.Errorf("%+v", got)
	}
	runs[1].Verdict = reports.Failed
	if got := mergeRepeats(runs); got[0].Verdict != reports.Flaky {
		t.Errorf("passed and failed: %s", got[0].Verdict)
	}
}
