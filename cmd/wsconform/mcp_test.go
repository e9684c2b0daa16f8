package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPUsage: the flags' mistakes are usage errors that say what to do.
func TestMCPUsage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"mcp", "--help"}, exitOK, `"mcpServers"`},
		{[]string{"mcp", "--http", "0.0.0.0:0"}, exitUsage, "loopback only"},
		{[]string{"mcp", "--http", "nonsense"}, exitUsage, "want HOST:PORT"},
		{[]string{"mcp", "--root", "/nonexistent/dir"}, exitUsage, "--root"},
		{[]string{"mcp", "--root", "testdata/minicodex-planted.jsonl"}, exitUsage, "not a directory"},
		{[]string{"mcp", "--max-file-bytes", "0"}, exitUsage, "must be positive"},
		{[]string{"mcp", "serve"}, exitUsage, `unexpected argument "serve"`},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := wsconform(t, tc.args...)
			if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
				t.Errorf("exit %d (want %d), output lacks %q:\n%s%s", code, tc.code, tc.want, stdout, stderr)
			}
		})
	}
}

// TestMCPHTTP: `wsconform mcp --http 127.0.0.1:0` prints where it
// listens, an MCP client validates a recording through it, and it stops
// cleanly (exit 0) when its context ends.
func TestMCPHTTP(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		err := run(ctx, []string{"mcp", "--http", "127.0.0.1:0", "--root", "testdata"}, pw, io.Discard)
		pw.Close()
		done <- exitCode(err, io.Discard)
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no listening line: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var l struct{ Type, URL string }
	if err := json.Unmarshal([]byte(line), &l); err != nil || l.Type != "listening" || !strings.HasPrefix(l.URL, "http://127.0.0.1:") {
		t.Fatalf("listening line %q: %v", line, err)
	}
	cctx, ccancel := context.WithTimeout(context.Background(), time.Minute)
	defer ccancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(cctx, &mcp.StreamableClientTransport{Endpoint: l.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "validate_recording", Arguments: map[string]any{"path": "minicodex-planted.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if res.IsError || !strings.Contains(string(b), `"verdict":"failed"`) || !strings.Contains(string(b), "minicodex.replay-mismatch") {
		t.Errorf("validate_recording: %s", b)
	}
	cs.Close()
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("exit %d after its context ended", code)
	}
}
