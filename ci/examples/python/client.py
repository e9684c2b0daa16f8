"""A small MyAgent client (shared/specs/myagent-events.md) with the reliable
delivery logic a real UI needs: it creates a session, sends one user.message,
acknowledges every event it receives (user.ack{seq}), and when the connection
drops it reconnects with user.reconnect_with_state{last_seq: the last seq it
received}, until the run completed (agent.final_answer, or the events that end
a failed or cancelled run).

It is the shared body of good.py and bad.py, which differ in one function:
which seq an ack carries (see ack_seq below).

Standard library plus the `websockets` package (Debian: python3-websockets;
run with /usr/bin/python3 when the python3 first on PATH is another one).

Environment:
  WSCONFORM_URL                the myagent endpoint, ws://HOST:PORT/ws (set by `wsconform gate`)
  WSCONFORM_CLIENT_TEXT        the message (default "/stream 20": the reference server's
                               scripted agent streams 20 chunks)
  WSCONFORM_CLIENT_TIMEOUT_MS  overall time limit (default 30000)

Exit codes: 0 the run completed, 1 it did not (timeout, too many reconnects, a
refused event), 2 usage (no WSCONFORM_URL), 3 websockets is not installed.
"""

import asyncio
import json
import os
import sys
from datetime import datetime, timezone

try:
    import websockets
    from websockets.exceptions import ConnectionClosed, WebSocketException
except ImportError as exc:  # pragma: no cover - depends on the machine
    sys.stderr.write(
        "the Python package websockets is missing (%s): install it with "
        "`apt-get install python3-websockets` and run this with /usr/bin/python3 "
        "(or `pip install websockets`)\n" % exc
    )
    sys.exit(3)

MAX_RECONNECTS = 20
RECONNECT_DELAY = 0.1  # seconds

# Events that end a run (doc.go of reference/myagent, §The pipeline).
RUN_END = {"agent.final_answer", "error.execution", "error.timeout", "agent.interrupted"}


class Failed(Exception):
    """The client cannot go on (a refused event, too many reconnects)."""


