#!/usr/bin/env bun
// wsconform scripted adapter for agent-coworker (coworker dialect).
//
// start.sh copies this file into <checkout>/.wsconform/ and runs it with bun
// instead of src/server/index.ts. It starts the REAL server
// (startAgentServer) with the REAL turn runner (createRunTurn: streamText,
// the built-in tools, the approval classifier, the ask tool); only the
// provider's language model is replaced by an AI SDK MockLanguageModelV3
// that follows wsconform's test-mode hints (ci/testmode.md):
//
//   /tool NAME {json}   a bash tool call the server's classifier sends for approval
//   /exec NAME {json}   a tool call that needs no approval
//   /ask [confirm|text|select|multiselect] TEXT   the ask tool
//   /think TEXT         reasoning parts, then "Done thinking."
//   /slow N, /stream N  N text deltas, 100ms apart or back to back
//   /fail [MESSAGE]     "Working on it." then an error part mid-stream
//   anything else       "Echo: TEXT", word by word
//
// Flags are those of src/server/index.ts: --dir, --port, --json, --yolo.

import fs from "node:fs/promises";
import path from "node:path";

import { MockLanguageModelV3 } from "ai/test";

import { createRunTurn } from "../src/agent";
import { startAgentServer } from "../src/server/startServer";

(globalThis as any).AI_SDK_LOG_WARNINGS = false;

const SLOW_MS = Number(process.env.WSCONFORM_SLOW_MS ?? "100");
const CHUNK_MS = Number(process.env.WSCONFORM_CHUNK_MS ?? "0");
const MAX_CHUNKS = 100000;
const KINDS = new Set(["confirm", "text", "select", "multiselect"]);
// Real coworker tools that never ask for approval; /exec NAME calls them as is.
const NO_APPROVAL_TOOLS = new Set(["read", "glob", "grep", "todoWrite", "memory", "skill"]);

type Part = Record<string, unknown>;
type Step = { parts: Part[]; pause: number };

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function finish(reason: "stop" | "tool-calls"): Part {
  return { type: "finish", finishReason: { unified: reason, raw: reason }, usage };
}

function words(text: string): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    const i = rest.indexOf(" ");
    if (i < 0) {
      out.push(rest);
      break;
    }
    out.push(rest.slice(0, i + 1));
    rest = rest.slice(i + 1);
  }
  return out;
}

function textParts(chunks: string[], id = "txt-1"): Part[] {
  return [
    { type: "text-start", id },
    ...chunks.map((delta) => ({ type: "text-delta", id, delta })),
    { type: "text-end", id },
  ];
}

function reply(text: string, pause = CHUNK_MS): Step {
  return { parts: [{ type: "stream-start", warnings: [] }, ...textParts(words(text)), finish("stop")], pause };
}

let callCounter = 0;
function toolCall(toolName: string, input: unknown): Step {
  const toolCallId = `call-${++callCounter}`;
  const json = JSON.stringify(input);
  return {
    parts: [
      { type: "stream-start", warnings: [] },
      { type: "tool-input-start", id: toolCallId, toolName },
      { type: "tool-input-delta", id: toolCallId, delta: json },
      { type: "tool-input-end", id: toolCallId },
      { type: "tool-call", toolCallId, toolName, input: json },
      finish("tool-calls"),
    ],
    pause: CHUNK_MS,
  };
}

function splitCommand(text: string): [string, string] {
  const t = text.trim();
  if (!t.startsWith("/")) return ["", ""];
  const i = t.indexOf(" ");
  return i < 0 ? [t, ""] : [t.slice(0, i), t.slice(i + 1).trim()];
}

function parseTool(arg: string): { name: string; args: Record<string, unknown> } | null {
  const i = arg.indexOf(" ");
  const name = i < 0 ? arg : arg.slice(0, i);
  const raw = i < 0 ? "" : arg.slice(i + 1).trim();
  if (!name) return null;
  let args: Record<string, unknown> = {};
  if (raw) {
    try {
      const v = JSON.parse(raw);
      args = v && typeof v === "object" && !Array.isArray(v) ? v : { input: raw };
    } catch {
      args = { input: raw };
    }
  }
  return { name, args };
}

