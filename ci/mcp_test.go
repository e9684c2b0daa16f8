package ci

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/internal/web"
	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/server"
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

// liveView is wsproxy --web in front of a minicodex server that repeats
// an event_id: one client turn goes through it, then the proxy is shut
// down, which drains its validator, so the web view's report holds the
// minicodex.event-id-order finding before the client asks (the view
// keeps serving the final report).
func liveView(t *testing.T) string {
	t.Helper()
	ref, err := reference.Start(context.Background(), "127.0.0.1:0", reference.Options{Dialects: []string{"minicodex"},
		Mutate: []string{"minicodex-event-id-repeats"}, Config: server.Config{Heartbeat: -1}})
	if err != nil {
		t.Fatal(err)
	}
	lv, err := web.Listen(context.Background(), web.Config{Listen: "127.0.0.1:0", Title: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := proxy.New(proxy.Config{Upstream: ref.URL, Dialect: "minicodex", Live: lv.Observer(), Console: discard{}, Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	lv.Start(p)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	minicodexTurn(t, "ws://"+ln.Addr().String()+"/ws")
	go func() { _ = hs.Shutdown(ctx) }()
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		lv.Stop()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = ref.Shutdown(ctx)
	})
	return lv.URL
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// minicodexTurn plays hello, one send and reads up to turn_done.
func minicodexTurn(t *testing.T, url string) {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	deadline := time.Now().Add(30 * time.Second)
	_ = ws.SetWriteDeadline(deadline)
	_ = ws.SetReadDeadline(deadline)
	for _, m := range []map[string]any{{"type": "hello", "v": "1.0.0", "client_capabilities": []string{}},
		{"type": "send", "text": "hi", "req_id": "r1"}} {
		if err := ws.WriteJSON(m); err != nil {
			t.Fatal(err)
		}
	}
	for {
		var m struct {
			Type string `json:"type"`
		}
		if err := ws.ReadJSON(&m); err != nil {
			t.Fatalf("reading up to turn_done: %v", err)
		}
		if m.Type == "turn_done" {
			break
		}
	}
	_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1000, "done"), deadline)
}
