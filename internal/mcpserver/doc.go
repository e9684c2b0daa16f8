// Package mcpserver is `wsconform mcp`: a Model Context Protocol server
// that lets a coding agent ask what broke on the wire and which sentence
// of a spec it breaks. Agents cannot see WebSocket traffic; wsconform
// can, so its answers are offered as MCP tools:
//
//	validate_recording  a recording or HAR file judged offline (internal/validate)
//	frames              frames of a recording around an index or matching a filter
//	live_sessions       the sessions of a running wsproxy --web (/report.json)
//	live_findings       its findings since a cursor, for polling while a UI is used
//	explain             a rule or requirement: the spec's words, evidence, scenarios
//	run_scenarios       the conformance scenarios against a loopback target (internal/runner)
//	replay              a recording's client side against a target, the diff (internal/replay)
//
// Recordings and --json reports under the roots are also resources
// (wsconform://recording/ABSOLUTE/PATH, wsconform://report/ABSOLUTE/PATH),
// read as their validation summary and as their verdict and root causes.
//
// Every tool reuses the code path of the command that does the same
// (validate, rules/requirements, run, replay, wsproxy --web's JSON), so an
// agent and a person at the console get the same answer.
//
// # Safety
//
// The server is read-only on the filesystem: a path argument must resolve
// (symbolic links followed) under one of the roots (the working directory
// by default), and a file larger than Config.MaxFileBytes is refused
// before it is read. Targets (run_scenarios, replay) and proxy URLs
// (live_*) must be on loopback unless Config.AllowRemote. The streamable
// HTTP transport listens on loopback only.
//
// Arguments are decoded strictly (decodeArgs): an unknown member, a wrong
// type, a value out of range or a document too large is an error result
// naming the argument, never a crash; an unknown tool is the SDK's
// JSON-RPC error. A handler's panic becomes an error result too.
package mcpserver