// /tool NAME: coworker asks for approval only for bash commands its
// classifier does not auto-approve, so every /tool becomes a bash call. NAME
// bash keeps its own command; any other NAME runs a harmless command that the
// classifier sends to manual review ("true" is not auto-approved).
function approvalCall(name: string, args: Record<string, unknown>): Step {
  if (name === "bash" && typeof args.command === "string") return toolCall("bash", { command: args.command });
  return toolCall("bash", { command: `true wsconform-tool-${name.replace(/[^A-Za-z0-9_.-]/g, "_")}` });
}

// /exec NAME: a real tool that never asks; unknown names become an
// auto-approved bash echo.
function execCall(name: string, args: Record<string, unknown>): Step {
  if (name === "read") {
    const filePath = (args.filePath ?? args.path ?? "README.md") as string;
    return toolCall("read", { filePath });
  }
  if (name === "grep") return toolCall("grep", { pattern: String(args.pattern ?? "TODO"), path: args.path ?? "." });
  if (name === "glob") return toolCall("glob", { pattern: String(args.pattern ?? "*") });
  if (NO_APPROVAL_TOOLS.has(name)) return toolCall(name, args);
  return toolCall("bash", { command: `echo wsconform-exec-${name.replace(/[^A-Za-z0-9_.-]/g, "_")}` });
}

function askCall(arg: string): Step {
  const i = arg.indexOf(" ");
  let kind = i < 0 ? "" : arg.slice(0, i);
  let question = i < 0 ? "" : arg.slice(i + 1).trim();
  if (!KINDS.has(kind) || !question) {
    kind = "confirm";
    question = arg;
  }
  if (kind === "multiselect") {
    return toolCall("AskUserQuestion", {
      questions: [
        { question, multiSelect: true, options: ["red", "green", "blue"].map((label) => ({ label })) },
      ],
    });
  }
  if (kind === "text") return toolCall("ask", { question });
  const options = kind === "confirm" ? ["yes", "no"] : ["red", "green", "blue"];
  return toolCall("ask", { question, options });
}

function firstStep(text: string): Step {
  const [cmd, arg] = splitCommand(text);
  switch (cmd) {
    case "/tool": {
      const t = parseTool(arg);
      if (t) return approvalCall(t.name, t.args);
      break;
    }
    case "/exec": {
      const t = parseTool(arg);
      if (t) return execCall(t.name, t.args);
      break;
    }
    case "/ask":
      if (arg) return askCall(arg);
      break;
    case "/think":
      if (arg) {
        const id = "rsn-1";
        return {
          parts: [
            { type: "stream-start", warnings: [] },
            { type: "reasoning-start", id },
            ...words(arg).map((delta) => ({ type: "reasoning-delta", id, delta })),
            { type: "reasoning-end", id },
            ...textParts(words("Done thinking.")),
            finish("stop"),
          ],
          pause: CHUNK_MS,
        };
      }
      break;
    case "/slow":
    case "/stream": {
      const n = Number(arg);
      if (Number.isInteger(n) && n > 0 && n <= MAX_CHUNKS) {
        const chunks = Array.from({ length: n }, (_, k) => `chunk ${k + 1} of ${n}. `);
        return {
          parts: [{ type: "stream-start", warnings: [] }, ...textParts(chunks), finish("stop")],
          pause: cmd === "/slow" ? SLOW_MS : CHUNK_MS,
        };
      }
      break;
    }
    case "/fail": {
      const message = arg || "the scripted agent failed on request (/fail)";
      // A provider failing mid-stream: some text, then an error part, no finish.
      return {
        parts: [
          { type: "stream-start", warnings: [] },
          ...textParts(words("Working on it.")),
          { type: "error", error: new Error(message) },
        ],
        pause: CHUNK_MS,
      };
    }
  }
  return reply(`Echo: ${text}`);
}

