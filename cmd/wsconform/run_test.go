package main

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/reports"
)

const sampleFeatures = "testdata/features"

func TestRunOwnFeatures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jsonPath, junitPath, htmlPath := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.html")
	code, out, errs := wsconform(t, "run", "--features", sampleFeatures, "--color", "never",
		"--json", jsonPath, "--junit", junitPath, "--html", htmlPath)
	if code != exitFail {
		t.Fatalf("exit %d, want %d (one scenario fails on purpose)\n%s\n%s", code, exitFail, out, errs)
	}
	for _, want := range []string{
		"✓ passed", "sample.hello",
		"✗ failed", "sample.wrong-version", `expected: "9.9.9"`, `actual:   "1.0.0"`,
		"~ non-strict", "sample.should",
		"To re-run a failed scenario:",
		"wsconform run --features testdata/features --color never --tags @id:sample.wrong-version",
		"FAIL",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var rep reports.Report
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Format != reports.Format || rep.Verdict != reports.Failed || len(rep.Scenarios) != 3 ||
		rep.Counts[reports.Passed] != 1 || rep.Counts[reports.Failed] != 1 || rep.Counts[reports.NonStrict] != 1 {
		t.Errorf("json report: verdict %s, counts %v, %d scenarios", rep.Verdict, rep.Counts, len(rep.Scenarios))
	}
	var junit struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Body string `xml:",chardata"`
				} `xml:"failure"`
				Out string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	data, err = os.ReadFile(junitPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(data, &junit); err != nil {
		t.Fatal(err)
	}
	if junit.Tests != 3 || junit.Failures != 1 {
		t.Errorf("junit: %d tests, %d failures", junit.Tests, junit.Failures)
	}
	for _, s := range junit.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil && (!strings.Contains(c.Failure.Body, "expected: \"9.9.9\"") || !strings.Contains(c.Out, `"welcome"`)) {
				t.Errorf("junit failure body or system-out lacks the detail:\n%s\n%s", c.Failure.Body, c.Out)
			}
		}
	}
	html, err := os.ReadFile(htmlPath)
	if err != nil || !strings.Contains(string(html), "sample.wrong-version") {
		t.Errorf("html report: %v", err)
	}
}

func TestRunBaseline(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := filepath.Join(dir, "baseline.json")
	entries := `[{"id": "sample.wrong-version", "reason": "we speak 1.0"}, {"id": "sample.hello", "reason": "was broken"}]`
	if err := os.WriteFile(base, []byte(entries), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := wsconform(t, "run", "--features", sampleFeatures, "--color", "never", "--baseline", base)
	if code != exitOK {
		t.Fatalf("exit %d, want 0 with the failure baselined\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"(baseline: we speak 1.0)", "stale baseline entry: sample.hello now passes"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRunList(t *testing.T) {
	t.Parallel()
	code, out, _ := wsconform(t, "run", "--features", sampleFeatures, "--list", "--target", "ws://127.0.0.1:1/ws")
	if code != exitOK || !strings.Contains(out, "sample.hello") || !strings.Contains(out, "should") || !strings.Contains(out, "3 scenarios") {
		t.Errorf("--list: exit %d\n%s", code, out)
	}
	code, out, _ = wsconform(t, "run", "--steps")
	if code != exitOK || !strings.Contains(out, "receives") {
		t.Errorf("--steps: exit %d\n%s", code, out)
	}
}

func TestRunAgainstServeTargets(t *testing.T) {
	t.Parallel()
	l, _ := serving(t, "--dialect", "minicodex")
	code, out, errs := wsconform(t, "run", "--features", sampleFeatures, "--color", "never", "--tags", "@id:sample.hello",
		"--target", "one="+l.URL, "--target", "two="+l.URL+"/ws")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "[one]") || !strings.Contains(out, "[two]") {
		t.Errorf("targets are not reported side by side:\n%s", out)
	}
}

func TestRunExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"dead target", []string{"--target", "ws://127.0.0.1:1/ws"}, exitHarness, "unreachable"},
		{"bad flag", []string{"--frobnicate"}, exitUsage, "frobnicate"},
		{"unknown dialect", []string{"--dialect", "nope"}, exitUsage, "unknown dialect"},
		{"bad tags", []string{"--tags", "@a &&"}, exitUsage, "empty term"},
		{"no match", []string{"--tags", "@id:nothing"}, exitUsage, "no scenario"},
		{"bad target", []string{"--target", "http//x"}, exitUsage, "targets are ws:// or wss:// URLs"},
		{"bad scheme", []string{"--target", "ftp://x"}, exitUsage, "scheme must be ws:// or wss://"},
		{"mutate a target", []string{"--target", "ws://127.0.0.1:1", "--mutate", "x"}, exitUsage, "--mutate"},
		{"bad scale", []string{"--timeout-scale", "0"}, exitUsage, "timeout-scale"},
		{"bad answer", []string{"--answer", "maybe"}, exitUsage, "--answer must be"},
		{"bad repeat", []string{"--repeat", "0"}, exitUsage, "--repeat must be"},
		{"missing features", []string{"--features", "/nonexistent"}, exitUsage, "not a directory"},
		{"bad header", []string{"--header", "nocolon"}, exitUsage, "Key: Value"},
		{"target without a dialect", []string{"--features", "", "--target", "ws://127.0.0.1:1/ws"}, exitUsage, "name it with --dialect"},
		{"missing baseline", []string{"--baseline", "/nonexistent.json", "--tags", "@id:sample.hello"}, exitUsage, "baseline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"run", "--features", sampleFeatures}, tt.args...)
			code, out, errs := wsconform(t, args...)
			if code != tt.code || !strings.Contains(out+errs, tt.msg) {
				t.Errorf("exit %d (want %d), output lacks %q:\n%s\n%s", code, tt.code, tt.msg, out, errs)
			}
		})
	}
}

