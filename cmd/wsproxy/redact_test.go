package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/validate"
)

// Credentials a client hands the proxy: in the query, in headers and in a
// frame.
const (
	secretQuery  = "SECRET1-query-0123456789"
	secretHost   = "SECRET2-host-0123456789"
	secretBearer = "SECRET3-bearer-0123456789"
	secretAPIKey = "SECRET4-apikey-0123456789"
	secretCookie = "SECRET5-cookie-0123456789"
	// In JSON held in a string member, and a token in a chat text: found
	// by the shape of their document and by their own.
	secretNested = "SECRET6-nested-0123456789"
	secretGitHub = "ghp_0123456789abcdefghijABCDEFGHIJklmnop"
)

var allSecrets = []string{secretQuery, secretHost, secretBearer, secretAPIKey, secretCookie, secretNested, secretGitHub}

// proxySecrets runs wsproxy with every artifact in front of the minicodex
// reference, sends the credentials through it, and returns the contents of
// the recording and of the reports (JSON, HTML, JUnit, Markdown summary),
// by file name.
func proxySecrets(t *testing.T, extra ...string) map[string]string {
	t.Helper()
	ref := startRef(t, "minicodex")
	dir := t.TempDir()
	files := map[string]string{
		"record": filepath.Join(dir, "rec.jsonl"), "json": filepath.Join(dir, "r.json"),
		"html": filepath.Join(dir, "r.html"), "junit": filepath.Join(dir, "r.xml")}
	summary := filepath.Join(dir, "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	args := []string{"--upstream", ref.URL, "--dialect", "minicodex", "--color", "never"}
	for flag, path := range files {
		args = append(args, "--"+flag, path)
	}
	l, stop := proxying(t, append(args, extra...)...)
	h := http.Header{"Authorization": {"Bearer " + secretBearer}, "Cookie": {"sid=" + secretCookie}}
	ws, _, err := (&websocket.Dialer{HandshakeTimeout: timeout}).Dial(
		l.URL+"/ws?token="+secretQuery+"&host_token="+secretHost, h)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	_ = ws.SetReadDeadline(time.Now().Add(timeout))
	sendJSON(t, ws, map[string]any{"type": "hello", "v": "1.0.0"})
	readUntil(t, ws, "snapshot")
	// The reference refuses the member (BAD_ARGUMENT) and the checker
	// flags it: the frame is in the reports' wire logs.
	sendJSON(t, ws, map[string]any{"type": "send", "text": "hi", "apiKey": secretAPIKey,
		"config": `{"password":"` + secretNested + `"}`})
	readUntil(t, ws, "error")
	sendJSON(t, ws, map[string]any{"type": "send", "text": "hi, clone with " + secretGitHub})
	readUntil(t, ws, "turn_done")
	if code, _, stderr := stop(); code != exitOK {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	files["markdown"] = summary
	out := map[string]string{}
	for name, path := range files {
		b, err := os.ReadFile(path)
		if err != nil || len(b) == 0 {
			t.Fatalf("%s: %v (%d bytes)", name, err, len(b))
		}
		out[name] = string(b)
	}
	return out
}

// TestNoSecretInArtifacts: by default no credential the client sent (query,
// Authorization, Cookie, a frame's apiKey) is in the recording or in any
// report; the redacted recording is judged offline exactly like one kept
// with --no-redact.
func TestNoSecretInArtifacts(t *testing.T) {
	arts := proxySecrets(t)
	for name, body := range arts {
		for _, s := range allSecrets {
			if strings.Contains(body, s) {
				i := strings.Index(body, s)
				t.Errorf("%s holds %s: …%s…", name, s, body[max(0, i-100):min(len(body), i+40)])
			}
		}
	}
	for _, want := range []string{"token=redacted(24)&host_token=redacted(23)", `\"apiKey\":\"«redacted: 25 chars»\"`,
		`{\\\"password\\\":\\\"«redacted: 25 chars»\\\"}`, `hi, clone with «redacted: 40 chars»`} {
		if !strings.Contains(arts["record"], want) {
			t.Errorf("recording lacks %s:\n%s", want, arts["record"])
		}
	}

	// With --no-redact they are kept: the query in the recording (the
	// proxy's reports show connection URLs without their query in any
	// case), the frame's apiKey everywhere.
	kept := proxySecrets(t, "--no-redact")
	for _, s := range []string{secretQuery, secretHost, secretAPIKey} {
		if !strings.Contains(kept["record"], s) {
			t.Errorf("--no-redact: the recording lacks %s", s)
		}
	}
	for _, name := range []string{"json", "html", "junit"} {
		if !strings.Contains(kept[name], secretAPIKey) {
			t.Errorf("--no-redact: %s lacks %s", name, secretAPIKey)
		}
	}
	// The proxy writes no header anywhere, redacted or not.
	for name, body := range kept {
		if strings.Contains(body, secretBearer) || strings.Contains(body, secretCookie) {
			t.Errorf("--no-redact: %s holds a header", name)
		}
	}

	if got, want := offlineRules(t, arts["record"]), offlineRules(t, kept["record"]); got != want {
		t.Errorf("the redacted recording is judged differently:\n redacted %s\n kept     %s", got, want)
	}
}

// offlineRules judges a recording with validate and lists its findings.
func offlineRules(t *testing.T, rec string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := validate.File(context.Background(), path, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		out = append(out, f.Rule+" "+f.Type+" "+f.Pointer)
	}
	sort.Strings(out)
	if len(out) == 0 {
		t.Error("no finding offline: apiKey is not a member of minicodex's send")
	}
	return strings.Join(out, "; ")
}

func TestHelpNoRedact(t *testing.T) {
	var out, errb bytes.Buffer
	if code := exitCode(run(context.Background(), []string{"--help"}, &out, &errb), &errb); code != 0 || !strings.Contains(out.String(), "--no-redact") {
		t.Errorf("--help lacks --no-redact (exit %d)", code)
	}
}
