package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportHAR: export writes a HAR that validate judges to the same
// verdict and findings as the recording, and says what it wrote.
func TestExportHAR(t *testing.T) {
	t.Parallel()
	for _, rec := range []string{"testdata/minicodex-planted.jsonl", "testdata/minicodex-clean.jsonl", "testdata/myagent-planted.jsonl"} {
		t.Run(filepath.Base(rec), func(t *testing.T) {
			t.Parallel()
			har := filepath.Join(t.TempDir(), "out.har")
			code, _, stderr := wsconform(t, "export", "--har", har, rec)
			if code != exitOK || !strings.Contains(stderr, "wrote the HAR to "+har+": 2 connections") {
				t.Fatalf("export: exit %d\n%s", code, stderr)
			}
			wantCode, want := validateJSON(t, rec)
			gotCode, got := validateJSON(t, har)
			if gotCode != wantCode || got != want {
				t.Errorf("validate: recording exit %d %s\nHAR exit %d %s", wantCode, want, gotCode, got)
			}
		})
	}
}

// validateJSON validates path and returns the exit code, the verdict and
// the findings' rules and directions.
func validateJSON(t *testing.T, path string) (int, string) {
	t.Helper()
	code, stdout, stderr := wsconform(t, "validate", "--color", "never", "--json", "-", path)
	var out struct {
		Verdict string `json:"verdict"`
		Files   []struct {
			Findings []struct {
				Rule string `json:"rule"`
				Dir  string `json:"dir"`
			} `json:"findings"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out.Files) != 1 {
		t.Fatalf("validate %s: %v\n%s\n%s", path, err, stdout, stderr)
	}
	s := out.Verdict
	for _, f := range out.Files[0].Findings {
		s += " " + f.Rule + "/" + f.Dir
	}
	return code, s
}

// TestExportStdout: --har - writes the document to stdout and the summary
// to stderr.
func TestExportStdout(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := wsconform(t, "export", "--har", "-", "testdata/minicodex-clean.jsonl")
	if code != exitOK || !json.Valid([]byte(stdout)) || !strings.Contains(stdout, `"_webSocketMessages"`) {
		t.Fatalf("exit %d, stdout is not the HAR:\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "wrote the HAR to stdout") {
		t.Errorf("stderr: %s", stderr)
	}
}

// TestExportMistakes: usage errors exit 2, input that cannot be read or
// holds nothing to export exits 3, and no HAR is left behind.
func TestExportMistakes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out.har")
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	self := filepath.Join(dir, "self.jsonl")
	clean, err := os.ReadFile("testdata/minicodex-clean.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(self, clean, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no --har", []string{"export", "testdata/minicodex-clean.jsonl"}, exitUsage, "--har FILE is required"},
		{"no recording", []string{"export", "--har", out}, exitUsage, "want one RECORDING, got 0"},
		{"two recordings", []string{"export", "--har", out, "a", "b"}, exitUsage, "want one RECORDING, got 2"},
		{"unknown flag", []string{"export", "--hra", out}, exitUsage, "--hra"},
		{"missing directory", []string{"export", "--har", filepath.Join(dir, "nope", "x.har"), "testdata/minicodex-clean.jsonl"}, exitUsage, "does not exist"},
		{"missing recording", []string{"export", "--har", out, filepath.Join(dir, "nope.jsonl")}, exitHarness, "no such file"},
		{"empty recording", []string{"export", "--har", out, empty}, exitHarness, "nothing to export: the recording is empty"},
		{"garbage", []string{"export", "--har", out, "testdata/garbage.jsonl"}, exitHarness, "not a recording: no line could be read"},
		{"unknown session", []string{"export", "--har", out, "--session", "nope", "testdata/minicodex-clean.jsonl"}, exitHarness, `no connection of session "nope"`},
		{"onto the recording", []string{"export", "--har", self, self}, exitHarness, "--har names the recording itself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, _, stderr := wsconform(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want %d saying %q:\n%s", code, tc.code, tc.want, stderr)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed export left %s behind (%v)", out, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".out.har.*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if b, _ := os.ReadFile(self); string(b) != string(clean) {
		t.Errorf("the recording was overwritten")
	}
}
