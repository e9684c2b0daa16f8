package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config is what `wsconform mcp` was started with.
type Config struct {
	// Version is the tool's version, told to clients.
	Version string
	// Roots are the directories whose files the tools may read; none
	// means the working directory. Relative path arguments are relative
	// to the first.
	Roots []string
	// AllowRemote lets run_scenarios, replay and the live tools reach
	// hosts beyond loopback.
	AllowRemote bool
	// MaxFileBytes is the largest recording a tool reads (0: default).
	MaxFileBytes int64
	// CallTimeout bounds one tool call (0: default); a run or a replay
	// that takes longer is stopped and reported as an error.
	CallTimeout time.Duration
}

// Defaults of Config.
const (
	DefaultMaxFileBytes = 64 << 20
	DefaultCallTimeout  = 10 * time.Minute
)

// Server holds the MCP server and what its tools share.
type Server struct {
	cfg   Config
	roots []string
	mcp   *mcp.Server
	tools []toolDef
}

// New checks cfg and makes the server with every tool and resource.
func New(cfg Config) (*Server, error) {
	if cfg.MaxFileBytes <= 0 {
		cfg.MaxFileBytes = DefaultMaxFileBytes
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	roots, err := resolveRoots(cfg.Roots)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, roots: roots}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "wsconform", Title: "wsconform: WebSocket protocol conformance", Version: cfg.Version},
		&mcp.ServerOptions{Instructions: instructions})
	s.tools = s.toolDefs()
	for _, t := range s.tools {
		s.mcp.AddTool(t.tool, t.handler)
	}
	s.addResources()
	return s, nil
}

// instructions tell an agent what the server is for and where to start.
const instructions = `wsconform judges JSON-over-WebSocket traffic of AI-agent protocols (minicodex, hostd, myagent, mitto, coworker) against their specs.
Start with validate_recording on a recording (wsproxy --record, .jsonl) or a Chrome DevTools HAR file: each distinct problem names its rule, the requirement ids it breaks and the spec's words.
Then frames (rule or index) shows the frames, explain a rule or requirement id, replay plays the recording against a server and diffs the answers.
While a developer uses a UI through 'wsproxy --web ADDR', live_sessions and live_findings (poll with the cursor) read its findings.`

// MCP is the SDK server, for transports and tests.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// RunStdio serves one client on stdin/stdout until it leaves or ctx ends.
func (s *Server) RunStdio(ctx context.Context) error {
	err := s.mcp.Run(ctx, &mcp.StdioTransport{})
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// Handler is the streamable HTTP transport. The SDK refuses a request
// that reached a loopback address under another Host name (DNS
// rebinding).
func (s *Server) Handler() http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, nil)
}

// CheckListen refuses an address that is not loopback: the tools read
// files and reach servers, so nothing may listen beyond this machine.
func CheckListen(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: want HOST:PORT on loopback (127.0.0.1:0): %w", addr, err)
	}
	if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || host == "localhost" {
		return nil
	}
	return fmt.Errorf("--http %q: the MCP server listens on loopback only (127.0.0.1, ::1 or localhost)", addr)
}

// ServeHTTP serves the streamable HTTP transport on ln until ctx ends.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// toolDef is one tool: its description with schemas, its handler, and
// its argument decoding alone (for the fuzz test).
type toolDef struct {
	tool    *mcp.Tool
	handler mcp.ToolHandler
	decode  func(json.RawMessage) error
}

// define makes a tool whose input and output schemas are inferred from
// In and Out, whose arguments go through decodeArgs and whose result is
// Out as structured content (and as JSON text, for clients that read
// only text). Any error, a panic included, is an error result.
func define[In, Out any](s *Server, name, title, desc string, run func(context.Context, In) (Out, error)) toolDef {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", name, err)) // a programming error, found by every test
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", name, err))
	}
	t := &mcp.Tool{Name: name, Title: title, Description: desc, InputSchema: in, OutputSchema: out,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, Title: title}}
	handler := func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
		defer func() {
			if p := recover(); p != nil {
				res = errorResult(fmt.Errorf("%s: internal error (please report it): %v", name, p))
			}
		}()
		var args In
		if err := decodeArgs(req.Params.Arguments, &args); err != nil {
			return errorResult(fmt.Errorf("%s: %w", name, err)), nil
		}
		ctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
		defer cancel()
		v, err := run(ctx, args)
		if err != nil {
			return errorResult(fmt.Errorf("%s: %w", name, err)), nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return errorResult(fmt.Errorf("%s: encode the result: %w", name, err)), nil
		}
		return &mcp.CallToolResult{StructuredContent: json.RawMessage(b), Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	}
	decode := func(raw json.RawMessage) error {
		var args In
		return decodeArgs(raw, &args)
	}
	return toolDef{tool: t, handler: handler, decode: decode}
}

// errorResult is a tool error: the agent sees the message and can correct
// its call.
func errorResult(err error) *mcp.CallToolResult {
	var r mcp.CallToolResult
	r.SetError(err)
	return &r
}

// toolDefs are the tools, in the order tools/list gives them.
func (s *Server) toolDefs() []toolDef {
	return []toolDef{
		define(s, "validate_recording", "Validate a recording",
			"Judge a recording (wsproxy --record, JSON Lines) or a Chrome DevTools HAR file against its dialect's spec, offline. "+
				"Returns the verdict and the distinct problems: rule, severity, the requirement ids it breaks, the spec's words, expected vs actual and the frame indexes.",
			s.validateRecording),
		define(s, "frames", "Frames of a recording",
			"Frames of a recording, each with the findings on it: around one frame index, or those matching a message type, connection or rule. "+
				"Bounded in count and payload size; payloads are redacted (tokens, keys).",
			s.frames),
		define(s, "live_sessions", "Sessions of a running wsproxy",
			"The sessions a running `wsproxy --web ADDR` has seen so far (its /report.json): connections, frame counts, verdicts and the rules that fired.",
			s.liveSessions),
		define(s, "live_findings", "New findings of a running wsproxy",
			"Findings of a running `wsproxy --web ADDR` since a cursor: call with no cursor, then again with the cursor it returned, to poll while a developer uses a UI.",
			s.liveFindings),
		define(s, "explain", "Explain a rule or requirement",
			"A rule id (minicodex.replay-gap, schema.violation) or a requirement id (minicodex.handshake.reply): the spec's words, evidence and level, "+
				"what a conforming message looks like, the rules that check it and the scenarios that test it.",
			s.explain),
		talks(define(s, "run_scenarios", "Run conformance scenarios",
			"Run the dialect's conformance scenarios against a server (a loopback ws:// URL), or against the embedded reference server when no target is given "+
				"(optionally with planted mutations). Returns each scenario's verdict and cause, and the distinct problems.",
			s.runScenarios)),
		talks(define(s, "replay", "Replay a recording against a server",
			"Play the client side of a recording against a server (loopback ws:// URL) and compare what it answers with what the recorded server answered: "+
				"per connection the missing, extra and changed messages, and the problems the check engine found in the new traffic.",
			s.replay)),
	}
}

// talks marks a tool that sends messages to a server: a replay's prompts
// or a scenario's reach the target's agent, so it is not read-only,
// though it never writes a file.
func talks(t toolDef) toolDef {
	no := false
	t.tool.Annotations.ReadOnlyHint, t.tool.Annotations.DestructiveHint = false, &no
	return t
}
