"""Fake planner/solver/aggregator for a field trial of JasonDZS/myagent.

Runs the real myagent WebSocket server (myagent.ws.AgentWebSocketServer) with
the real PlanSolverSessionAgent and PlanSolverPipeline; only the LLM-driven
parts are replaced: the planner turns the user's text into tasks without a
model, the solver acts out each task's title following wsconform's
scripted-agent hints (reference/agent/script.go), and the aggregator joins the
answers. Every event on the wire is built and sent by myagent's own code
(create_event, AgentSession._send_event, the server's seq stamping); the fake
only decides which of myagent's own event kinds to emit and when.

Hint mapping (the user's text, or a task title of user.solve_tasks):

  plain text       one task; the solver answers "Echo: <text>"; the plan
                   summary (which myagent sends as agent.final_answer) is
                   "Echo: <text>" too
  /think TEXT      agent.thinking TEXT, then "Done thinking."
  /exec NAME JSON  agent.tool_call + agent.tool_result, shaped like
                   AgentSession._wrap_tool_calls sends them
  /tool NAME JSON  AgentSession._handle_tool_confirmation (agent.user_confirm,
                   waits for user.response content {confirmed: bool}); on
                   approval tool_call + tool_result, else a "denied" answer
  /ask [KIND] Q    agent.user_confirm with content Q, metadata.scope
                   "question"; the answer is content.answer (or confirmed)
  /slow N          N agent.partial_answer chunks, one every MYAGENT_SLOW_MS
                   (100 ms by default)
  /stream N        N agent.partial_answer chunks without a pause
  /fail [MESSAGE]  the solver raises RuntimeError(MESSAGE); myagent's
                   pipeline logs and swallows a solver failure, so the run
                   still aggregates and answers
  /planfail [MSG]  the planner raises instead: the session answers agent.error

With MYAGENT_REQUIRE_CONFIRM=1 (the default) every run first asks to confirm
the plan (agent.user_confirm, metadata.scope "plan"), as the repository's
examples configure it; myagent reads content.confirmed from the answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import types
from typing import Any, Awaitable, Callable

from myagent.agent.base import BaseAgent
from myagent.ws import AgentWebSocketServer, get_ws_session_context
from myagent.ws.events import AgentEvents, create_event
from myagent.ws.plan_solver import (
    PlanAgent,
    PlanContext,
    SolverAgent,
    create_plan_solver,
    create_plan_solver_session_agent,
)

MAX_CHUNKS = 100000


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def _env_bool(name: str, default: bool) -> bool:
    v = os.environ.get(name)
    if v is None:
        return default
    return v.strip().lower() in ("1", "true", "yes", "on")


def split_command(text: str) -> tuple[str, str]:
    t = (text or "").strip()
    if not t.startswith("/"):
        return "", ""
    cmd, _, arg = t.partition(" ")
    return cmd, arg.strip()


def parse_tool(arg: str) -> tuple[str, dict[str, Any]] | None:
    name, _, raw = arg.partition(" ")
    if not name:
        return None
    args: dict[str, Any] = {}
    raw = raw.strip()
    if raw:
        try:
            parsed = json.loads(raw)
            args = parsed if isinstance(parsed, dict) else {"input": raw}
        except ValueError:
            args = {"input": raw}
    return name, args


def predicted_answer(text: str) -> str:
    """What the fake planner writes as plan summary (myagent's final answer)."""
    cmd, arg = split_command(text)
    if cmd == "/think" and arg:
        return "Done thinking."
    if cmd == "/exec":
        t = parse_tool(arg)
        if t:
            return f"Tool {t[0]} finished."
    if cmd == "/tool":
        t = parse_tool(arg)
        if t:
            return f"Tool {t[0]} requested (needs approval)."
    if cmd == "/ask" and arg:
        return "Question asked."
    if cmd in ("/slow", "/stream"):
        n = _count(arg)
        if n:
            return "".join(f"chunk {i} of {n}. " for i in range(1, n + 1))
    if cmd == "/fail":
        return "Working on it."
    return f"Echo: {text}"


def _count(arg: str) -> int:
    try:
        n = int(arg)
    except ValueError:
        return 0
    return n if 0 < n <= MAX_CHUNKS else 0


class CallbackAgent(BaseAgent):
    """A BaseAgent whose run() is a plain coroutine instead of an LLM loop."""

    name: str = "fake"
    action: Any = None

    async def step(self) -> str:  # pragma: no cover - run() is overridden
        return "done"

    async def run(self, request: str | None = None) -> str:  # type: ignore[override]
        fn: Callable[[str | None], Awaitable[str]] = self.action
        return await fn(request)


class FakePlanner(PlanAgent):
    """Plans one task whose title is the user's text (no LLM)."""

    def __init__(self) -> None:
        super().__init__(name="fake_planner")

    def build_agent(self) -> BaseAgent:
        async def plan(question: str | None) -> str:
            q = question or ""
            cmd, arg = split_command(q)
            if cmd == "/planfail":
                raise RuntimeError(arg or "the fake planner failed on request (/planfail)")
            return json.dumps({"tasks": [{"id": 1, "title": q, "description": "scripted task"}]})

        return CallbackAgent(name="fake_planner", action=plan)

    def extract_tasks(self, agent: BaseAgent, plan_output: str) -> list[dict[str, Any]]:
        return list(json.loads(plan_output)["tasks"])

    def extract_summary(self, agent: BaseAgent, plan_output: str) -> str | None:
        tasks = json.loads(plan_output)["tasks"]
        return predicted_answer(tasks[0]["title"]) if tasks else None

    def coerce_tasks(self, tasks):
        out = []
        for i, t in enumerate(tasks, start=1):
            if not isinstance(t, dict):
                raise TypeError(f"task {i} is {type(t).__name__}, not an object")
            t = dict(t)
            t.setdefault("id", i)
            t.setdefault("title", str(t.get("description", "")))
            out.append(t)
        return out


class FakeSolver(SolverAgent):
    """Acts out a task title with myagent's own event kinds (no LLM)."""

    def __init__(self, slow_ms: int) -> None:
        super().__init__(name="fake_solver")
        self.slow = slow_ms / 1000.0
        self._step = 0

    def build_agent(self, task: Any, *, context: PlanContext) -> BaseAgent:
        async def solve(_request: str | None) -> str:
            return await self._solve(task)

        return CallbackAgent(name="fake_solver", action=solve)

    def build_request(self, task: Any, *, context: PlanContext) -> str:
        return str(task.get("title", "")) if isinstance(task, dict) else str(task)

    def extract_result(self, agent, solver_output, task, *, context):
        return {"answer": solver_output}

    def extract_summary(self, agent, solver_output, task, *, context):
        return solver_output

    async def _send(self, event: dict[str, Any]) -> None:
        session = get_ws_session_context()
        if session is not None:
            await session._send_event(event)  # myagent's own send path

    def _sid(self) -> str | None:
        session = get_ws_session_context()
        return getattr(session, "session_id", None)

    async def _tool(self, name: str, args: dict[str, Any]) -> None:
        # Shapes as AgentSession._wrap_tool_calls sends them.
        step_id = f"step_{self._step}_{name}"
        self._step += 1
        await self._send(create_event(
            AgentEvents.TOOL_CALL, session_id=self._sid(), step_id=step_id,
            content=f"Calling tool: {name}",
            metadata={"tool": name, "args": args, "status": "running"}))
        await self._send(create_event(
            AgentEvents.TOOL_RESULT, session_id=self._sid(), step_id=step_id,
            content=f"{name} ran with {len(args)} argument(s)",
            metadata={"tool": name, "status": "success", "error": None}))

    async def _chunks(self, n: int, pause: float) -> str:
        out = []
        for i in range(1, n + 1):
            if pause:
                await asyncio.sleep(pause)
            chunk = f"chunk {i} of {n}. "
            out.append(chunk)
            await self._send(create_event(
                AgentEvents.PARTIAL_ANSWER, session_id=self._sid(), content=chunk,
                metadata={"is_streaming": True, "word_count": 4 * i, "is_final": i == n}))
        return "".join(out)

    async def _solve(self, task: Any) -> str:
        text = str(task.get("title", "")) if isinstance(task, dict) else str(task)
        cmd, arg = split_command(text)
        session = get_ws_session_context()
        if cmd == "/think" and arg:
            await self._send(create_event(
                AgentEvents.THINKING, session_id=self._sid(), content=arg,
                metadata={"step": 0}))
            return "Done thinking."
        if cmd in ("/exec", "/tool"):
            t = parse_tool(arg)
            if t:
                name, args = t
                if cmd == "/tool" and session is not None:
                    tool = types.SimpleNamespace(name=name, description=f"scripted tool {name}")
                    ok = await session._handle_tool_confirmation(tool, args)
                    if not ok:
                        return f"Tool {name} was denied; continuing without it."
                await self._tool(name, args)
                return f"Tool {name} finished."
        if cmd == "/ask" and arg and session is not None:
            kind, _, rest = arg.partition(" ")
            if kind not in ("confirm", "text", "select", "multiselect") or not rest.strip():
                kind, rest = "confirm", arg
            options = {"confirm": ["yes", "no"], "select": ["red", "green", "blue"],
                       "multiselect": ["red", "green", "blue"]}.get(kind)
            import uuid

            step_id = f"ask_{uuid.uuid4().hex[:8]}"
            await self._send(create_event(
                AgentEvents.USER_CONFIRM, session_id=self._sid(), step_id=step_id,
                content=rest.strip(),
                metadata={"scope": "question", "kind": kind, "options": options,
                          "requires_confirmation": True}))
            resp = await session._wait_for_user_response(step_id)
            answer = resp.get("answer", resp.get("confirmed")) if isinstance(resp, dict) else resp
            return f"You answered: {answer}"
        if cmd in ("/slow", "/stream"):
            n = _count(arg)
            if n:
                return await self._chunks(n, self.slow if cmd == "/slow" else 0.0)
        if cmd == "/fail":
            raise RuntimeError(arg or "the scripted agent failed on request (/fail)")
        return f"Echo: {text}"


async def aggregate(context: PlanContext, results) -> dict[str, Any]:
    return {"answer": " ".join(str(r.summary) for r in results if r.summary)}


def agent_factory():
    pipeline = create_plan_solver(
        name="fake_plan_solver",
        planner=FakePlanner(),
        solver=FakeSolver(_env_int("MYAGENT_SLOW_MS", 100)),
        aggregator=aggregate,
    )
    return create_plan_solver_session_agent(
        pipeline,
        name="fake_plan_solver_ws",
        broadcast_tasks=True,
        require_plan_confirmation=_env_bool("MYAGENT_REQUIRE_CONFIRM", True),
        plan_confirmation_timeout=_env_int("MYAGENT_CONFIRM_TIMEOUT", 300),
    )


async def main(host: str, port: int) -> None:
    server = AgentWebSocketServer(
        agent_factory, host=host, port=port,
        state_secret_key=os.environ.get("MYAGENT_STATE_KEY", "wsconform-field-trial-key"),
    )
    await server.start_server()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description="myagent WebSocket server with a fake plan/solve pipeline")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    a = p.parse_args()
    asyncio.run(main(a.host, a.port))
