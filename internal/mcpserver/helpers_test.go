package mcpserver

import (
	"context"
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// timeout bounds every wait of a test, so that a broken test fails
// instead of hanging; no assertion is about time.
const timeout = 60 * time.Second

// Fixtures. minicodex-replay-gap.jsonl is the recording `wsconform replay
// --record` made replaying internal/replay/testdata/minicodex.jsonl
// against `wsconform serve --mutate minicodex-replay-skips-event`: its
// third connection resumes and the server's replay skips event_id 2
// (frame 14).
var (
	gapRecording     = filepath.Join("testdata", "minicodex-replay-gap.jsonl")
	plantedRecording = filepath.Join("..", "..", "cmd", "wsconform", "testdata", "minicodex-planted.jsonl")
	replayGolden     = filepath.Join("..", "replay", "testdata", "minicodex.jsonl")
)

// testRoots are the fixtures' folders.
var testRoots = []string{"testdata", filepath.Join("..", "..", "cmd", "wsconform", "testdata"), filepath.Join("..", "replay", "testdata")}

// connect serves a Server made from cfg over streamable HTTP on a
// loopback port and returns a client session of the SDK's client.
func connect(t *testing.T, cfg Config) *mcp.ClientSession {
	t.Helper()
	if cfg.Roots == nil {
		cfg.Roots = testRoots
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.ServeHTTP(ctx, ln) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "wsconform-test", Version: "1"}, nil)
	cctx, ccancel := context.WithTimeout(context.Background(), timeout)
	defer ccancel()
	cs, err := client.Connect(cctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/"}, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return cs
}

// call calls a tool with raw JSON arguments and returns its result.
func call(t *testing.T, cs *mcp.ClientSession, name, args string) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s(%s): %v", name, args, err)
	}
	return res
}

// callOK calls a tool that must succeed and decodes its structured result.
func callOK[T any](t *testing.T, cs *mcp.ClientSession, name, args string) T {
	t.Helper()
	res := call(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s(%s): error result: %s", name, args, text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	checkOutput(t, cs, name, b)
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
	return out
}

// text is a result's text content.
func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// problemOf finds a rule's problem.
func problemOf(ps []Problem, rule string) *Problem {
	for i := range ps {
		if ps[i].Rule == rule {
			return &ps[i]
		}
	}
	return nil
}

func absPath(p string) (string, error) { return filepath.Abs(p) }

// checkOutput validates a tool's structured result against the output
// schema tools/list gave for it, as the TypeScript SDK's client does.
func checkOutput(t *testing.T, cs *mcp.ClientSession, name string, result []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name != name {
			continue
		}
		b, _ := json.Marshal(tool.OutputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(result, &v); err != nil {
			t.Fatal(err)
		}
		if err := resolved.Validate(&v); err != nil {
			t.Errorf("%s: the result breaks its output schema: %v", name, err)
		}
		return
	}
	t.Errorf("no tool %s listed", name)
}
