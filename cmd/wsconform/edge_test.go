package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestEdgeCases: each mistake a newcomer makes gets one clear line and
// the documented exit code, before any work starts.
func TestEdgeCases(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	readOnly := filepath.Join(dir, "ro")
	if err := os.Mkdir(readOnly, 0o555); err != nil {
		t.Fatal(err)
	}
	canWriteReadOnly := os.Getuid() == 0 || runtime.GOOS == "windows"
	missing := filepath.Join(dir, "nope", "r.html")
	tests := []struct {
		name string
		args []string
		code int
		want string
		not  string // must not appear
	}{
		{"target without a scheme", []string{"run", "--dialect", "minicodex", "--target", "127.0.0.1:9000"}, exitUsage,
			"targets are ws:// or wss:// URLs", "first path segment"},
		{"named target without a scheme", []string{"run", "--dialect", "minicodex", "--target", "ours=127.0.0.1:9000"}, exitUsage,
			"targets are ws:// or wss:// URLs", "first path segment"},
		{"timeout scale not a number", []string{"run", "--timeout-scale", "abc"}, exitUsage,
			`--timeout-scale "abc": not a number`, "strconv"},
		{"concurrency not a number", []string{"run", "--concurrency", "many"}, exitUsage, `--concurrency "many": not a whole number`, "strconv"},
		{"gate timeout not a duration", []string{"gate", "--dialect", "minicodex", "--timeout", "2", "--", "true"}, exitUsage,
			`--timeout "2": not a duration`, "time:"},
		{"hostd without credentials", []string{"run", "--dialect", "hostd", "--target", "ws://127.0.0.1:1"}, exitUsage,
			"--var user=… --var password=… --var host_token=…", "could not run"},
		{"hostd with only a token", []string{"run", "--dialect", "hostd", "--target", "ws://127.0.0.1:1", "--var", "host_token=t"}, exitUsage,
			"pass --var user=… --var password=… (", "host_token=…"},
		{"clean-up without a session command", []string{"run", "--dialect", "mitto", "--target", "ws://127.0.0.1:1/ws", "--session-cleanup-cmd", "true"}, exitUsage,
			"--session-cleanup-cmd cleans up what --session-cmd made", ""},
		{"quiet and verbose", []string{"run", "-q", "-v"}, exitUsage, "--quiet and --verbose", ""},
		{"run report in a missing directory", []string{"run", "--html", missing}, exitUsage, "the directory " + filepath.Dir(missing) + " does not exist", "PASS"},
		{"run report is a directory", []string{"run", "--junit", dir}, exitUsage, "is a directory", "PASS"},
		{"two reports to stdout", []string{"run", "--json", "-", "--markdown", "-"}, exitUsage, "only one report can go to stdout", ""},
		{"validate report in a missing directory", []string{"validate", "--markdown", missing, "testdata/minicodex-clean.jsonl"}, exitUsage,
			"does not exist", "PASS"},
		{"validate json in a missing directory", []string{"validate", "--json", missing, "testdata/minicodex-clean.jsonl"}, exitUsage,
			"does not exist", "PASS"},
		{"gate report in a missing directory", []string{"gate", "--dialect", "minicodex", "--json", missing, "--", "true"}, exitUsage,
			"does not exist", "opened no WebSocket"},
		{"gate recording in a missing directory", []string{"gate", "--dialect", "minicodex", "--record", missing, "--", "true"}, exitUsage,
			"--record", "opened no WebSocket"},
		{"completion of an unknown shell", []string{"completion", "tcsh"}, exitUsage, `unknown shell "tcsh"`, ""},
		{"completion without a shell", []string{"completion"}, exitUsage, "bash, zsh or fish", ""},
	}
	if !canWriteReadOnly {
		tests = append(tests, struct {
			name string
			args []string
			code int
			want string
			not  string
		}{"report in a read-only directory", []string{"run", "--html", filepath.Join(readOnly, "r.html")}, exitUsage, "is not writable", "PASS"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := wsconform(t, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) || (tt.not != "" && strings.Contains(out+errs, tt.not)) {
				t.Errorf("exit %d (want %d), want %q (and not %q) on stderr:\nstdout: %s\nstderr: %s", code, tt.code, tt.want, tt.not, out, errs)
			}
			// one clear line, then the hint to --help
			if lines := strings.Split(strings.TrimSpace(errs), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "--help") {
				t.Errorf("want one line and the --help hint, got:\n%s", errs)
			}
		})
	}
}

