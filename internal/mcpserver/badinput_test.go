package mcpserver

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// deadURL is the address of a loopback port nothing listens on any more.
func deadURL(t *testing.T, scheme string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return scheme + "://" + addr + "/"
}

// TestBadInput: every kind of bad call is an error result whose words say
// what was wrong, and the server goes on answering.
func TestBadInput(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	if err := os.WriteFile(outside, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "root")
	if err := os.Mkdir(link, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(link, "escape.jsonl")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, Config{Roots: append([]string{link}, testRoots...)})
	small := connect(t, Config{MaxFileBytes: 1000})
	absGap := quoteAbs(t, gapRecording)
	cases := []struct {
		name, tool, args string
		cs               *mcp.ClientSession
		want             []string
	}{
		{"wrong type", "validate_recording", `{"path":5}`, cs, []string{`argument "path": want a string, got a JSON number`}},
		{"unknown argument", "frames", `{"path":"x.jsonl","index":3}`, cs, []string{`unknown argument "index"`, "around"}},
		{"not an object", "explain", `["minicodex.replay-gap"]`, cs, []string{"arguments must be a JSON object, got an array"}},
		{"missing path", "validate_recording", `{}`, cs, []string{`argument "path": give the path`}},
		{"out of range", "frames", `{"path":"a","limit":100000}`, cs, []string{`argument "limit": 100000 is out of range`}},
		{"unknown dialect", "validate_recording", `{"path":"a","dialect":"klingon"}`, cs, []string{`unknown dialect "klingon" (known: minicodex, hostd, `}},
		{"outside the roots", "validate_recording", `{"path":"/etc/passwd"}`, cs, []string{"outside the roots", "--root"}},
		{"dot dot", "validate_recording", `{"path":"../../../../../../../etc/passwd"}`, cs, []string{"outside the roots"}},
		{"link out of the roots", "validate_recording", `{"path":"escape.jsonl"}`, cs, []string{"outside the roots"}},
		{"no such file", "frames", `{"path":"nope.jsonl"}`, cs, []string{"no such file"}},
		{"a folder", "validate_recording", `{"path":"."}`, cs, []string{"not a regular file"}},
		{"huge recording", "validate_recording", `{"path":` + absGap + `}`, small, []string{"more than the 1000 this server reads", "--max-file-bytes"}},
		{"dead proxy", "live_sessions", `{"proxy_url":"` + deadURL(t, "http") + `"}`, cs, []string{"cannot reach the wsproxy web view", "is `wsproxy --web ADDR` running"}},
		{"remote proxy", "live_findings", `{"proxy_url":"http://example.com/"}`, cs, []string{"not a loopback address", "--allow-remote"}},
		{"bad cursor", "live_findings", `{"proxy_url":"http://127.0.0.1:1/","cursor":"c1.!!!"}`, cs, []string{`argument "cursor": it is damaged`}},
		{"foreign cursor", "live_findings", `{"proxy_url":"http://127.0.0.1:1/","cursor":"abc"}`, cs, []string{"not a cursor of this server"}},
		{"remote target", "run_scenarios", `{"dialect":"minicodex","target":"ws://10.1.2.3:9/ws"}`, cs, []string{"not a loopback address"}},
		{"no dialect", "run_scenarios", `{}`, cs, []string{`argument "dialect": name the target's dialect`}},
		{"mutate a target", "run_scenarios", `{"dialect":"minicodex","target":"ws://127.0.0.1:9/ws","mutate":["x"]}`, cs, []string{"mutations apply to the embedded reference server"}},
		{"too many scenarios", "run_scenarios", `{"dialect":"minicodex","max_scenarios":1}`, cs, []string{"more than max_scenarios 1"}},
		{"bad tags", "run_scenarios", `{"dialect":"minicodex","tags":"@a &&"}`, cs, []string{`argument "tags"`}},
		{"dead replay target", "replay", `{"path":` + absGap + `,"against":"` + deadURL(t, "ws") + `"}`, cs, []string{"target unreachable"}},
		{"replay http target", "replay", `{"path":` + absGap + `,"against":"http://127.0.0.1:1/"}`, cs, []string{"want a ws or wss URL"}},
		{"unknown id", "explain", `{"id":"minicodex.replay-gaps"}`, cs, []string{"neither a rule nor a requirement", "minicodex.replay-gap"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := call(t, tc.cs, tc.tool, tc.args)
			got := text(res)
			if !res.IsError {
				t.Fatalf("not an error result: %s", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("error %q lacks %q", got, w)
				}
			}
		})
	}
	t.Run("unknown tool", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete_everything"})
		if err == nil || !strings.Contains(err.Error(), `unknown tool "delete_everything"`) {
			t.Errorf("unknown tool: %v", err)
		}
	})
	// still answering after all of it
	callOK[explainResult](t, cs, "explain", `{"id":"minicodex.replay-gap"}`)
}

// TestLiveRefusesRedirect: a loopback address that redirects elsewhere is
// not followed: it could lead beyond loopback.
func TestLiveRefusesRedirect(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/report.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://192.0.2.1/report.json", http.StatusFound)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: timeout}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { hs.Close() })
	cs := connect(t, Config{})
	res := call(t, cs, "live_sessions", `{"proxy_url":"http://`+ln.Addr().String()+`/"}`)
	if !res.IsError || !strings.Contains(text(res), "redirected") {
		t.Errorf("redirect: %s", text(res))
	}
}