// After a tool ran, the second model step turns its result into the reply.
function followUp(toolName: string, userText: string, output: any): Step {
  const value = output?.value;
  const [cmd, arg] = splitCommand(userText);
  if (cmd === "/ask") {
    let answer = "";
    if (typeof value === "string") answer = value;
    else if (value && typeof value === "object" && value.answers) answer = Object.values(value.answers).join(", ");
    else answer = JSON.stringify(value ?? "");
    return reply(`You answered: ${answer}`);
  }
  const name = parseTool(arg)?.name ?? toolName;
  const denied =
    output?.type === "execution-denied" ||
    (value && typeof value === "object" && String(value.stderr ?? "").includes("User rejected"));
  if (denied) return reply(`Tool ${name} was denied; continuing without it.`);
  return reply(`Tool ${name} finished.`);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((p: any) => p?.type === "text")
    .map((p: any) => String(p.text))
    .join("");
}

function plan(prompt: any[]): Step {
  let last = -1;
  for (let i = prompt.length - 1; i >= 0; i--) {
    if (prompt[i]?.role === "user") {
      last = i;
      break;
    }
  }
  const userText = last >= 0 ? textOf(prompt[last].content) : "";
  for (let i = prompt.length - 1; i > last; i--) {
    const m = prompt[i];
    if (m?.role !== "tool" || !Array.isArray(m.content)) continue;
    const res = [...m.content].reverse().find((p: any) => p?.type === "tool-result");
    if (res) return followUp(res.toolName, userText, res.output);
  }
  return firstStep(userText);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });
}

function streamOf(step: Step, signal?: AbortSignal): ReadableStream<Part> {
  let i = 0;
  return new ReadableStream<Part>({
    async pull(controller) {
      if (signal?.aborted) {
        controller.error(signal.reason ?? new DOMException("aborted", "AbortError"));
        return;
      }
      if (i >= step.parts.length) {
        controller.close();
        return;
      }
      const part = step.parts[i++];
      if (part.type === "text-delta" && i > 1) await sleep(step.pause, signal);
      controller.enqueue(part);
    },
  });
}

export function createScriptedModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: "wsconform-scripted",
    modelId: "scripted",
    doStream: async (options: any) => ({ stream: streamOf(plan(options.prompt), options.abortSignal) as any }),
  });
}

function parseArgs(argv: string[]) {
  let dir: string | undefined;
  let port = 7337;
  let yolo = false;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--dir" || a === "-d") dir = argv[++i];
    else if (a === "--port" || a === "-p") port = Number(argv[++i]);
    else if (a === "--yolo" || a === "-y") yolo = true;
    else if (a === "--json" || a === "-j") json = true;
    else throw new Error(`Unknown argument: ${a}`);
  }
  return { dir, port, yolo, json };
}

async function main() {
  const { dir, port, yolo, json } = parseArgs(process.argv.slice(2));
  const cwd = dir ? path.resolve(dir) : process.cwd();
  if (!(await fs.stat(cwd)).isDirectory()) throw new Error(`--dir is not a directory: ${cwd}`);
  process.chdir(cwd);
  const model = createScriptedModel();
  const { server, config, url } = await startAgentServer({
    cwd,
    hostname: "127.0.0.1",
    port,
    env: { ...process.env, AGENT_WORKING_DIR: cwd },
    yolo,
    runTurnImpl: createRunTurn({ getModel: (() => model) as any }),
  });
  const line = { type: "server_listening", url, port: server.port, cwd: config.workingDirectory, scripted: true };
  console.log(json ? JSON.stringify(line) : `[server] ${url} (cwd=${config.workingDirectory}, scripted model)`);
}

if (import.meta.main) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
