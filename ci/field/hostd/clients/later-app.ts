// The app→server messages of the relay web app's later version (aipper/relay
// ffe4b33, web/src/lib/stores/relay-store.svelte.ts), sent as that store
// sends them, to the relay authors' mock server (web/tests/mocks/
// relay-mock-server.ts) through wsproxy: the later protocol's additive
// members and types (run.subscribe, run.send_stdin, run.permission.approve,
// rpc.* requests and rpc.response, opencode_session_id, actor in data) must
// not be errors. Exits 0 once the mock answered the two RPCs and the input.
//
//   bun run later-app.ts HTTP_BASE USER PASSWORD
const [base, user, password] = process.argv.slice(2);
const ts = () => new Date().toISOString();
const uid = () => crypto.randomUUID();

const login = await fetch(`${base}/auth/login`, {
  method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: user, password }),
});
const { access_token: token } = await login.json();
const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws/app?token=${encodeURIComponent(token)}`);
const seen: string[] = [];
ws.onmessage = (m) => {
  const msg = JSON.parse(String(m.data));
  seen.push(msg.type);
  const rpcs = seen.filter((t) => t === "rpc.response").length;
  if (rpcs >= 2 && seen.includes("run.output")) {
    console.log("received:", seen.join(", "));
    ws.close(1000);
    process.exit(0);
  }
};
ws.onopen = () => {
  const send = (env: unknown) => ws.send(JSON.stringify(env));
  const runId = "run-001";
  // relay-store #subscribeToRun, #rpcCall, #sendInput, the stdin stream, sendDecision, sendStop.
  send({ type: "run.subscribe", ts: ts(), run_id: runId, data: { replace: true, include_output: true } });
  send({ type: "rpc.host.info", ts: ts(), run_id: runId, data: { host_id: "host-dev", request_id: uid() } });
  send({ type: "rpc.run.start", ts: ts(), data: { host_id: "host-dev", tool: "opencode", cmd: "opencode", cwd: "/home/user/project", request_id: uid() } });
  send({ type: "run.send_input", ts: ts(), run_id: runId, data: { input_id: uid(), actor: "web", text: "hello\r" } });
  send({ type: "run.send_stdin", ts: ts(), run_id: runId, data: { actor: "web", text: "\u0003" } });
  send({ type: "run.permission.approve", ts: ts(), run_id: "run-002", data: { request_id: "req-001", actor: "web" } });
  send({ type: "run.stop", ts: ts(), run_id: "run-002", data: { signal: "term" } });
};
setTimeout(() => { console.log("timed out; received:", seen.join(", ")); process.exit(1); }, 10000);
