/**
 * One Claude Code session (one run, keyed by `sessionId`) while its records
 * are read: which node each record belongs to, the model call in progress
 * per node, the tool calls waiting for their results, and the Task calls
 * waiting for the sub-agent they start.
 */
import type { ParseItem } from "./types";
import { readObject, readString } from "./foreign-envelope";
import { toParseItem } from "./parsed-event";
import {
  cutTitle,
  listToolResults,
  listToolUses,
  readAnswerText,
  readCallTokens,
  readContentText,
  readPrompt,
  type CallTokens,
} from "./claude-code-records";
import { buildToolEvents, type PendingToolCall } from "./claude-code-tools";

import { MAIN_NODE, SESSION_BUDGETS } from "./agent-budgets";
import { omitUndefinedWithGraph } from "./omit-undefined";

/** A record of the session whose envelope was read. */
export interface ClaudeRecord {
  source: Record<string, unknown>;
  type: string;
  /** `uuid`; only `user` and `assistant` records are guaranteed one. */
  uuid: string | undefined;
  ts: string;
  /** `agentId` of a sub-agent transcript (2.x `subagents/agent-<id>.jsonl`). */
  agentId: string | undefined;
  line: number;
  raw: string;
}

interface Origin {
  line: number;
  raw: string;
  sourceType: string;
}

/** The model call in progress on a node: the assistant records sharing one `message.id`. */
interface OpenCall {
  node: string;
  messageId: string;
  firstUuid: string;
  last: Origin & { ts: string };
  tokens?: CallTokens;
  model?: string;
  answer: string[];
  turn: number;
}

interface TaskCall extends PendingToolCall {
  prompt?: string;
  description?: string;
  subagentType?: string;
  linked: boolean;
}

/** Maps the records of one session onto protocol events (see `createClaudeCodeMapper`). */
export class ClaudeCodeSession {
  private started = false;
  private first: (Origin & { ts: string }) | undefined;
  private slug: string | undefined;
  private summary: string | undefined;
  /** The first plain prompt (or command with arguments) of the main agent. */
  private prompt: string | undefined;
  /** The last command typed without arguments, a weaker title. */
  private bareCommand: string | undefined;
  private readonly sidechainNodes = new Map<string, string>();
  private readonly calls = new Map<string, OpenCall>();
  private readonly pending = new Map<string, PendingToolCall>();
  private readonly tasks = new Map<string, TaskCall>();
  /** The compaction summarisers' nodes declared so far. */
  private readonly compactions = new Set<string>();
  private readonly turns = new Map<string, number>();

  constructor(readonly runId: string) {}

  /** Names a summary whose `leafUuid` is a record of this session (a later summary does not replace it). */
  setSummary(summary: string): void {
    this.summary ??= summary;
  }

  /** Maps one record, appending what it completes to `out`. */
  map(rec: ClaudeRecord, out: ParseItem[]): void {
    if (rec.agentId === undefined && this.first === undefined) this.first = { ...originOf(rec), ts: rec.ts };
    this.slug ??= readString(rec.source.slug);
    if (rec.type === "assistant" && rec.uuid !== undefined) this.mapAssistant(rec, rec.uuid, out);
    else if (rec.type === "user" && rec.uuid !== undefined) this.mapUser(rec, rec.uuid, out);
    else if (rec.type === "progress") this.mapProgress(rec, out);
    // A summary or a typed prompt is as good a title as the session will get.
    if (this.summary !== undefined || this.prompt !== undefined) this.start(out);
  }

  /**
   * Ends the source: the model calls still open are complete (their last
   * record has been read). Tool calls without a result are left out: their
   * id is taken by the complete event a longer read of a growing file gives.
   */
  end(out: ParseItem[]): void {
    this.start(out);
    for (const call of [...this.calls.values()]) this.finishCall(call, out);
  }

