/**
 * One Codex session (one run, keyed by `session_meta.payload.id`) while its
 * records are read: the turn and model in force, the model call in progress,
 * and the tool calls waiting for their results (`codex-tools.ts`).
 */
import type { ParseItem } from "./types";
import { readObject, readString } from "./foreign-envelope";
import { toParseItem } from "./parsed-event";
import { omitUndefined } from "./omit-undefined";
import { cutTitle } from "./claude-code-records";
import { MAIN_NODE, SESSION_BUDGETS } from "./agent-budgets";
import { readArguments, readContentText, readPromptText, readTokenCount, requireStrings, type CallTokens } from "./codex-records";
import { CodexTools, readExecEnd, type RecordOrigin, type ToolEvent } from "./codex-tools";

/** A rollout line whose envelope was read. */
export interface CodexRecord {
  /** `session_meta`, `response_item`, `event_msg`, `turn_context`, `compacted`. */
  type: string;
  /** `payload.type` (required for `response_item` and `event_msg`). */
  itemType: string | undefined;
  payload: Record<string, unknown>;
  ts: string;
  line: number;
  raw: string;
}

/** What `session_meta` says about the session, for `run.started`. */
export interface SessionMeta {
  ts: string;
  cwd?: string;
  originator?: string;
  cliVersion?: string;
}