// TestGateTimeout: a client that outlives --timeout is stopped, and the
// gate says so in the flag's words, not the context's.
func TestGateTimeout(t *testing.T) {
	t.Parallel()
	code, out, errs := wsconform(t, "gate", "--dialect", "minicodex", "--color", "never", "--timeout", "300ms", "--", "sleep", "30")
	if code != exitFail || !strings.Contains(errs, "the client command ran past --timeout (300ms)") || strings.Contains(errs, "deadline") {
		t.Errorf("exit %d (want %d):\n%s%s", code, exitFail, out, errs)
	}
}

// TestVersion: --version and version name the binary, the version, the
// commit and the Go version.
func TestVersion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, _ := wsconform(t, args...)
		if code != exitOK || !strings.HasPrefix(out, "wsconform ") || !strings.Contains(out, " commit ") || !strings.Contains(out, runtime.Version()) {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
}

// TestRunQuietVerbose: -q prints only failures and the summary, -v every
// scenario, skipped ones with their reason.
func TestRunQuietVerbose(t *testing.T) {
	t.Parallel()
	code, out, errs := wsconform(t, "run", "--features", sampleFeatures, "--color", "never", "-q")
	if code != exitFail || strings.Contains(out, "✓ passed") || strings.Contains(out, "~ non-strict") ||
		!strings.Contains(out, "✗ failed     sample.wrong-version") || !strings.Contains(out, "FAIL") {
		t.Errorf("-q: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = wsconform(t, "run", "--dialect", "minicodex", "--color", "never", "-v", "--scripted", "--target", "ws://127.0.0.1:1/ws",
		"--tags", "@id:minicodex.resume.from-start")
	if code != exitHarness || !strings.Contains(out, "✗ error") {
		t.Errorf("-v: every scenario's line, errors too: exit %d\n%s%s", code, out, errs)
	}
}

// TestReportsWritten: each report written is named on one line; with a
// report on stdout the human output goes to stderr, for run and validate
// alike.
func TestReportsWritten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, j := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.xml")
	_, out, _ := wsconform(t, "run", "--features", sampleFeatures, "--color", "never", "--html", h, "--junit", j)
	for _, want := range []string{"wrote the HTML report to " + h + "\n", "wrote the JUnit XML to " + j + "\n"} {
		if strings.Count(out, want) != 1 {
			t.Errorf("run output lacks %q once:\n%s", want, out)
		}
	}
	_, out, _ = wsconform(t, "validate", "--color", "never", "--html", h, "testdata/minicodex-clean.jsonl")
	if !strings.Contains(out, "wrote the HTML report to "+h) {
		t.Errorf("validate does not say where the report went:\n%s", out)
	}
	for _, args := range [][]string{
		{"run", "--features", sampleFeatures, "--color", "never", "--markdown", "-"},
		{"validate", "--color", "never", "--markdown", "-", "testdata/minicodex-planted.jsonl"},
		{"validate", "--color", "never", "--json", "-", "testdata/minicodex-planted.jsonl"},
	} {
		_, out, errs := wsconform(t, args...)
		if strings.Contains(out, "FAIL") || !strings.Contains(errs, "FAIL") {
			t.Errorf("%v: the human output is not on stderr alone:\nstdout: %s\nstderr: %s", args, out, errs)
		}
	}
}
