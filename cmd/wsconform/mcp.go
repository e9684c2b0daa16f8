package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/wsconform/wsconform/internal/mcpserver"
	"github.com/wsconform/wsconform/internal/version"
)

const mcpAbout = `Serves wsconform to coding agents as a Model Context Protocol server, on
stdin/stdout by default (the agent host starts it), or with --http ADDR as
streamable HTTP on loopback. Tools: validate_recording, frames, live_sessions,
live_findings (a running wsproxy --web), explain, run_scenarios, replay; the
recordings and --json reports under the roots are resources too.

It reads files only under the roots (--root, the working directory by
default) and reaches servers and proxies only on loopback unless
--allow-remote. Bad arguments are error results naming the argument.

Agent host configuration (mcp.json):
  {"mcpServers": {"wsconform": {"command": "wsconform", "args": ["mcp", "--root", "."]}}}`

func runMCP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("mcp", "[--root DIR]... [--allow-remote] [--http ADDR]", mcpAbout, stdout)
	roots := fs.StringArray("root", nil, "directory whose recordings the tools may read (repeatable; default the working directory); relative paths are relative to the first")
	allowRemote := fs.Bool("allow-remote", false, "let run_scenarios, replay and the live tools reach hosts beyond loopback")
	httpAddr := fs.String("http", "", "serve streamable HTTP on this loopback `ADDR` (127.0.0.1:0 picks a port) instead of stdin/stdout; prints {\"type\":\"listening\",\"url\":…} on stdout")
	maxFile := fs.Int64("max-file-bytes", mcpserver.DefaultMaxFileBytes, "largest recording (or proxy report) a tool reads, in `BYTES`")
	callTimeout := fs.Duration("call-timeout", mcpserver.DefaultCallTimeout, "bound on one tool call (a run, a replay)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageErr("mcp: unexpected argument %q", fs.Arg(0))
	case *maxFile <= 0 || *callTimeout <= 0:
		return usageErr("mcp: --max-file-bytes and --call-timeout must be positive")
	}
	if *httpAddr != "" {
		if err := mcpserver.CheckListen(*httpAddr); err != nil {
			return usageErr("mcp: %v", err)
		}
	}
	srv, err := mcpserver.New(mcpserver.Config{Version: version.Number(), Roots: *roots, AllowRemote: *allowRemote,
		MaxFileBytes: *maxFile, CallTimeout: *callTimeout})
	if err != nil {
		return usageErr("mcp: --root: %v", err)
	}
	if *httpAddr == "" {
		if err := srv.RunStdio(ctx); err != nil {
			return harnessErr(fmt.Errorf("mcp: the session on stdin/stdout ended: %w", err))
		}
		return nil
	}
	ln, err := (&net.ListenConfig{KeepAlive: time.Minute}).Listen(ctx, "tcp", *httpAddr)
	if err != nil {
		return harnessErr(fmt.Errorf("mcp: %w", err))
	}
	b, _ := json.Marshal(map[string]string{"type": "listening", "url": "http://" + ln.Addr().String() + "/"})
	fmt.Fprintf(stdout, "%s\n", b)
	fmt.Fprintf(stderr, "wsconform mcp: streamable HTTP on http://%s/ (Ctrl-C stops)\n", ln.Addr())
	if err := srv.ServeHTTP(ctx, ln); err != nil {
		return harnessErr(fmt.Errorf("mcp: %w", err))
	}
	return nil
}