// TestRunRootCauses: a stated MUST broken on a frame the scenario's steps
// were not about fails the run (exit 1) as a root cause listed once, even
// inside a @should scenario; before, this printed PASS and exited 0.
func TestRunRootCauses(t *testing.T) {
	t.Parallel()
	code, out, errs := wsconform(t, "run", "--dialect", "minicodex", "--color", "never",
		"--mutate", "minicodex-replay-skips-event", "--tags", "@id:minicodex.resume.from-start")
	if code != exitFail {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitFail, out, errs)
	}
	for _, want := range []string{"1 distinct problem in the server's frames", "minicodex.replay-gap", "×1",
		"seen in:  1 scenario: minicodex.resume.from-start", "FAIL"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, errs = wsconform(t, "run", "--dialect", "minicodex", "--color", "never",
		"--tags", "@id:minicodex.resume.from-start")
	if code != 0 || strings.Contains(out, "distinct problem") {
		t.Errorf("the unmutated reference: exit %d, want 0 and no problem\n%s\n%s", code, out, errs)
	}
}

// TestRunNotAWebSocketTarget: a target that answers the handshake with an
// HTTP status (a wrong path, a plain web server, a refusal) is one target
// error naming the status, exit 3, not a failed scenario each.
func TestRunNotAWebSocketTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		want   string
	}{
		{"wrong path", http.StatusNotFound, "HTTP 404 Not Found: it is not a WebSocket endpoint of mitto"},
		{"plain web page", http.StatusOK, "HTTP 200 OK: it is not a WebSocket endpoint"},
		{"refused", http.StatusForbidden, "HTTP 403 Forbidden: it refused the handshake"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte("<html>not here</html>"))
			}))
			defer srv.Close()
			target := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
			code, out, errs := wsconform(t, "run", "--dialect", "mitto", "--target", target, "--color", "never")
			if code != exitHarness || !strings.Contains(out+errs, tt.want) {
				t.Errorf("exit %d (want %d), output lacks %q:\n%s\n%s", code, exitHarness, tt.want, out, errs)
			}
			if n := strings.Count(out, tt.want); n > 1 {
				t.Errorf("the cause is printed %d times, want once:\n%s", n, out)
			}
		})
	}
}

// TestRunSharedSessionAndLimit: a --target naming a mitto session runs
// one scenario at a time and says so once, unless --concurrency is given;
// a server at its session limit (HTTP 503) is one environment error with
// its words.
func TestRunSharedSessionAndLimit(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "session limit reached: 10 of 10", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	target := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws?session_id=abc"
	for _, conc := range []string{"", "4"} {
		args := []string{"run", "--dialect", "mitto", "--target", target, "--color", "never", "--tags", "@id:mitto.connect.connected,@id:mitto.prompt.received"}
		if conc != "" {
			args = append(args, "--concurrency", conc)
		}
		code, out, errs := wsconform(t, args...)
		if n := strings.Count(out+errs, runner.SharedSessionNotice); n != map[string]int{"": 1, "4": 0}[conc] {
			t.Errorf("--concurrency %q: the shared-session notice printed %d times:\n%s\n%s", conc, n, out, errs)
		}
		if code != exitHarness || !strings.Contains(out, "session limit reached: 10 of 10") || !strings.Contains(out, "environment:") {
			t.Errorf("exit %d (want %d), output lacks the environment error with the server's words:\n%s\n%s", code, exitHarness, out, errs)
		}
	}
}
