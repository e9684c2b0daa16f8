package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/server"
)

// Credentials planted in a run and in a gated client.
const (
	secretQuery  = "SECRET1-query-0123456789"
	secretHost   = "SECRET2-host-0123456789"
	secretBearer = "SECRET3-bearer-0123456789"
	secretAPIKey = "SECRET4-apikey-0123456789"
	secretPass   = "SECRET5-pass-0123456789"
)

// artifacts reads every file of dir.
func artifacts(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

func assertAbsent(t *testing.T, arts map[string]string, secrets ...string) {
	t.Helper()
	for name, body := range arts {
		for _, s := range secrets {
			if i := strings.Index(body, s); i >= 0 {
				t.Errorf("%s holds %s: …%s…", name, s, body[max(0, i-120):min(len(body), i+40)])
			}
		}
	}
}

func assertPresent(t *testing.T, arts map[string]string, names []string, secrets ...string) {
	t.Helper()
	for _, name := range names {
		for _, s := range secrets {
			if !strings.Contains(arts[name], s) {
				t.Errorf("%s lacks %s", name, s)
			}
		}
	}
}

// TestRunRedactsCredentials: `wsconform run` against a hostd server whose
// host token and password are given with --var, and an Authorization with
// --header: none of them is in the HTML, JSON, JUnit or Markdown report,
// nor is an access token the server handed out; with --no-redact the
// command line in the reports keeps them.
func TestRunRedactsCredentials(t *testing.T) {
	t.Parallel()
	ref, err := reference.Start(context.Background(), "127.0.0.1:0", reference.Options{Dialects: []string{"hostd"},
		Config: server.Config{Heartbeat: -1, Auth: server.Auth{User: "demo", Password: secretPass, HostToken: secretHost}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ref.Shutdown(context.Background()) })
	run := func(extra ...string) map[string]string {
		dir := t.TempDir()
		args := []string{"run", "--dialect", "hostd", "--target", ref.URL, "--color", "never", "--tags", "@hostd",
			"--var", "host_token=" + secretHost, "--var", "user=demo", "--var", "password=" + secretPass,
			"--header", "Authorization: Bearer " + secretBearer,
			"--json", filepath.Join(dir, "r.json"), "--html", filepath.Join(dir, "r.html"),
			"--junit", filepath.Join(dir, "r.xml"), "--markdown", filepath.Join(dir, "r.md")}
		code, out, errs := wsconform(t, append(args, extra...)...)
		if code == exitHarness || code == exitUsage {
			t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
		}
		return artifacts(t, dir)
	}
	arts := run()
	if len(arts) != 4 {
		t.Fatalf("%d reports, want 4", len(arts))
	}
	assertAbsent(t, arts, secretHost, secretPass, secretBearer)
	assertPresent(t, arts, []string{"r.json"}, "host_token=redacted(23)", "Bearer «redacted: 25 chars»")

	kept := run("--no-redact")
	assertPresent(t, kept, []string{"r.json"}, secretHost, secretPass, secretBearer)
}

// TestGateRedactsCredentials: a client under `wsconform gate` connects
// with credentials in the query, an Authorization and a Cookie, and sends
// an apiKey: neither the recording nor a report holds them, unless
// --no-redact.
func TestGateRedactsCredentials(t *testing.T) {
	t.Parallel()
	gate := func(extra ...string) map[string]string {
		dir := t.TempDir()
		args := []string{"gate", "--dialect", "minicodex", "--color", "never", "--record", filepath.Join(dir, "rec.jsonl"),
			"--json", filepath.Join(dir, "r.json"), "--html", filepath.Join(dir, "r.html"),
			"--junit", filepath.Join(dir, "r.xml"), "--markdown", filepath.Join(dir, "r.md")}
		args = append(append(args, extra...), "--", "env", "WSCONFORM_REDACT_CLIENT=1", os.Args[0], "-test.run=^TestGateRedactClient$")
		code, out, errs := wsconform(t, args...)
		if code == exitHarness || code == exitUsage || !strings.Contains(out+errs, "client command exited 0") {
			t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
		}
		return artifacts(t, dir)
	}
	arts := gate()
	assertAbsent(t, arts, secretQuery, secretHost, secretBearer, secretAPIKey, secretPass)
	assertPresent(t, arts, []string{"rec.jsonl"}, "token=redacted(24)&host_token=redacted(23)", "«redacted: 25 chars»")

	kept := gate("--no-redact")
	assertPresent(t, kept, []string{"rec.jsonl"}, secretQuery, secretHost, secretAPIKey)
	assertPresent(t, kept, []string{"r.json", "r.html", "r.xml"}, secretAPIKey)

	// validate of the recording kept with its secrets: its reports and
	// --json are redacted unless --no-redact.
	rec := filepath.Join(t.TempDir(), "kept.jsonl")
	if err := os.WriteFile(rec, []byte(kept["rec.jsonl"]), 0o644); err != nil {
		t.Fatal(err)
	}
	validate := func(extra ...string) map[string]string {
		dir := t.TempDir()
		args := append([]string{"validate", "--color", "never", "--json", filepath.Join(dir, "v.json"),
			"--html", filepath.Join(dir, "v.html"), "--junit", filepath.Join(dir, "v.xml"),
			"--markdown", filepath.Join(dir, "v.md")}, extra...)
		if code, out, errs := wsconform(t, append(args, rec)...); code != exitFail {
			t.Fatalf("validate exit %d, want 1 (the apiKey is not a member of send):\n%s\n%s", code, out, errs)
		}
		return artifacts(t, dir)
	}
	assertAbsent(t, validate(), secretQuery, secretHost, secretAPIKey)
	assertPresent(t, validate("--no-redact"), []string{"v.html", "v.xml"}, secretAPIKey)
}

// TestGateRedactClient is the client TestGateRedactsCredentials gates (the
// test binary run again); it does nothing in a normal test run.
func TestGateRedactClient(t *testing.T) {
	url := os.Getenv("WSCONFORM_URL")
	if os.Getenv("WSCONFORM_REDACT_CLIENT") == "" || url == "" {
		t.Skip("only run by wsconform gate")
	}
	h := http.Header{"Authorization": {"Bearer " + secretBearer}, "Cookie": {"sid=" + secretPass}}
	ws, _, err := (&websocket.Dialer{HandshakeTimeout: 10 * time.Second}).Dial(
		url+"?token="+secretQuery+"&host_token="+secretHost, h)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	until := func(typ string) {
		for {
			var m map[string]any
			if err := ws.ReadJSON(&m); err != nil {
				t.Fatalf("read: %v", err)
			}
			if m["type"] == typ {
				return
			}
		}
	}
	if err := ws.WriteJSON(map[string]any{"type": "hello", "v": "1.0.0"}); err != nil {
		t.Fatal(err)
	}
	until("snapshot")
	if err := ws.WriteJSON(map[string]any{"type": "send", "text": "hi", "apiKey": secretAPIKey}); err != nil {
		t.Fatal(err)
	}
	until("error")
	_ = ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "bye"))
}
