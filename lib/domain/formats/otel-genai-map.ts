/**
 * OpenTelemetry GenAI spans mapped onto the protocol: one run per trace, one
 * node per agent, one `node.completed` per model call, one `tool.called` per
 * tool call. The format as real spans show it:
 * `shared/real-traces/otel-genai/FORMAT.md`.
 */
import type { SourceFormat } from "../protocol/types";
import type { ParseItem } from "./types";
import { toParseItem } from "./parsed-event";
import { omitUndefinedWithGraph } from "./omit-undefined";
import { SESSION_BUDGETS, MAIN_NODE } from "./agent-budgets";
import { cutTitle } from "./claude-code-records";
import { hashToolOutput, isVerifyCommand } from "./claude-code-commands";
import { isJsonObject } from "./json-line";
import { buildVerifyEvent } from "./verify-result";
import {
  readCostUsd,
  readModelOutput,
  readText,
  readToolArgs,
  readToolName,
  readToolOutput,
  readUsage,
  readUserPrompt,
} from "./otel-genai-attributes";
import type { GenAiSpan } from "./otel-genai-span";
import { TraceTree, type TraceSpan } from "./otel-genai-tree";
import { formatIsoMicros } from "./timestamp";

/** Where the spans came from, for the events' origin. */
export interface GenAiOrigin {
  format: SourceFormat;
  /** The source line (null for a whole document or a request body). */
  line: number | null;
}

interface Pending {
  event: Record<string, unknown>;
  tsMs: number;
  /** Orders events of one instant: the run first, declarations before what happens on a node. */
  rank: number;
  from: TraceSpan;
}

/**
 * Maps spans onto protocol events; never throws.
 *
 * - Run: the trace (`runId` = trace id, 32 hex digits). `run.started`
 *   (`<traceId>:run.started`) at the main agent's start (else the first GenAI
 *   span's), titled by the first user message, declaring `main` (labelled with
 *   `gen_ai.agent.name`) with `SESSION_BUDGETS`. A trace without any GenAI span
 *   gives nothing.
 * - Nodes: the `invoke_agent` span no other agent span is above is `main`;
 *   an agent span under another is the node `gen_ai.agent.name`, declared with
 *   `graph.declared` (`<spanId>:graph`) and entered by `edge.traversed`
 *   (`<spanId>:edge`) from its caller's node, at its start. Every other span
 *   belongs to the agent span above it (`TraceTree`): parent links, not order.
 * - `call_llm`/`chat`/`text_completion`/`generate_content`: `node.completed`
 *   (`<spanId>:call`) at its end, with `tokens` (input + output usage),
 *   `costUsd`, `durationMs` and `output.final`.
 * - `execute_tool`: `tool.called` (`<spanId>:tool`) at its end, `ok` unless
 *   its status is error, `outputHash` of its result; a shell command that
 *   runs tests or a commit also gives `verify.result` (`<spanId>:verify`).
 * - The trace's root span (no parent): `run.completed` (`<traceId>:run.completed`)
 *   at its end, `done_success`, or `aborted_constraint` when it (or the main
 *   agent) ended with an error status.
 *
 * Events come out in time order; ids come from trace and span ids only, so
 * the same spans mapped twice, or in other batches, give the same ids.
 */
export function mapGenAiSpans(spans: readonly GenAiSpan[], origin: GenAiOrigin): ParseItem[] {
  const out: ParseItem[] = [];
  const traces = new Map<string, TraceTree>();
  for (const span of spans) {
    let tree = traces.get(span.traceId);
    if (tree === undefined) {
      tree = new TraceTree(span.traceId);
      traces.set(span.traceId, tree);
    }
    if (!tree.add(span)) {
      out.push({ kind: "error", line: origin.line, message: `span ${span.spanId} of trace ${span.traceId} appears twice: the second copy is left out` });
    }
  }
  const pending: Pending[] = [];
  for (const tree of traces.values()) if (tree.hasGenAiSpans()) mapTrace(tree, pending);
  pending.sort((a, b) => a.tsMs - b.tsMs || a.rank - b.rank || a.from.span.startMs - b.from.span.startMs || compare(a.event.id, b.event.id));
  for (const p of pending) {
    const item = toParseItem(omitUndefinedWithGraph(p.event), { line: origin.line, record: null, raw: readerOfRaw(p.from.span), sourceType: p.from.operation, format: origin.format });
    if (item.kind === "error") item.message = `span ${p.from.span.spanId} (${p.from.operation}): ${item.message}`;
    out.push(item);
  }
  return out;
}

