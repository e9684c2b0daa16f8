package main

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wsconform/wsconform/features"
	"github.com/wsconform/wsconform/internal/requirements"
)

var update = flag.Bool("update", false, "rewrite the golden files of the requirements command")

// reqFeatures is a feature tree of one scenario citing two requirements,
// beside the embedded mitto registry: the embedded features carry no
// @req: tags yet.
func reqFeatures(t *testing.T) fstest.MapFS {
	t.Helper()
	reg, err := fs.ReadFile(features.FS, "mitto/"+requirements.FileName)
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{
		"mitto/" + requirements.FileName: {Data: reg},
		"mitto/demo.feature": {Data: []byte(`Feature: demo
  @id:demo.seq @must @req:mitto.seq.monotonic @req:mitto.events-loaded.order
  Scenario: seq increases
    When the client sends "load_events"
`)},
	}
}

func TestScenarioCitations(t *testing.T) {
	t.Parallel()
	got, err := scenarioCitations(reqFeatures(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"mitto.seq.monotonic", "mitto.events-loaded.order"} {
		if strings.Join(got[id], ",") != "demo.seq" {
			t.Errorf("%s is cited by %q, want demo.seq", id, got[id])
		}
	}
	if len(got) != 2 {
		t.Errorf("citations %v, want two ids", got)
	}
}

func TestRequirementRowsFilter(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "requirements", "mitto-small.json"))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := requirements.Parse("mitto-small.json", data)
	if err != nil {
		t.Fatal(err)
	}
	rules := citations{"mitto.seq.monotonic": {"mitto.seq-order"}}
	scenarios := citations{"mitto.events-loaded.order": {"demo.order"}}
	tests := []struct {
		name string
		f    reqFilter
		want string
	}{
		{"all", reqFilter{}, "mitto.seq.monotonic mitto.load-events.exclusive mitto.events-loaded.order mitto.demo.uncited"},
		{"section", reqFilter{Filter: requirements.Filter{Section: "§LOAD_EVENTS"}}, "mitto.load-events.exclusive mitto.events-loaded.order"},
		{"evidence", reqFilter{Filter: requirements.Filter{Evidence: requirements.Interpretation}}, "mitto.events-loaded.order"},
		{"level", reqFilter{Filter: requirements.Filter{Level: requirements.May}}, "mitto.demo.uncited"},
		{"untested", reqFilter{Untested: true}, "mitto.load-events.exclusive mitto.demo.uncited"},
		{"untested stated must", reqFilter{Filter: requirements.Filter{Evidence: requirements.Stated, Level: requirements.Must}, Untested: true},
			"mitto.load-events.exclusive"},
		{"nothing", reqFilter{Filter: requirements.Filter{Section: "no such section"}}, ""},
	}
	for _, tt := range tests {
		var ids []string
		for _, r := range requirementRows([]*requirements.Registry{reg}, rules, scenarios, tt.f) {
			ids = append(ids, r.ID)
		}
		if got := strings.Join(ids, " "); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRequirementsJSONGolden: the JSON of a user's registry, with the
// check engine's rules and a feature tree's scenarios citing it (go test
// -run TestRequirementsJSONGolden -update rewrites the golden file). Not
// parallel: it swaps the feature tree the command reads.
func TestRequirementsJSONGolden(t *testing.T) {
	old := requirementFeatures
	requirementFeatures = reqFeatures(t)
	t.Cleanup(func() { requirementFeatures = old })
	code, out, errOut := wsconform(t, "requirements", "--json", "--file", filepath.Join("testdata", "requirements", "mitto-small.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden := filepath.Join("testdata", "requirements", "mitto-small.golden.json")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("requirements --json differs from %s (run with -update to accept):\n%s", golden, out)
	}
}

// TestRequirementsCommand runs the real command: its text output escapes
// what a user's file holds, and bad input is a usage error (exit 2) that
// names the file and line.
func TestRequirementsCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	escape := filepath.Join(dir, "escape.json")
	if err := os.WriteFile(escape, []byte(`{"dialect": "mitto", "spec": "mitto.md", "requirements": [
		{"id": "mitto.a.bell", "section": "§A \u001b[31mred", "quote": "x", "evidence": "stated", "level": "must"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{"one dialect", []string{"--dialect", "hostd", "--color", "never"}, 0, "hostd.ids.seq-monotonic", ""},
		{"rules cite", []string{"--dialect", "hostd", "--section", "Identifiers", "--color", "never"}, 0, "rules: hostd.ack-regress, hostd.app-duplicate", ""},
		{"long", []string{"--dialect", "mitto", "--evidence", "interpretation", "--long", "--color", "never"}, 0, "reading: ", ""},
		{"escaped", []string{"--file", escape, "--color", "never"}, 0, `\x1b[31mred`, ""},
		{"bad file", []string{"--file", filepath.Join("testdata", "requirements", "bad.json")}, 2, "",
			filepath.Join("testdata", "requirements", "bad.json") + `:6: mitto.a.one: evidence "sometimes"`},
		{"missing file", []string{"--file", filepath.Join(dir, "none.json")}, 2, "", "none.json"},
		{"file of another dialect", []string{"--file", escape, "--dialect", "hostd"}, 2, "", `holds dialect "mitto", not "hostd"`},
		{"bad evidence", []string{"--evidence", "sometimes"}, 2, "", "--evidence"},
		{"bad level", []string{"--level", "often"}, 2, "", "--level"},
		{"unknown dialect", []string{"--dialect", "nope"}, 2, "", "unknown dialect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := wsconform(t, append([]string{"requirements"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tt.code, errOut)
			}
			if !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Errorf("stdout %.300q\nstderr %q\nwant %q and %q", out, errOut, tt.out, tt.err)
			}
			if bytes.ContainsRune([]byte(out), 0x1b) {
				t.Errorf("stdout holds a raw escape: %q", out)
			}
		})
	}
}

// TestRulesLongRequires: rules --long prints the ids each rule cites.
func TestRulesLongRequires(t *testing.T) {
	t.Parallel()
	code, out, errOut := wsconform(t, "rules", "--long", "--dialect", "hostd", "--color", "never")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "requires: hostd.ids.seq-monotonic") {
		t.Errorf("rules --long names no requirement:\n%s", out)
	}
}
