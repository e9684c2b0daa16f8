'use strict';
// A small minicodex v1 client (shared/specs/minicodex-v1.md) with the
// reconnect logic a real UI needs: it says hello, sends one message, follows
// the run's events, and when the connection drops it reconnects and resumes
// the session from the last event_id it received, until the run finished.
//
// It is the shared body of good.js and bad.js, which differ in one function:
// what last_seen_event_id a resume carries (see resumeFrom below).
//
// Environment:
//   WSCONFORM_URL          the minicodex endpoint, ws://HOST:PORT/ws (set by `wsconform gate`)
//   WSCONFORM_CLIENT_TEXT  the message to send (default "/stream 20": the reference
//                          server's scripted agent streams 20 chunks)
//   WSCONFORM_CLIENT_TIMEOUT_MS  overall time limit (default 30000)
//
// Exit codes: 0 the run finished, 1 it did not (timeout, too many reconnects,
// a refused command), 2 usage (no WSCONFORM_URL).

let WebSocket;
try {
  WebSocket = require('ws');
} catch (e) {
  console.error(`the npm package "ws" is missing: run \`npm ci\` in ${__dirname} (${e.code || e.message})`);
  process.exit(3);
}

const MAX_RECONNECTS = 20;
const RECONNECT_DELAY_MS = 100;

function log(name, ...args) {
  console.error(`[${name}]`, ...args);
}

