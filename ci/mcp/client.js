// Drives `wsconform mcp` over stdio with the official MCP TypeScript SDK
// client: lists the tools, calls each one, and checks the structured
// results against recordings and servers with planted faults. The SDK's
// client also validates every structured result against the tool's
// output schema. ci/mcp_test.go starts the servers and runs this with:
//
//   WSCONFORM_BIN     the wsconform binary
//   MCP_ROOT          the root the server may read (holds the recordings)
//   GAP_RECORDING     a recording (under MCP_ROOT) whose replay after resume skips event_id 2
//   GOLDEN_RECORDING  a clean minicodex recording (under MCP_ROOT)
//   REPLAY_TARGET     a minicodex server that skips an event on resume
//   LIVE_WEB_URL      a wsproxy --web view whose proxy judged a minicodex.event-id-order error
//   DEAD_URL          an http:// loopback address nothing listens on
//
// It prints one line per check and exits 1 on the first failure.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const env = (name) => {
  const v = process.env[name];
  if (!v) {
    console.error(`mcp client test: $${name} is not set (ci/mcp_test.go sets it)`);
    process.exit(2);
  }
  return v;
};

const bin = env("WSCONFORM_BIN");
const root = env("MCP_ROOT");
const gap = env("GAP_RECORDING");
const golden = env("GOLDEN_RECORDING");
const replayTarget = env("REPLAY_TARGET");
const liveWeb = env("LIVE_WEB_URL");
const deadURL = env("DEAD_URL");

const transport = new StdioClientTransport({ command: bin, args: ["mcp", "--root", root], stderr: "inherit" });
const client = new Client({ name: "wsconform-ci", version: "1.0.0" });

const ok = (what) => console.log(`ok - ${what}`);

// call calls a tool that must succeed and returns its structured result.
async function call(name, args) {
  const res = await client.callTool({ name, arguments: args });
  assert.ok(!res.isError, `${name}: error result: ${JSON.stringify(res.content)}`);
  assert.ok(res.structuredContent, `${name}: no structured content`);
  // The text content carries the same JSON, for clients that read text.
  assert.deepEqual(JSON.parse(res.content[0].text), res.structuredContent, `${name}: text and structured content differ`);
  return res.structuredContent;
}

// callError calls a tool that must give an error result naming want.
async function callError(name, args, want) {
  const res = await client.callTool({ name, arguments: args });
  const text = (res.content ?? []).map((c) => c.text).join("\n");
  assert.equal(res.isError, true, `${name}(${JSON.stringify(args)}): not an error result: ${text}`);
  assert.match(text, want, `${name}: error ${JSON.stringify(text)}`);
}

const problem = (res, rule) => res.problems.find((p) => p.rule === rule);

