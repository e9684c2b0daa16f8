package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/server"
)

// replayGolden is a committed recording of a dialect's scenarios, made
// through the proxy in front of the reference server (internal/replay
// testdata, regenerated there with -update).
func replayGolden(dialect string) string {
	return filepath.Join("..", "..", "internal", "replay", "testdata", dialect+".jsonl")
}

// replayRef starts a reference server of one dialect for a replay test
// (hostd without its scripted host: the recording plays the host).
func replayRef(t *testing.T, dialect string, mutate ...string) string {
	t.Helper()
	srv, err := reference.Start(context.Background(), "127.0.0.1:0", reference.Options{Config: runner.ReferenceConfig(),
		Dialects: []string{dialect}, Mutate: mutate, NoScriptedHost: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv.URL
}

// TestReplayCommand: the exit code and the key text of each outcome.
func TestReplayCommand(t *testing.T) {
	t.Parallel()
	fresh := replayRef(t, "minicodex")
	mutated := replayRef(t, "minicodex", "minicodex-replay-skips-event")
	hostd := replayRef(t, "hostd")
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(t.TempDir(), "garbage.jsonl")
	if err := os.WriteFile(garbage, []byte("not a recording\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mc := replayGolden("minicodex")
	hostCreds := []string{"--login", server.DefaultAuth.User + ":" + server.DefaultAuth.Password, "--query", "host_token=" + server.DefaultAuth.HostToken}
	cases := []struct {
		name string
		args []string
		code int
		// want are texts of stdout+stderr, in any order.
		want []string
	}{
		{"passes", []string{"--against", fresh, mc}, exitOK, []string{"c3 → r-c3", "no diff", "PASS", "4 of 4 connections match"}},
		{"mutated", []string{"--against", mutated, "--answer-timeout", "1s", mc}, exitFail,
			[]string{"- missing", "user_text", "minicodex.replay-gap", "FAIL", "3 of 4 connections match"}},
		{"ignored member", []string{"--against", fresh, "--ignore", "welcome:/session_state", mc}, exitOK, []string{"PASS"}},
		{"hostd login", append([]string{"--against", hostd, replayGolden("hostd")}, hostCreds...), exitOK, []string{"PASS", "4 of 4"}},
		{"hostd without credentials", []string{"--against", hostd, replayGolden("hostd")}, exitUsage,
			[]string{"redacted the query value of host_token", "token (on c2)", "--login USER:PASSWORD"}},
		{"hostd wrong password", append([]string{"--against", hostd, replayGolden("hostd")}, "--login", "demo:nope", "--query", "host_token=x"), exitUsage,
			[]string{"--login", "401"}},
		{"dead target", []string{"--against", "ws://127.0.0.1:1", mc}, exitHarness, []string{"target unreachable", "connection refused"}},
		{"refused handshake", []string{"--against", fresh + "/nowhere", mc}, exitHarness, []string{"target unreachable", "handshake refused: 404"}},
		{"no recording", []string{"--against", fresh}, exitUsage, []string{"no RECORDING given"}},
		{"no against", []string{mc}, exitUsage, []string{"--against URL is required"}},
		{"missing file", []string{"--against", fresh, "/nonexistent/rec.jsonl"}, exitUsage, []string{"cannot read RECORDING", "no such file"}},
		{"not a recording", []string{"--against", fresh, garbage}, exitUsage, []string{"not a recording or HAR file"}},
		{"empty recording", []string{"--against", fresh, empty}, exitHarness, []string{"nothing to replay"}},
		{"bad pace", []string{"--against", fresh, "--pace", "slow", mc}, exitUsage, []string{"--pace must be fast or original"}},
		{"bad mask", []string{"--against", fresh, "--ignore", "a/b", mc}, exitUsage, []string{"--ignore", "a pointer starts with /"}},
		{"no scheme", []string{"--against", "127.0.0.1:9", mc}, exitUsage, []string{"--against"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := wsconform(t, append([]string{"replay", "--color", "never"}, tc.args...)...)
			out := stdout + stderr
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", code, tc.code, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestReplayReports: --json - is a replay report with a diff per
// connection and the judged sessions; --record writes the new traffic,
// which validate accepts.
func TestReplayReports(t *testing.T) {
	t.Parallel()
	srv := replayRef(t, "myagent")
	rec := filepath.Join(t.TempDir(), "new.jsonl")
	html := filepath.Join(t.TempDir(), "replay.html")
	code, stdout, stderr := wsconform(t, "replay", "--against", srv, "--json", "-", "--html", html, "--record", rec, replayGolden("myagent"))
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var rep struct {
		Kind     string `json:"kind"`
		Verdict  string `json:"verdict"`
		Sessions []struct {
			Frames int `json:"frames_total"`
		} `json:"sessions"`
		Replays []struct {
			Conn, Replayed string
			Matched        bool
			Rows           []struct{ Op string } `json:"rows"`
		} `json:"replays"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("--json - is not JSON: %v\n%s", err, stdout)
	}
	if rep.Kind != "replay" || rep.Verdict != "passed" || len(rep.Replays) == 0 || len(rep.Sessions) == 0 {
		t.Fatalf("report: kind %q verdict %q, %d replays, %d sessions", rep.Kind, rep.Verdict, len(rep.Replays), len(rep.Sessions))
	}
	for _, d := range rep.Replays {
		if !d.Matched || !strings.HasPrefix(d.Replayed, "r-") {
			t.Errorf("connection %s → %q matched=%v", d.Conn, d.Replayed, d.Matched)
		}
	}
	if st, err := os.Stat(html); err != nil || st.Size() == 0 {
		t.Errorf("no HTML report: %v", err)
	}
	if code, _, errs := wsconform(t, "validate", rec); code != exitOK {
		t.Errorf("validate of the replay's recording: exit %d\n%s", code, errs)
	}
}

// TestReplayHelp: --help shows the synopsis, the credentials and an
// example.
func TestReplayHelp(t *testing.T) {
	t.Parallel()
	code, stdout, _ := wsconform(t, "replay", "--help")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, w := range []string{"Usage: wsconform replay --against URL", "Example:", "--login", "--query", "--ignore", "--pace", "Exit codes"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("--help lacks %q", w)
		}
	}
}