  private mapAssistant(rec: ClaudeRecord, uuid: string, out: ParseItem[]): void {
    const node = this.resolveNode(rec, uuid, out);
    const message = readObject(rec.source.message);
    const messageId = readString(message.id) ?? uuid;
    let call = this.calls.get(node);
    if (call !== undefined && call.messageId !== messageId) {
      this.finishCall(call, out);
      call = undefined;
    }
    const last = { ...originOf(rec), ts: rec.ts };
    if (call === undefined) {
      call = { node, messageId, firstUuid: uuid, last, answer: [], turn: this.turns.get(node) ?? 0 };
      this.calls.set(node, call);
    }
    call.last = last;
    call.tokens = readCallTokens(message.usage) ?? call.tokens;
    call.model = readString(message.model) ?? call.model;
    const answer = readAnswerText(message.content);
    if (answer.trim() !== "") call.answer.push(answer);
    for (const use of listToolUses(message.content)) {
      const pending: PendingToolCall = { uuid, index: use.index, toolUseId: use.id, name: use.name, input: use.input, node, ts: rec.ts };
      this.pending.set(use.id, pending);
      if (use.name === "Task") this.tasks.set(use.id, { ...pending, ...readTaskInput(use.input), linked: false });
    }
  }

  private mapUser(rec: ClaudeRecord, uuid: string, out: ParseItem[]): void {
    const node = this.resolveNode(rec, uuid, out);
    const results = listToolResults(readObject(rec.source.message).content);
    if (results.length === 0) {
      const prompt = readPrompt(rec.source);
      if (prompt === null) return;
      this.turns.set(node, (this.turns.get(node) ?? 0) + 1);
      if (node !== MAIN_NODE) return;
      if (!prompt.bare) this.prompt ??= prompt.text;
      else this.bareCommand = prompt.text;
      return;
    }
    for (const result of results) {
      const call = this.pending.get(result.toolUseId);
      if (call === undefined) continue;
      this.pending.delete(result.toolUseId);
      const toolUseResult = rec.source.toolUseResult;
      const task = this.tasks.get(result.toolUseId);
      if (task !== undefined) {
        this.tasks.delete(result.toolUseId);
        const agentId = readString(readObject(toolUseResult).agentId);
        if (agentId !== undefined) this.linkTask(task, agentNode(agentId), rec, out);
      }
      const outcome = { text: result.text, isError: result.isError, toolUseResult, ts: rec.ts };
      for (const event of buildToolEvents(this.runId, call, outcome)) this.emit(event, originOf(rec), out);
    }
  }

  /** 2.x: an `agent_progress` record names the sub-agent a Task started. */
  private mapProgress(rec: ClaudeRecord, out: ParseItem[]): void {
    const data = readObject(rec.source.data);
    if (data.type !== "agent_progress") return;
    const agentId = readString(data.agentId);
    const toolUseId = readString(rec.source.parentToolUseID);
    const task = toolUseId === undefined ? undefined : this.tasks.get(toolUseId);
    if (agentId !== undefined && task !== undefined) this.linkTask(task, agentNode(agentId), rec, out);
  }

  /**
   * The node of a record: `agent-<agentId>` in a 2.x sub-agent transcript;
   * for a 1.0.x inline sidechain, the node of its parent record, or a new
   * `sidechain-<uuid>` at its root, matched to the Task whose prompt it holds.
   */
  private resolveNode(rec: ClaudeRecord, uuid: string, out: ParseItem[]): string {
    if (rec.agentId !== undefined) {
      const node = agentNode(rec.agentId);
      if (rec.agentId.startsWith(COMPACTION_AGENT) && !this.compactions.has(node)) this.declareCompaction(node, uuid, rec, out);
      return node;
    }
    if (rec.source.isSidechain !== true) return MAIN_NODE;
    const parent = readString(rec.source.parentUuid);
    const inherited = parent === undefined ? undefined : this.sidechainNodes.get(parent);
    const node = inherited ?? `sidechain-${uuid}`;
    this.sidechainNodes.set(uuid, node);
    if (inherited === undefined && rec.type === "user") {
      const prompt = readContentText(readObject(rec.source.message).content).trim();
      for (const task of this.tasks.values()) {
        if (task.linked || task.prompt?.trim() !== prompt) continue;
        this.linkTask(task, node, rec, out);
        break;
      }
    }
    return node;
  }