/**
 * What reads a span's `raw` for its events, when they are stored. Made here, not as a property's
 * arrow: a bundler that keeps function names (tsx, esbuild's `keepNames`) names each such arrow as it
 * is made, which costs more than making it.
 */
function readerOfRaw(span: GenAiSpan): () => string {
  return () => span.raw;
}

function mapTrace(tree: TraceTree, out: Pending[]): void {
  const runId = tree.traceId;
  const mains = tree.mainAgents();
  pushRunStarted(tree, mains, out);
  for (const entry of tree.spans) {
    if (entry.kind === "agent") pushAgentEntry(tree, entry, out);
    else if (entry.kind === "model") out.push(buildModelCall(runId, entry, tree.nodeOf(entry)));
    else if (entry.kind === "tool") out.push(...buildToolCall(runId, entry, tree.nodeOf(entry)));
  }
  const root = latestEnding(tree.roots());
  if (root === undefined) return;
  const failed = [root, ...mains].find((s) => s.span.status === "error");
  const event = {
    v: 1,
    id: `${runId}:run.completed`,
    runId,
    ts: formatIsoMicros(root.span.endMs),
    type: "run.completed",
    terminalStatus: failed === undefined ? "done_success" : "aborted_constraint",
    stopReason: failed === undefined
      ? `span "${root.span.name}" ended without error`
      : `span "${failed.span.name}" ended with an error${failed.span.statusMessage ? `: ${failed.span.statusMessage}` : ""}`,
  };
  out.push({ event, tsMs: root.span.endMs, rank: 9, from: root });
}

function pushRunStarted(tree: TraceTree, mains: TraceSpan[], out: Pending[]): void {
  const genAi = tree.spans.filter((s) => s.kind !== null);
  const anchor = earliestStarting(mains.length > 0 ? mains : genAi);
  if (anchor === undefined) return;
  const agentName = mains.map((m) => readText(m.span, "gen_ai.agent.name")).find((name) => name !== undefined);
  const prompts = [...mains, ...genAi.filter((s) => s.kind === "model").sort((a, b) => a.span.startMs - b.span.startMs)];
  // The first prompt found: each model call's messages hold the whole conversation so far, so read no more than needed.
  let prompt: string | undefined;
  for (let i = 0; i < prompts.length && prompt === undefined; i++) prompt = readUserPrompt(prompts[i].span);
  const title = prompt ?? agentName;
  const event = {
    v: 1,
    id: `${tree.traceId}:run.started`,
    runId: tree.traceId,
    ts: formatIsoMicros(anchor.span.startMs),
    type: "run.started",
    title: title === undefined ? undefined : cutTitle(title),
    graph: { nodes: [{ id: MAIN_NODE, label: agentName ?? "main agent", role: "agent" }] },
    budgets: SESSION_BUDGETS,
    model: readText(anchor.span, "gen_ai.request.model"),
  };
  out.push({ event, tsMs: anchor.span.startMs, rank: 0, from: anchor });
}