/** `response_item` types the model writes; a new one after a tool result starts the next model call. */
const MODEL_ITEMS = new Set(["reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "image_generation_call"]);
const OUTPUT_ITEMS = new Set(["function_call_output", "custom_tool_call_output"]);

/** The model call in progress: the model's items since the previous call ended. */
interface OpenCall {
  firstLine: number;
  last: RecordOrigin;
  answer: string[];
  /** A tool result or prompt came after the call's last item: the next model item starts a new call. */
  sawInput: boolean;
  turn: number;
  turnId?: string;
  model?: string;
}

/** Maps the records of one session onto protocol events (see `createCodexMapper`). */
export class CodexSession {
  private started = false;
  private meta: (SessionMeta & { origin: RecordOrigin }) | undefined;
  private first: RecordOrigin | undefined;
  private prompt: string | undefined;
  private model: string | undefined;
  private turn = 0;
  private turnId: string | undefined;
  /** A `task_started` opened the turn and no prompt has been counted in it yet. */
  private turnAwaitsPrompt = false;
  private call: OpenCall | undefined;
  private lastTotal: string | undefined;
  private readonly tools: CodexTools;

  constructor(readonly runId: string) {
    this.tools = new CodexTools(runId);
  }

  /** The `session_meta` of this session (only the first one counts). */
  setMeta(meta: SessionMeta, rec: CodexRecord): void {
    this.meta ??= { ...meta, origin: originOf(rec) };
  }

  /** Maps one record, appending what it completes (or what is wrong with it) to `out`. */
  map(rec: CodexRecord, out: ParseItem[]): void {
    this.first ??= originOf(rec);
    if (rec.type === "turn_context") {
      this.model = readString(rec.payload.model) ?? this.model;
      this.turnId = readString(rec.payload.turn_id) ?? this.turnId;
    } else if (rec.type === "response_item") {
      this.mapItem(rec, out);
    } else if (rec.type === "event_msg") {
      this.mapEvent(rec, out);
    }
  }

  /** Ends the source: the open model call is complete; tool calls without a result are left out. */
  end(out: ParseItem[]): void {
    this.start(out);
    this.closeCall(out, undefined, undefined);
  }

  private mapItem(rec: CodexRecord, out: ParseItem[]): void {
    const type = rec.itemType;
    const payload = rec.payload;
    if (type === "message") {
      if (payload.role !== "assistant") return this.markInput();
      this.openCall(rec, out).answer.push(readContentText(payload.content));
      return;
    }
    if (type !== undefined && OUTPUT_ITEMS.has(type)) {
      const problem = requireStrings(payload, ["call_id"]);
      if (problem !== null) return this.fail(rec, problem, out);
      this.markInput();
      return this.emitAll(this.tools.addOutput(payload.call_id as string, payload.output, originOf(rec)), out);
    }
    if (type === undefined || !MODEL_ITEMS.has(type)) return;
    if (type === "function_call" || type === "custom_tool_call") {
      const problem = requireStrings(payload, ["name", "call_id"]);
      if (problem !== null) return this.fail(rec, problem, out);
    }
    this.openCall(rec, out);
    const common = { origin: originOf(rec), node: MAIN_NODE, turnId: this.turnId };
    if (type === "function_call") {
      const args = readArguments(payload.arguments);
      const namespace = readString(payload.namespace);
      this.tools.addCall({ ...common, callId: payload.call_id as string, name: payload.name as string, namespace, args });
    } else if (type === "custom_tool_call") {
      this.tools.addCall({ ...common, callId: payload.call_id as string, name: payload.name as string, args: payload.input ?? null });
    } else if (type === "local_shell_call") {
      const callId = readString(payload.call_id) ?? readString(payload.id);
      if (callId !== undefined) this.tools.addCall({ ...common, callId, name: "local_shell", args: readObject(payload.action) });
    }
  }

  private mapEvent(rec: CodexRecord, out: ParseItem[]): void {
    const payload = rec.payload;
    switch (rec.itemType) {
      case "task_started":
        this.closeCall(out, undefined, undefined);
        this.turn++;
        this.turnAwaitsPrompt = true;
        this.turnId = readString(payload.turn_id) ?? this.turnId;
        return;
      case "user_message": {
        if (!this.turnAwaitsPrompt) this.turn++;
        this.turnAwaitsPrompt = false;
        this.markInput();
        this.prompt ??= readPromptText(payload.message) ?? undefined;
        if (this.prompt !== undefined) this.start(out);
        return;
      }
      case "token_count": {
        const count = readTokenCount(payload);
        // Codex writes the same totals again (rate-limit updates): only a changed total is a new call.
        if (count === undefined || count.totalKey === this.lastTotal) return;
        this.lastTotal = count.totalKey;
        return this.closeCall(out, count.last, originOf(rec));
      }
      case "exec_command_end": {
        const problem = requireStrings(payload, ["call_id"]);
        if (problem !== null) return this.fail(rec, problem, out);
        const end = readExecEnd(payload);
        this.tools.addExecEnd(payload.call_id as string, end.exitCode, end.output, originOf(rec));
        return;
      }
      case "patch_apply_end": {
        const problem = requireStrings(payload, ["call_id"]);
        if (problem !== null) return this.fail(rec, problem, out);
        const changes = readObject(payload.changes);
        const events = this.tools.addPatchEnd(payload.call_id as string, changes, payload.success !== false, originOf(rec), MAIN_NODE);
        return this.emitAll(events, out);
      }
      case "web_search_end":
        return this.mapWebSearch(rec, out);
      case "task_complete":
      case "turn_aborted":
        this.closeCall(out, undefined, undefined);
        return this.emitAll(this.tools.finishEnded(), out);
      default:
        return;
    }
  }

  /** A web search runs on the server: its query is all the file keeps (no results, no output hash). */
  private mapWebSearch(rec: CodexRecord, out: ParseItem[]): void {
    const problem = requireStrings(rec.payload, ["call_id"]);
    if (problem !== null) return this.fail(rec, problem, out);
    const action = rec.payload.action;
    const event = {
      v: 1,
      id: rec.payload.call_id as string,
      runId: this.runId,
      ts: rec.ts,
      type: "tool.called",
      node: MAIN_NODE,
      tool: "web_search",
      args: action ?? { query: rec.payload.query ?? null },
      ok: true,
      callId: rec.payload.call_id,
      turnId: this.turnId,
    };
    this.emit(event, originOf(rec), out);
  }

  /** The open model call, or a new one when a result or prompt came after the open one's last item. */
  private openCall(rec: CodexRecord, out: ParseItem[]): OpenCall {
    if (this.call !== undefined && !this.call.sawInput) {
      this.call.last = originOf(rec);
      return this.call;
    }
    this.closeCall(out, undefined, undefined);
    this.call = { firstLine: rec.line, last: originOf(rec), answer: [], sawInput: false, turn: this.turn, turnId: this.turnId, model: this.model };
    return this.call;
  }

  private markInput(): void {
    if (this.call !== undefined) this.call.sawInput = true;
  }

  /**
   * Completes the open model call: at its `token_count` (with that call's
   * usage and time), at the end of its turn, or, in a file without token
   * counts, when the next call starts. A count with no call open is a call
   * whose items the file does not hold: it still counts its tokens.
   */
  private closeCall(out: ParseItem[], tokens: CallTokens | undefined, closer: RecordOrigin | undefined): void {
    const call = this.call ?? (tokens !== undefined && closer !== undefined ? this.bareCall(closer) : undefined);
    this.call = undefined;
    if (call === undefined) return;
    const at = closer ?? call.last;
    const answer = call.answer.filter((text) => text.trim() !== "").join("\n");
    const event = {
      v: 1,
      id: `${this.runId}:${call.firstLine}:call`,
      runId: this.runId,
      ts: at.ts,
      type: "node.completed",
      node: MAIN_NODE,
      turn: call.turn > 0 ? call.turn : undefined,
      ...tokens,
      output: answer === "" ? undefined : { final: answer },
      model: call.model,
      turnId: call.turnId,
    };
    this.emit(event, at, out);
  }

  private bareCall(closer: RecordOrigin): OpenCall {
    return { firstLine: closer.line, last: closer, answer: [], sawInput: false, turn: this.turn, turnId: this.turnId, model: this.model };
  }

  /** `run.started`, once, before the session's first event. */
  private start(out: ParseItem[]): void {
    const origin = this.meta?.origin ?? this.first;
    if (this.started || origin === undefined) return;
    this.started = true;
    const event = {
      v: 1,
      id: `${this.runId}:run.started`,
      runId: this.runId,
      ts: this.meta?.ts ?? origin.ts,
      type: "run.started",
      title: this.prompt === undefined ? undefined : cutTitle(this.prompt),
      graph: { nodes: [{ id: MAIN_NODE, label: "main agent" }] },
      budgets: SESSION_BUDGETS,
      cwd: this.meta?.cwd,
      originator: this.meta?.originator,
      cliVersion: this.meta?.cliVersion,
    };
    out.push(toParseItem(omitUndefined(event), { ...origin, format: "codex" }));
  }

  private emitAll(events: ToolEvent[], out: ParseItem[]): void {
    for (const { event, origin } of events) this.emit(event, origin, out);
  }

  private emit(event: Record<string, unknown>, origin: RecordOrigin, out: ParseItem[]): void {
    this.start(out);
    out.push(toParseItem(omitUndefined(event), { line: origin.line, raw: origin.raw, sourceType: origin.sourceType, format: "codex" }));
  }

  private fail(rec: CodexRecord, message: string, out: ParseItem[]): void {
    out.push({ kind: "error", line: rec.line, message });
  }
}

function originOf(rec: CodexRecord): RecordOrigin {
  return { line: rec.line, raw: rec.raw, sourceType: rec.itemType ?? rec.type, ts: rec.ts };
}