  /**
   * The compaction summariser (`subagents/agent-acompact-<hex>.jsonl`) is no
   * Task's sub-agent: the main agent hands it the conversation to summarise.
   * It is drawn as that, a "compaction summariser" node the main agent goes
   * to, at its first record's time, not as an agent nothing started.
   */
  private declareCompaction(node: string, uuid: string, rec: ClaudeRecord, out: ParseItem[]): void {
    this.compactions.add(node);
    const base = { v: 1, runId: this.runId, ts: rec.ts };
    const graph = { nodes: [{ id: node, label: "compaction summariser", role: "compaction" }], edges: [{ from: MAIN_NODE, to: node }] };
    const origin = originOf(rec);
    this.emit({ ...base, id: `${uuid}:compaction:graph`, type: "graph.declared", graph }, origin, out);
    this.emit({ ...base, id: `${uuid}:compaction:edge`, type: "edge.traversed", from: MAIN_NODE, to: node, reason: "compaction" }, origin, out);
  }

  /** Declares the sub-agent a Task started and the traversal to it, at the Task's own time. */
  private linkTask(task: TaskCall, node: string, rec: ClaudeRecord, out: ParseItem[]): void {
    if (task.linked) return;
    task.linked = true;
    const base = { v: 1, runId: this.runId, ts: task.ts };
    const id = `${task.uuid}:${task.index}`;
    const graph = { nodes: [{ id: node, label: task.description, role: task.subagentType }], edges: [{ from: task.node, to: node }] };
    const origin = originOf(rec);
    this.emit({ ...base, id: `${id}:graph`, type: "graph.declared", graph }, origin, out);
    this.emit({ ...base, id: `${id}:edge`, type: "edge.traversed", from: task.node, to: node, reason: task.description }, origin, out);
  }

  private finishCall(call: OpenCall, out: ParseItem[]): void {
    this.calls.delete(call.node);
    const answer = call.answer.join("\n");
    const event: Record<string, unknown> = {
      v: 1,
      id: `${call.firstUuid}:call`,
      runId: this.runId,
      ts: call.last.ts,
      type: "node.completed",
      node: call.node,
      turn: call.turn > 0 ? call.turn : undefined,
      ...call.tokens,
      output: answer === "" ? undefined : { final: answer },
      model: call.model,
      messageId: call.messageId,
    };
    this.emit(event, call.last, out);
  }

  /** `run.started`, once, before the session's first event; only for a session with main-agent records. */
  private start(out: ParseItem[]): void {
    if (this.started || this.first === undefined) return;
    this.started = true;
    const title = this.summary ?? this.prompt ?? this.bareCommand ?? this.slug;
    const event = {
      v: 1,
      id: `${this.runId}:run.started`,
      runId: this.runId,
      ts: this.first.ts,
      type: "run.started",
      title: title === undefined ? undefined : cutTitle(title),
      graph: { nodes: [{ id: MAIN_NODE, label: "main agent" }] },
      budgets: SESSION_BUDGETS,
    };
    out.push(toParseItem(omitUndefinedWithGraph(event), { ...this.first, format: "claude-code" }));
  }

  private emit(event: Record<string, unknown>, origin: Origin, out: ParseItem[]): void {
    this.start(out);
    out.push(toParseItem(omitUndefinedWithGraph(event), { line: origin.line, raw: origin.raw, sourceType: origin.sourceType, format: "claude-code" }));
  }
}

function originOf(rec: ClaudeRecord): Origin {
  return { line: rec.line, raw: rec.raw, sourceType: rec.type };
}

/** The agent id prefix of Claude Code's compaction summariser (its `subagents/agent-acompact-<hex>.jsonl`). */
const COMPACTION_AGENT = "acompact";

function agentNode(agentId: string): string {
  return `agent-${agentId}`;
}

function readTaskInput(input: unknown): { prompt?: string; description?: string; subagentType?: string } {
  const fields = readObject(input);
  return {
    prompt: readString(fields.prompt),
    description: readString(fields.description),
    subagentType: readString(fields.subagent_type),
  };
}