/** A nested agent: its node declared, and control passed to it from its caller's node. */
function pushAgentEntry(tree: TraceTree, entry: TraceSpan, out: Pending[]): void {
  const caller = tree.agentOf(entry);
  if (caller === null) return;
  const from = tree.nodeOf(caller);
  const to = tree.nodeOf(entry);
  if (from === to) return;
  const base = { v: 1, runId: tree.traceId, ts: formatIsoMicros(entry.span.startMs) };
  const label = readText(entry.span, "gen_ai.agent.name");
  const graph = { nodes: [{ id: to, label, role: "agent" }], edges: [{ from, to }] };
  const reason = readText(entry.span, "gen_ai.agent.description");
  out.push({ event: { ...base, id: `${entry.span.spanId}:graph`, type: "graph.declared", graph }, tsMs: entry.span.startMs, rank: 1, from: entry });
  out.push({ event: { ...base, id: `${entry.span.spanId}:edge`, type: "edge.traversed", from, to, reason }, tsMs: entry.span.startMs, rank: 2, from: entry });
}

function buildModelCall(runId: string, entry: TraceSpan, node: string): Pending {
  const span = entry.span;
  const answer = readModelOutput(span);
  const event = {
    v: 1,
    id: `${span.spanId}:call`,
    runId,
    ts: formatIsoMicros(span.endMs),
    type: "node.completed",
    node,
    durationMs: durationOf(span),
    ...readUsage(span),
    costUsd: readCostUsd(span),
    output: answer === undefined || answer.trim() === "" ? undefined : { final: answer },
    model: readText(span, "gen_ai.response.model") ?? readText(span, "gen_ai.request.model"),
    error: span.status === "error" ? (span.statusMessage ?? "error") : undefined,
  };
  return { event, tsMs: span.endMs, rank: 3, from: entry };
}

function buildToolCall(runId: string, entry: TraceSpan, node: string): Pending[] {
  const span = entry.span;
  const tool = readToolName(span);
  const args = readToolArgs(span);
  const output = readToolOutput(span);
  const ts = formatIsoMicros(span.endMs);
  const toolCallId = readText(span, "gen_ai.tool.call.id");
  const event = {
    v: 1,
    runId,
    ts,
    node,
    id: `${span.spanId}:tool`,
    type: "tool.called",
    tool: tool ?? "",
    args,
    ok: span.status !== "error",
    outputHash: output === undefined ? undefined : hashToolOutput(output),
    durationMs: durationOf(span),
    toolCallId,
  };
  const events: Pending[] = [{ event, tsMs: span.endMs, rank: 3, from: entry }];
  if (tool === undefined) {
    // Left for the validator to refuse with the field's name; the span is refused whole.
    delete (event as Record<string, unknown>).tool;
    return events;
  }
  const command = readShellCommand(args);
  if (command !== undefined && output !== undefined && isVerifyCommand(command)) {
    const verify = buildVerifyEvent({
      runId, id: `${span.spanId}:verify`, ts, node, command, output,
      failed: span.status === "error", extra: toolCallId === undefined ? undefined : { toolCallId },
    });
    events.push({ event: verify, tsMs: span.endMs, rank: 4, from: entry });
  }
  return events;
}

/** The shell command a tool call ran, when its arguments name one (`command`/`cmd`). */
function readShellCommand(args: unknown): string | undefined {
  if (!isJsonObject(args)) return undefined;
  const command = args.command ?? args.cmd;
  if (typeof command === "string" && command.trim() !== "") return command;
  if (Array.isArray(command) && command.every((part) => typeof part === "string")) return command.join(" ");
  return undefined;
}

function durationOf(span: GenAiSpan): number | undefined {
  const ms = span.endMs - span.startMs;
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms * 1000) / 1000 : undefined;
}

function earliestStarting(spans: TraceSpan[]): TraceSpan | undefined {
  return spans.reduce<TraceSpan | undefined>((best, s) => (best === undefined || s.span.startMs < best.span.startMs ? s : best), undefined);
}

function latestEnding(spans: TraceSpan[]): TraceSpan | undefined {
  return spans.reduce<TraceSpan | undefined>((best, s) => (best === undefined || s.span.endMs > best.span.endMs ? s : best), undefined);
}

function compare(a: unknown, b: unknown): number {
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

