// A host daemon for the gate's planted-bug trial (the relay project's
// hostd is Rust and cannot be built here): it reports one run of 30
// events over /ws/host, spools every event until a run.ack covers it, and
// after a dropped connection reconnects and replays what is still spooled,
// as hostd-mvp.md §Acknowledgements says. HOSTD_PLANT=resume-unseen plants
// the bug: after a reconnect it resumes after the last seq it *sent*, as if
// the server had acknowledged it (a seq no run.ack ever named), so the
// unacknowledged events are lost.
//
//   bun run host.ts        (WSCONFORM_HOST_URL, WSCONFORM_HOST_TOKEN from wsconform gate)
const base = process.env.WSCONFORM_HOST_URL!;
const token = process.env.WSCONFORM_HOST_TOKEN!;
const planted = process.env.HOSTD_PLANT === "resume-unseen";
const hostId = "field-host";
const runId = `run_field_${crypto.randomUUID().slice(0, 8)}`;
const total = 30;

function event(seq: number) {
  const env = { type: "run.output", ts: new Date().toISOString(), host_id: hostId, run_id: runId, seq, data: {} as Record<string, unknown> };
  if (seq === 1) return { ...env, type: "run.started", data: { tool: "codex", cwd: "/field", command: "codex" } };
  if (seq === total) return { ...env, type: "run.exited", data: { exit_code: 0 } };
  return { ...env, data: { stream: "stdout", text: `line ${seq}\n` } };
}

const spool = new Map<number, string>(); // seq → the event's bytes, until acked
let next = 1; // the next new event to make
let lastSent = 0;
let connections = 0;

function connect() {
  connections++;
  const ws = new WebSocket(`${base}?host_id=${hostId}&host_token=${encodeURIComponent(token)}`);
  let timer: ReturnType<typeof setInterval> | undefined;
  ws.onopen = () => {
    if (planted) for (const seq of [...spool.keys()]) if (seq <= lastSent) spool.delete(seq);
    for (const [, raw] of [...spool.entries()].sort((a, b) => a[0] - b[0])) ws.send(raw);
    // Three events a tick: some are always in flight when the connection drops.
    timer = setInterval(() => {
      for (let i = 0; i < 3 && next <= total; i++) {
        const raw = JSON.stringify(event(next));
        spool.set(next, raw);
        ws.send(raw);
        lastSent = next++;
      }
    }, 10);
  };
  ws.onmessage = (m) => {
    const msg = JSON.parse(String(m.data));
    if (msg.type !== "run.ack" || msg.data?.run_id !== runId) return;
    for (const seq of [...spool.keys()]) if (seq <= msg.data.last_seq) spool.delete(seq);
    if (next > total && spool.size === 0) {
      console.log(`all ${total} events acknowledged over ${connections} connections`);
      ws.close(1000);
      process.exit(0);
    }
  };
  ws.onclose = (e) => {
    clearInterval(timer);
    console.log(`connection ${connections} closed (${e.code}); ${spool.size} events spooled`);
    if (connections < 20) setTimeout(connect, 100);
  };
}

connect();
setTimeout(() => {
  console.log(`gave up: ${spool.size} events never acknowledged (sent up to ${lastSent})`);
  process.exit(planted ? 0 : 1);
}, 20000);