def now():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Client:
    """One client session. name labels the log; ack_seq(seq) is the seq the
    user.ack for a received event with that seq carries; ignore_refusals
    lists error codes of refused events that do not stop the client."""

    def __init__(self, name, url, text, ack_seq, ignore_refusals=()):
        self.name = name
        self.url = url
        self.text = text
        self.ack_seq = ack_seq
        self.ignore_refusals = set(ignore_refusals)
        self.session_id = None
        self.last_seq = None  # highest seq received on any connection
        self.sent_message = False
        self.run_started = False  # a pipeline event of our run was received
        self.done = False
        self.connections = 0

    def log(self, msg):
        sys.stderr.write("[%s] %s\n" % (self.name, msg))
        sys.stderr.flush()

    async def send(self, ws, event, **fields):
        msg = {"event": event, "timestamp": now()}
        if self.session_id is not None:
            msg["session_id"] = self.session_id
        msg.update(fields)
        try:
            await ws.send(json.dumps(msg))
        except ConnectionClosed:
            # The peer closed, but messages that arrived before its close
            # frame may still be queued: the reading side goes on with them
            # and then sees the close.
            pass

    async def run(self):
        while not self.done:
            self.connections += 1
            if self.connections > MAX_RECONNECTS + 1:
                raise Failed("gave up after %d reconnects" % MAX_RECONNECTS)
            try:
                async with websockets.connect(self.url, max_size=None) as ws:
                    await self.converse(ws)
                    if self.done:
                        await ws.close(code=1000, reason="done")
                        self.log("run completed (last seq %s, %d connections); closed 1000"
                                 % (self.last_seq, self.connections))
                        return
            except ConnectionClosed as exc:
                self.log("connection %d closed (%s); reconnecting" % (self.connections, describe(exc)))
            except (OSError, WebSocketException) as exc:
                self.log("connection %d failed (%s); reconnecting" % (self.connections, exc))
            await asyncio.sleep(RECONNECT_DELAY)

    async def converse(self, ws):
        """Works one connection until the run completed; a drop raises
        ConnectionClosed."""
        first = json.loads(await ws.recv())
        if first.get("event") != "system.connected":
            raise Failed("first event is %r, not system.connected" % first.get("event"))
        if self.session_id is None:
            await self.send(ws, "user.create_session")
        else:
            self.log("connection %d: user.reconnect_with_state session %s last_seq %s"
                     % (self.connections, self.session_id, self.last_seq))
            fields = {} if self.last_seq is None else {"last_seq": self.last_seq}
            await self.send(ws, "user.reconnect_with_state", **fields)
        async for raw in ws:
            if isinstance(raw, bytes):
                continue
            await self.handle(ws, json.loads(raw))
            if self.done:
                return

    async def handle(self, ws, msg):
        event = msg.get("event", "")
        seq = msg.get("seq")
        if isinstance(seq, int) and not isinstance(seq, bool):
            if self.last_seq is None or seq > self.last_seq:
                self.last_seq = seq
            await self.send(ws, "user.ack", seq=self.ack_seq(seq))
        if event == "agent.session_created":
            self.session_id = msg.get("session_id")
            if not self.session_id:
                raise Failed("agent.session_created without session_id")
        if self.session_id is not None and not self.sent_message:
            self.sent_message = True
            await self.send(ws, "user.message", content=self.text)
        if event.startswith(("plan.", "solver.", "agent.thinking", "agent.partial_answer")):
            self.run_started = True
        if event in RUN_END:
            self.done = True
        elif event == "error.recovery_failed":
            code = (msg.get("metadata") or {}).get("error_code")
            if code != "REPLAY_UNAVAILABLE":
                raise Failed("reconnect refused: %s %s" % (code, msg.get("content")))
            # The events we missed left the server's buffer: ask where the
            # session stands instead.
            await self.send(ws, "user.request_state")
        elif event in ("agent.state_restored", "agent.state_exported"):
            state = (msg.get("metadata") or {}).get("state") or {}
            idle = state.get("status") == "idle"
            if idle and self.run_started and event == "agent.state_exported":
                # Our run ended while we were away and the buffer no longer
                # holds its end (REPLAY_UNAVAILABLE above).
                self.done = True
            elif idle and not self.run_started and self.sent_message and event == "agent.state_restored":
                # The replay is complete and holds nothing of our run: the
                # user.message was lost with the connection. Send it again.
                self.log("the message did not arrive; sending it again")
                await self.send(ws, "user.message", content=self.text)
        elif event.startswith("error.") and "seq" not in msg:
            code = (msg.get("metadata") or {}).get("error_code")
            if code not in self.ignore_refusals:
                raise Failed("refused: %s %s %s" % (event, code, msg.get("content")))


def describe(exc):
    rcvd = getattr(exc, "rcvd", None)
    if rcvd is not None:
        return "%s %s" % (rcvd.code, rcvd.reason)
    code = getattr(exc, "code", None)
    return str(code) if code is not None else str(exc)


def main(name, ack_seq, ignore_refusals=()):
    url = os.environ.get("WSCONFORM_URL")
    if not url:
        sys.stderr.write("[%s] WSCONFORM_URL is not set (run me with "
                         "`wsconform gate --dialect myagent -- /usr/bin/python3 %s`)\n" % (name, sys.argv[0]))
        return 2
    if not url.startswith(("ws://", "wss://")):
        sys.stderr.write("[%s] WSCONFORM_URL %r is not a ws:// or wss:// URL\n" % (name, url))
        return 2
    text = os.environ.get("WSCONFORM_CLIENT_TEXT", "/stream 20")
    timeout = int(os.environ.get("WSCONFORM_CLIENT_TIMEOUT_MS", "30000")) / 1000.0
    client = Client(name, url, text, ack_seq, ignore_refusals)
    try:
        asyncio.run(asyncio.wait_for(client.run(), timeout))
    except asyncio.TimeoutError:
        client.log("timed out after %.0f s (last seq %s, %d connections)"
                   % (timeout, client.last_seq, client.connections))
        return 1
    except Failed as exc:
        client.log(str(exc))
        return 1
    return 0
