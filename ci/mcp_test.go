package ci

import (
	"context"
	"github.com/wsconform/wsconform/internal/mcpserver/mcptest"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/reference"
)

// installMCPSDK is how the MCP client test gets its npm dependency
// (.ci/run does it).
const installMCPSDK = "npm ci --no-audit --no-fund (in ci/mcp)"

// TestMCPClient runs ci/mcp/client.js: the official MCP TypeScript SDK
// client starts `wsconform mcp` over stdio, lists its tools, calls each
// one against recordings and servers with planted faults, and checks the
// structured results (and, being that SDK, their output schemas).
func TestMCPClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not installed: %s", installNode)
	}
	if _, err := os.Stat("mcp/node_modules/@modelcontextprotocol/sdk/package.json"); err != nil {
		missing(t, "the npm package @modelcontextprotocol/sdk is not installed for the MCP client test: run %s", installMCPSDK)
	}
	bin := wsconformBin(t)
	root := t.TempDir()
	gap := copyInto(t, root, filepath.Join(repoRoot(t), "internal", "mcpserver", "testdata", "minicodex-replay-gap.jsonl"))
	golden := copyInto(t, root, filepath.Join(repoRoot(t), "internal", "replay", "testdata", "minicodex.jsonl"))
	replayTarget := startMinicodex(t, "minicodex-replay-skips-event")
	liveWeb := liveView(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/"
	ln.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.js")
	cmd.Dir = "mcp"
	cmd.Env = append(os.Environ(), "WSCONFORM_BIN="+bin, "MCP_ROOT="+root, "GAP_RECORDING="+gap, "GOLDEN_RECORDING="+golden,
		"REPLAY_TARGET="+replayTarget, "LIVE_WEB_URL="+liveWeb, "DEAD_URL="+dead)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node client.js: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// copyInto copies a fixture into dir, the MCP server's root.
func copyInto(t *testing.T, dir, src string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// startMinicodex starts a minicodex reference server with mutations.
func startMinicodex(t *testing.T, mutate ...string) string {
	t.Helper()
	srv, err := reference.Start(context.Background(), "127.0.0.1:0", reference.Options{Config: runner.ReferenceConfig(),
		Dialects: []string{"minicodex"}, Mutate: mutate, NoScriptedHost: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv.URL
}

// liveView is a wsproxy --web whose validator found minicodex.event-id-order
// on one turn and was then drained, so the web view's report holds the
// finding before the client asks (the view keeps serving the final report).
func liveView(t *testing.T) string {
	t.Helper()
	stack := mcptest.StartLiveStack(t)
	mcptest.Turn(t, stack.ProxyURL)
	stack.Drain(t)
	return stack.WebURL
}
