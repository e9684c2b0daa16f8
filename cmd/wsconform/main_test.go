package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// wsconform runs the command in-process, as main would, and returns its
// exit code and output.
func wsconform(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	code = exitCode(err, &errb)
	return code, out.String(), errb.String()
}

type jsonOut struct {
	Verdict string `json:"verdict"`
	Files   []struct {
		Dialect  string `json:"dialect"`
		Frames   int    `json:"frames"`
		Findings []struct {
			Rule     string `json:"rule"`
			Severity string `json:"severity"`
			Frame    int64  `json:"frame"`
			Diff     string `json:"diff"`
		} `json:"findings"`
	} `json:"files"`
}

// TestValidatePlantedFaults is the "done when": a recording with a
// backwards sequence number, a replay that alters an event and a schema
// violation reports exactly those three findings, and exits 1.
func TestValidatePlantedFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file, order, replay, diffAt string
	}{
		{"testdata/minicodex-planted.jsonl", "minicodex.event-id-order", "minicodex.replay-mismatch", "/run_id"},
		{"testdata/myagent-planted.jsonl", "myagent.seq-order", "myagent.replay-mismatch", "/content/result/sections"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			code, stdout, _ := wsconform(t, "validate", "--json", "-", c.file)
			if code != exitFail {
				t.Fatalf("exit %d, want %d", code, exitFail)
			}
			var out jsonOut
			if err := json.Unmarshal([]byte(stdout), &out); err != nil {
				t.Fatalf("--json - is not JSON: %v\n%s", err, stdout)
			}
			// the three planted faults, whatever their severity (myagent's
			// replay across connections is an interpretation: a warning);
			// other warnings may follow from them (a seq out of order
			// leaves a gap)
			var rules []string
			for _, f := range out.Files[0].Findings {
				if f.Severity != "error" && f.Rule != c.replay {
					continue
				}
				rules = append(rules, f.Rule)
				if f.Rule == c.replay && !strings.Contains(f.Diff, c.diffAt) {
					t.Errorf("replay finding has no diff at %s: %q", c.diffAt, f.Diff)
				}
			}
			sort.Strings(rules)
			want := []string{c.order, c.replay, "schema.violation"}
			sort.Strings(want)
			if strings.Join(rules, ",") != strings.Join(want, ",") || out.Verdict != "failed" {
				t.Fatalf("findings %v verdict %s, want exactly %v, failed", rules, out.Verdict, want)
			}
		})
	}
}

func TestValidateCleanInputs(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"testdata/minicodex-clean.jsonl", "testdata/minicodex-capture.har"} {
		code, stdout, stderr := wsconform(t, "validate", file)
		if code != exitOK || !strings.Contains(stdout, "PASS") {
			t.Errorf("%s: exit %d\n%s%s", file, code, stdout, stderr)
		}
	}
}

func TestValidateHARDetectsDialect(t *testing.T) {
	t.Parallel()
	_, stdout, _ := wsconform(t, "validate", "testdata/minicodex-capture.har")
	if !strings.Contains(stdout, "minicodex (detected: 10 of the first 10 frames") {
		t.Errorf("detection not explained:\n%s", stdout)
	}
	code, _, stderr := wsconform(t, "validate", "--dialect", "mitto", "testdata/minicodex-capture.har")
	if code != exitFail {
		t.Errorf("a minicodex capture judged as mitto must fail, got %d %s", code, stderr)
	}
}

func TestValidateExitCodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ambiguous := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(ambiguous, []byte(`{"kind":"frame","conn":"c1","dir":"c2s","opcode":1,"text":"{}"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no file", []string{"validate"}, exitUsage, "no FILE"},
		{"wrong flag", []string{"validate", "--dialekt", "x", "f"}, exitUsage, "unknown flag: --dialekt"},
		{"unknown dialect", []string{"validate", "--dialect", "nope", "f"}, exitUsage, `unknown dialect "nope"`},
		{"bad color", []string{"validate", "--color", "pink", "f"}, exitUsage, "--color"},
		{"missing file", []string{"validate", filepath.Join(dir, "nope.jsonl")}, exitHarness, "no such file"},
		{"garbage", []string{"validate", "--dialect", "mitto", "testdata/garbage.jsonl"}, exitHarness, "no readable frame"},
		{"undetectable", []string{"validate", ambiguous}, exitUsage, "cannot tell the dialect"},
		{"unknown command", []string{"valdate"}, exitUsage, `unknown command "valdate"`},
		{"no command", nil, exitUsage, "Usage:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := wsconform(t, c.args...)
			if code != c.code || !strings.Contains(stdout+stderr, c.msg) {
				t.Errorf("exit %d, want %d with %q in:\n%s%s", code, c.code, c.msg, stdout, stderr)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--help"}, {"validate", "--help"}, {"rules", "-h"}, {"serve", "--help"}, {"version", "--help"}} {
		code, stdout, _ := wsconform(t, args...)
		if code != exitOK || !strings.Contains(stdout, "Usage:") {
			t.Errorf("%v: exit %d\n%s", args, code, stdout)
		}
	}
	_, stdout, _ := wsconform(t, "version")
	if !strings.HasPrefix(stdout, "wsconform ") {
		t.Errorf("version = %q", stdout)
	}
}

func TestRulesCatalogue(t *testing.T) {
	t.Parallel()
	code, stdout, _ := wsconform(t, "rules")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"every dialect", "minicodex (", "hostd (", "myagent (", "mitto (", "coworker (",
		"minicodex.event-id-order", "schema.violation", "error", "warning", "§"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("rules output lacks %q", want)
		}
	}
	code, stdout, _ = wsconform(t, "rules", "--dialect", "coworker", "--json")
	var rules []struct{ ID, Dialect, Spec, Summary, Severity, Evidence, Quote string }
	if err := json.Unmarshal([]byte(stdout), &rules); err != nil || code != exitOK {
		t.Fatalf("rules --json: %v (exit %d)", err, code)
	}
	for _, r := range rules {
		if r.Dialect != "" && r.Dialect != "coworker" {
			t.Errorf("--dialect coworker lists %s", r.ID)
		}
		if r.Evidence == "" || (r.Severity == "error" && (r.Evidence != "stated" || r.Quote == "")) {
			t.Errorf("rules --json: %s (%s) has evidence %q and quote %q", r.ID, r.Severity, r.Evidence, r.Quote)
		}
	}
	code, stdout, _ = wsconform(t, "rules", "--long")
	for _, want := range []string{"stated", "interpretation", "rests on: RFC 6455 §5.5.1"} {
		if code != exitOK || !strings.Contains(stdout, want) {
			t.Errorf("rules --long lacks %q (exit %d)", want, code)
		}
	}
	if code, _, _ := wsconform(t, "rules", "--dialect", "nope"); code != exitUsage {
		t.Errorf("unknown dialect: exit %d", code)
	}
}

func TestColor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	_, plain, _ := wsconform(t, "validate", "testdata/minicodex-planted.jsonl")
	if strings.Contains(plain, "\x1b[") {
		t.Error("output to a non-terminal (and with NO_COLOR) has escape codes")
	}
	_, colored, _ := wsconform(t, "validate", "--color", "always", "testdata/minicodex-planted.jsonl")
	if !strings.Contains(colored, "\x1b[") {
		t.Error("--color always has no escape codes")
	}
}