// run connects and works until the run finished. opts.name labels the log;
// opts.resumeFrom(last) returns the last_seen_event_id of a resume, given the
// last event_id the client actually received (null when it received none).
function run(opts) {
  const name = opts.name;
  const url = process.env.WSCONFORM_URL;
  if (!url) {
    log(name, 'WSCONFORM_URL is not set (run me with `wsconform gate --dialect minicodex -- node', process.argv[1] + '`)');
    process.exit(2);
  }
  if (!/^wss?:\/\//.test(url)) {
    log(name, `WSCONFORM_URL ${JSON.stringify(url)} is not a ws:// or wss:// URL`);
    process.exit(2);
  }
  const text = process.env.WSCONFORM_CLIENT_TEXT || '/stream 20';
  const timeoutMs = Number(process.env.WSCONFORM_CLIENT_TIMEOUT_MS || 30000);
  const clientMsgId = `${name}-${process.pid}-${Date.now()}`;

  const state = {
    sessionId: null, // from welcome.session_state.session_id
    lastEventId: null, // highest event_id received on any connection
    runId: null, // from accepted (or the user_text that carries our client_msg_id)
    accepted: false,
    finished: false,
    connections: 0,
    ws: null,
  };

  const deadline = setTimeout(() => {
    log(name, `timed out after ${timeoutMs} ms (last event_id ${state.lastEventId}, ${state.connections} connections)`);
    if (state.ws) state.ws.terminate();
    process.exit(1);
  }, timeoutMs);

  function fail(msg) {
    log(name, msg);
    clearTimeout(deadline);
    if (state.ws) state.ws.terminate();
    process.exit(1);
  }

  function finish() {
    state.finished = true;
    log(name, `run ${state.runId} finished (last event_id ${state.lastEventId}, ${state.connections} connections)`);
    state.ws.close(1000, 'done');
  }

  function sendJSON(ws, msg) {
    ws.send(JSON.stringify(msg));
  }

  function sendMessage(ws) {
    // client_msg_id makes the send idempotent: sent again after a reconnect,
    // it is acknowledged with the same run and starts nothing new.
    const msg = { type: 'send', text, client_msg_id: clientMsgId, req_id: `send-${state.connections}` };
    if (state.sessionId) msg.session_id = state.sessionId;
    sendJSON(ws, msg);
  }

  function isOurRunDone(msg) {
    if (state.runId && msg.run_id && msg.run_id !== state.runId) return false;
    if (msg.type === 'turn_done') return true;
    if (msg.type === 'run_status' && msg.run_state) {
      const st = msg.run_state.status;
      if (state.runId && msg.run_state.run_id !== state.runId) return false;
      return st === 'finished' || st === 'error';
    }
    return false;
  }

  function onMessage(ws, data, isBinary) {
    if (isBinary) return;
    let msg;
    try {
      msg = JSON.parse(data.toString('utf8'));
    } catch (e) {
      log(name, 'ignoring a frame that is not JSON:', String(data).slice(0, 80));
      return;
    }
    // The snapshot is state, not an event of the log: only events count as
    // received for the resume.
    if (msg.type !== 'snapshot' && Number.isInteger(msg.event_id)) {
      if (state.lastEventId === null || msg.event_id > state.lastEventId) state.lastEventId = msg.event_id;
    }
    switch (msg.type) {
      case 'welcome':
        ws.handshaking = false;
        state.sessionId = msg.session_state && msg.session_state.session_id;
        if (!state.sessionId) return fail('welcome without session_state.session_id');
        if (!state.accepted && state.runId === null) sendMessage(ws);
        if (ws.resuming && !msg.session_state.active_run_id) {
          // No run is active any more: the replay that follows may not reach
          // the end of ours (it starts after last_seen_event_id), so ask for
          // the state. The snapshot's run_state is the newest run.
          sendJSON(ws, { type: 'get_snapshot', include_transcript_window: false });
        }
        break;
      case 'snapshot': {
        const rs = msg.run_state;
        if (ws.resuming && rs && rs.run_id === state.runId && (rs.status === 'finished' || rs.status === 'error')) {
          if (!state.finished) finish();
          return;
        }
        break;
      }
      case 'accepted':
        if (msg.run_id && (msg.req_id || '').startsWith('send-')) {
          state.accepted = true;
          state.runId = msg.run_id;
        }
        break;
      case 'user_text':
        if (msg.client_msg_id === clientMsgId && msg.run_id) state.runId = msg.run_id;
        break;
      case 'error':
        if (msg.code === 'REPLAY_WINDOW_EXCEEDED') {
          // The events we missed left the server's window: take a snapshot.
          sendJSON(ws, { type: 'get_snapshot', include_transcript_window: true });
          break;
        }
        if (ws.handshaking && ws.resumedFrom !== null) {
          // The server refused the resume position (BAD_ARGUMENT: beyond the
          // session's last event). Resume again from the last event this
          // client received (for good.js that is what it sent anyway).
          log(name, `resume refused (${msg.code}: ${msg.message}); resuming from event_id ${state.lastEventId}`);
          ws.resumedFrom = null;
          sendJSON(ws, { type: 'resume', session_id: state.sessionId, last_seen_event_id: state.lastEventId });
          break;
        }
        if (msg.event_id === undefined) return fail(`command refused: ${msg.code} ${msg.message}`);
        break;
    }
    if (!state.finished && (state.runId || state.accepted) && isOurRunDone(msg)) finish();
  }

  function connect() {
    state.connections++;
    const ws = new WebSocket(url);
    state.ws = ws;
    const resuming = state.sessionId !== null;
    ws.resuming = resuming;
    ws.handshaking = true; // until welcome
    ws.resumedFrom = null;
    ws.on('open', () => {
      if (!resuming) {
        sendJSON(ws, { type: 'hello', v: '1.0.0', client_capabilities: [] });
        return;
      }
      const from = opts.resumeFrom(state.lastEventId);
      log(name, `connection ${state.connections}: resume session ${state.sessionId} from event_id ${from} (last received ${state.lastEventId})`);
      ws.resumedFrom = from;
      sendJSON(ws, { type: 'resume', session_id: state.sessionId, last_seen_event_id: from });
    });
    ws.on('message', (data, isBinary) => onMessage(ws, data, isBinary));
    ws.on('error', (err) => log(name, `connection ${state.connections}: ${err.message}`));
    ws.on('close', (code, reason) => {
      if (state.finished) {
        clearTimeout(deadline);
        log(name, `closed (${code}); ok`);
        process.exit(0);
      }
      log(name, `connection ${state.connections} closed (${code}${reason.length ? ' ' + reason : ''}); reconnecting`);
      if (state.connections > MAX_RECONNECTS) return fail(`gave up after ${MAX_RECONNECTS} reconnects`);
      setTimeout(connect, RECONNECT_DELAY_MS);
    });
  }

  connect();
}

module.exports = { run };