async function main() {
  await client.connect(transport);
  ok(`connected to ${client.getServerVersion().name} ${client.getServerVersion().version}`);

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, ["explain", "frames", "live_findings", "live_sessions", "replay", "run_scenarios", "validate_recording"]);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, "object", `${t.name}: input schema`);
    assert.equal(t.outputSchema?.type, "object", `${t.name}: output schema`);
  }
  ok("tools/list: 7 tools, each with input and output schemas");

  // validate_recording: the planted replay gap, with its requirement.
  const v = await call("validate_recording", { path: gap });
  assert.equal(v.verdict, "failed");
  const g = problem(v, "minicodex.replay-gap");
  assert.ok(g, `no replay-gap problem in ${JSON.stringify(v.problems)}`);
  assert.ok(g.requirements.includes("minicodex.handshake.reply"), `requirements ${g.requirements}`);
  assert.match(g.quote, /replay delta from last_seen_event_id/);
  assert.equal(g.expected, "event_id 2 next");
  assert.equal(g.actual, "3");
  assert.deepEqual(g.frames, [14]);
  ok("validate_recording: minicodex.replay-gap at frame 14 breaks minicodex.handshake.reply");

  // frames: the frame of the problem, with the finding on it.
  const f = await call("frames", { path: gap, around: 14, before: 1, after: 1 });
  assert.deepEqual(f.frames.map((x) => x.index), [13, 14, 15]);
  assert.equal(f.frames[1].findings[0].rule, "minicodex.replay-gap");
  assert.equal(f.frames[1].type, "run_status");
  ok("frames: 13..15 around the gap, the finding on frame 14");

  // explain: the requirement's words and the scenarios that test it.
  const e = await call("explain", { id: "minicodex.replay-gap" });
  const req = e.requirements.find((r) => r.id === "minicodex.handshake.reply");
  assert.ok(req && req.quote.length > 0 && req.scenarios.length > 0, JSON.stringify(e.requirements));
  ok(`explain: minicodex.handshake.reply, "${req.quote.slice(0, 60)}…", ${req.scenarios.length} scenarios`);

  // run_scenarios: the embedded reference server with the planted fault.
  const r = await call("run_scenarios", {
    dialect: "minicodex",
    tags: "@id:minicodex.resume.from-start",
    mutate: ["minicodex-replay-skips-event"],
  });
  assert.equal(r.verdict, "failed");
  assert.ok(problem(r, "minicodex.replay-gap"), JSON.stringify(r.problems));
  ok("run_scenarios: the mutated reference server fails with minicodex.replay-gap");

  // replay: a clean recording against the server that skips an event.
  const p = await call("replay", { path: golden, against: replayTarget, answer_timeout_ms: 500 });
  assert.equal(p.verdict, "failed");
  assert.ok(problem(p, "minicodex.replay-gap"), JSON.stringify(p.problems));
  const missing = p.connections.flatMap((c) => c.diffs ?? []).filter((d) => d.op === "missing");
  assert.ok(missing.some((d) => d.type === "user_text"), JSON.stringify(p.connections));
  ok(`replay: ${p.matched_connections} of ${p.connections.length} connections match; user_text missing; minicodex.replay-gap`);

  // live_findings: the proxy's finding (the test drained the proxy's
  // validator before starting this client), then nothing new.
  const live = await call("live_findings", { proxy_url: liveWeb });
  assert.equal(live.findings[0]?.rule, "minicodex.event-id-order", JSON.stringify(live));
  const again = await call("live_findings", { proxy_url: liveWeb, cursor: live.cursor });
  assert.equal(again.findings.length, 0);
  ok("live_findings: minicodex.event-id-order, then none after the cursor");

  const s = await call("live_sessions", { proxy_url: liveWeb });
  assert.equal(s.sessions.length, 1);
  assert.ok(s.sessions[0].rules.includes("minicodex.event-id-order"));
  ok(`live_sessions: session ${s.sessions[0].id}, verdict ${s.verdict}`);

  // resources: the recordings under the root, read as their validation.
  const { resources } = await client.listResources();
  const res = resources.find((x) => x.uri.endsWith("/minicodex-replay-gap.jsonl"));
  assert.ok(res, JSON.stringify(resources.map((x) => x.uri)));
  const read = await client.readResource({ uri: res.uri });
  assert.equal(JSON.parse(read.contents[0].text).verdict, "failed");
  ok(`resources: ${resources.length} recordings; ${res.name} reads as a failed validation`);

  // bad input: error results with clear words, never a crash.
  await callError("validate_recording", { path: 5 }, /argument "path": want a string/);
  await callError("validate_recording", { path: "/etc/passwd" }, /outside the roots/);
  await callError("frames", { path: gap, index: 3 }, /unknown argument "index"/);
  await callError("live_sessions", { proxy_url: deadURL }, /cannot reach the wsproxy web view/);
  await callError("run_scenarios", { dialect: "minicodex", target: "ws://192.0.2.1:9/ws" }, /not a loopback address/);
  await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), /unknown tool|not found/i);
  ok("bad input: wrong type, path outside the root, unknown argument, dead proxy, remote target, unknown tool");

  // still serving after all of it
  await call("explain", { id: "minicodex.handshake.reply" });
  ok("still answering");
}

try {
  await main();
  await client.close();
} catch (err) {
  console.error(`FAIL: ${err?.stack ?? err}`);
  await client.close().catch(() => {});
  process.exit(1);
}
