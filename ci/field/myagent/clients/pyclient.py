"""A ws-console-like client in Python: plan -> confirm -> solve, acks, drop, reconnect_with_state(last_seq)."""
# Field trial client (see gate-replay.sh): a ws-console-like client in Python.
import asyncio, json, sys, websockets
URL = sys.argv[1]
def ts(): 
    import datetime; return datetime.datetime.now(datetime.timezone.utc).isoformat()
async def recv_until(ws, ev, t=10, seen=None):
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), t))
        if seen is not None: seen.append(m)
        print(m.get("seq"), m.get("event"), str(m.get("content"))[:70])
        if m.get("event") == ev: return m
async def main():
    seen = []
    ws = await websockets.connect(URL)
    await recv_until(ws, "system.connected", seen=seen)
    await ws.send(json.dumps({"event": "user.create_session", "timestamp": ts()}))
    sid = (await recv_until(ws, "agent.session_created", seen=seen))["session_id"]
    # 1) spec example answer {approved: true}
    await ws.send(json.dumps({"event": "user.message", "session_id": sid, "content": "first question", "timestamp": ts()}))
    c = await recv_until(ws, "agent.user_confirm", seen=seen)
    await ws.send(json.dumps({"event": "user.response", "session_id": sid, "step_id": c["step_id"], "content": {"approved": True}, "timestamp": ts()}))
    await recv_until(ws, "agent.final_answer", seen=seen)
    # 2) ws-console answer {confirmed: true}, spec-form acks {seq} and ws-console-form acks {content:{last_seq}}
    await ws.send(json.dumps({"event": "user.message", "session_id": sid, "content": "/stream 3", "timestamp": ts()}))
    ps = await recv_until(ws, "plan.start", seen=seen)
    await ws.send(json.dumps({"event": "user.ack", "session_id": sid, "seq": ps["seq"], "timestamp": ts()}))
    c = await recv_until(ws, "agent.user_confirm", seen=seen)
    await ws.send(json.dumps({"event": "user.ack", "session_id": sid, "content": {"last_seq": c["seq"]}, "timestamp": ts()}))
    await ws.send(json.dumps({"event": "user.response", "session_id": sid, "step_id": c["step_id"], "content": {"confirmed": True}, "timestamp": ts()}))
    fa = await recv_until(ws, "agent.final_answer", seen=seen)
    await ws.send(json.dumps({"event": "user.request_state", "session_id": sid, "timestamp": ts()}))
    st = await recv_until(ws, "agent.state_exported", seen=seen)
    signed = st["metadata"]["signed_state"]
    await ws.send(json.dumps({"event": "user.ack", "session_id": sid, "seq": st["seq"], "timestamp": ts()}))
    await asyncio.sleep(0.3)
    # 3) drop (close without waiting), reconnect
    ws.transport.abort() if hasattr(ws, "transport") else None
    await asyncio.sleep(0.5)
    ws = await websockets.connect(URL)
    await recv_until(ws, "system.connected", seen=seen)
    await ws.send(json.dumps({"event": "user.reconnect", "session_id": sid, "timestamp": ts()}))
    await recv_until(ws, "system.error", seen=seen)
    await ws.send(json.dumps({"event": "user.reconnect_with_state", "session_id": sid, "signed_state": signed, "last_seq": ps["seq"], "timestamp": ts()}))
    await recv_until(ws, "system.notice", t=10, seen=seen)
    await asyncio.sleep(1.0)
    await ws.close()
asyncio.run(main())
