/**
 * One OpenHands history (the events of one evaluation instance, or of one GUI
 * export) mapped onto protocol events, with ids taken from the events' own
 * `id`s: reading the same history twice gives the same events.
 */
import type { ParseItem } from "./types";
import { toParseItem } from "./parsed-event";
import { omitUndefined } from "./omit-undefined";
import { cutTitle } from "./claude-code-records";
import { MAIN_NODE, SESSION_BUDGETS } from "./agent-budgets";
import {
  describeSourceType,
  isAgentStep,
  isToolAction,
  readHistoryEvent,
  readEventRaw,
  readModelResponse,
  readStepText,
  readStepTokens,
  readUserMessage,
  type OpenHandsEvent,
} from "./openhands-records";
import { buildInvalidCallEvent, buildToolEvents, type ToolEvent } from "./openhands-tools";
import { readObject, readString } from "./foreign-envelope";

/** What the document around a history says about its run. */
export interface HistoryContext {
  runId: string;
  /** The instance's line (evaluation output); null for a GUI export. */
  line: number | null;
  /** A better title than the first user message (evaluation: instance id and issue headline). */
  title?: string;
  /** Extension fields of `run.started` (`model`, `agentClass`, `maxIterations`). */
  runFields?: Record<string, unknown>;
  /** Model latency by response id, in ms (evaluation `metrics.response_latencies`). */
  latencies?: ReadonlyMap<string, number>;
  /** How the evaluation says the run ended. */
  verdict?: InstanceVerdict;
  /** When the run started if its history has no event (evaluation `metadata.start_time`). */
  startTs?: string;
  /** The raw text of the run-level events the instance states outside its history. */
  instanceRaw: string;
}

/** The end of an evaluation instance, from fields next to its history. */
export interface InstanceVerdict {
  /** `error`: why the harness stopped the agent (maximum iterations, a stuck loop, a crash). */
  error?: string;
  /** `test_result.report.resolved` (or `report.resolved`), written by the benchmark's evaluation step. */
  resolved?: boolean;
}

/** The longest `stopReason` taken from an evaluation `error` (a traceback can be long). */
const MAX_STOP_REASON_CHARS = 500;
const STUCK_ERROR = /stuck in a loop|StuckInLoop/i;
/** `finish.args.task_completed` (OpenHands' `AgentFinishTaskCompleted`) → terminal status. */
const TASK_COMPLETED_STATUS: ReadonlyMap<string, string> = new Map([
  ["true", "done_success"],
  ["partial", "done_partial"],
  // The agent gave up ("Unable to make necessary changes…"): it ended the run stuck.
  ["false", "aborted_stuck"],
]);

/**
 * Maps a history onto protocol events; bad entries become errors (on the
 * instance's line) and the others are still mapped.
 *
 * - `run.started` (`run.started`) at the first event, titled by the context's
 *   title or the first user message; node `main`, `SESSION_BUDGETS`.
 * - `node.completed` (`<id>:step`) per agent step: an agent action other than
 *   housekeeping (system prompt, state change, recall), once per
 *   `model_response.id`, with its usage as tokens and its thought as output;
 *   `turn` counts the user messages so far.
 * - Per tool action and the observation whose `cause` is its id: see
 *   `buildToolEvents`. An agent `error` observation without a cause is a
 *   malformed tool call (`buildInvalidCallEvent`).
 * - `run.completed` (`run.completed`): from the instance's `error`, else its
 *   benchmark verdict, else the last `finish` not followed by a user message.
 */
export function mapOpenHandsHistory(history: readonly unknown[], ctx: HistoryContext): ParseItem[] {
  const out: ParseItem[] = [];
  const events = readEvents(history, ctx.line, out);
  const mapper = new HistoryMapper(ctx, out);
  mapper.start(events);
  for (const event of events) mapper.map(event);
  mapper.end(events);
  return out;
}

/** The valid events of a history, in order; problems (and repeated ids) become errors. */
function readEvents(history: readonly unknown[], line: number | null, out: ParseItem[]): OpenHandsEvent[] {
  const events: OpenHandsEvent[] = [];
  const seen = new Map<number, number>();
  history.forEach((value, index) => {
    const event = readHistoryEvent(value, index);
    if (typeof event === "string") {
      out.push({ kind: "error", line, message: event });
      return;
    }
    const first = seen.get(event.id);
    if (first !== undefined) {
      out.push({ kind: "error", line, message: `${event.record}: duplicate id (history entry ${index} repeats entry ${first})` });
      return;
    }
    seen.set(event.id, index);
    events.push(event);
  });
  return events;
}

class HistoryMapper {
  private turn = 0;
  private readonly responses = new Set<string>();
  /** Tool actions waiting for their observation, by action id. */
  private readonly pending = new Map<number, OpenHandsEvent>();
  private lastFinish: OpenHandsEvent | undefined;

  constructor(
    private readonly ctx: HistoryContext,
    private readonly out: ParseItem[],
  ) {}

  start(events: OpenHandsEvent[]): void {
    const first = events[0];
    const ts = first?.ts ?? this.ctx.startTs;
    if (ts === undefined) return;
    const prompt = events.map(readUserMessage).find((text) => text !== undefined && text.trim() !== "");
    const title = this.ctx.title ?? (prompt === undefined ? undefined : cutTitle(prompt));
    const model = events.map((event) => readModelResponse(event).model).find((m) => m !== undefined);
    const event = {
      v: 1,
      id: "run.started",
      runId: this.ctx.runId,
      ts,
      type: "run.started",
      title,
      graph: { nodes: [{ id: MAIN_NODE, label: "main agent" }] },
      budgets: SESSION_BUDGETS,
      model,
      ...this.ctx.runFields,
    };
    this.emit(event, first ?? null, "instance");
  }

  map(event: OpenHandsEvent): void {
    if (event.action !== undefined) {
      if (event.source === "user" && event.action === "message") {
        this.turn++;
        this.lastFinish = undefined;
      }
      if (isAgentStep(event)) this.emitStep(event);
      if (isToolAction(event)) this.pending.set(event.id, event);
      if (event.source === "agent" && event.action === "finish") this.lastFinish = event;
      return;
    }
    const action = event.cause === undefined ? undefined : this.pending.get(event.cause);
    if (action !== undefined) {
      this.pending.delete(action.id);
      this.emitAll(buildToolEvents(this.ctx.runId, MAIN_NODE, action, event));
    } else if (event.cause === undefined && event.observation === "error" && event.source === "agent") {
      this.emitAll([buildInvalidCallEvent(this.ctx.runId, MAIN_NODE, event)]);
    }
  }

  /**
   * Ends the history: a tool action left without an observation still gives
   * its `tool.called` (without `ok`: its outcome is unknown), then the run's end.
   */
  end(events: OpenHandsEvent[]): void {
    for (const action of this.pending.values()) this.emitAll(buildToolEvents(this.ctx.runId, MAIN_NODE, action, undefined));
    this.pending.clear();
    this.complete(events[events.length - 1]);
  }

  private emitStep(action: OpenHandsEvent): void {
    const response = readModelResponse(action);
    if (response.id !== undefined) {
      // Parallel tool calls of one response are several actions: one step, its tokens counted once.
      if (this.responses.has(response.id)) return;
      this.responses.add(response.id);
    }
    const latency = response.id === undefined ? undefined : this.ctx.latencies?.get(response.id);
    const text = readStepText(action);
    const event = {
      v: 1,
      id: `${action.id}:step`,
      runId: this.ctx.runId,
      ts: action.ts,
      type: "node.completed",
      node: MAIN_NODE,
      turn: this.turn > 0 ? this.turn : undefined,
      ...readStepTokens(response.usage),
      durationMs: latency,
      output: text === undefined ? undefined : { final: text },
      model: response.model,
      responseId: response.id,
    };
    this.emit(event, action);
  }

  private complete(last: OpenHandsEvent | undefined): void {
    const base = { v: 1, id: "run.completed", runId: this.ctx.runId, type: "run.completed" };
    const verdict = this.ctx.verdict ?? {};
    const ts = last?.ts ?? this.ctx.startTs;
    if (verdict.error !== undefined && ts !== undefined) {
      const error = verdict.error.trim();
      const stopReason = error.length > MAX_STOP_REASON_CHARS ? `${error.slice(0, MAX_STOP_REASON_CHARS - 1)}…` : error;
      const terminalStatus = STUCK_ERROR.test(error) ? "aborted_stuck" : "aborted_constraint";
      this.emit({ ...base, ts, terminalStatus, stopReason, resolved: verdict.resolved }, null, "error");
    } else if (verdict.resolved !== undefined && ts !== undefined) {
      const terminalStatus = verdict.resolved ? "done_success" : "done_partial";
      const stopReason = verdict.resolved ? "benchmark: resolved" : "benchmark: not resolved";
      this.emit({ ...base, ts, terminalStatus, stopReason, resolved: verdict.resolved }, null, "test_result");
    } else if (this.lastFinish !== undefined) {
      const finish = this.lastFinish;
      const taskCompleted = readString(readObject(finish.body.args).task_completed);
      const terminalStatus = (taskCompleted === undefined ? undefined : TASK_COMPLETED_STATUS.get(taskCompleted)) ?? "done_success";
      const stopReason = taskCompleted === undefined ? "finish" : `finish (task_completed: ${taskCompleted})`;
      this.emit({ ...base, ts: finish.ts, terminalStatus, stopReason, taskCompleted }, finish);
    }
  }

  private emitAll(events: ToolEvent[]): void {
    for (const { event, from } of events) this.emit(event, from);
  }

  /** Validates and records an event; `from` null = stated by the instance outside its history (`sourceType` names the field). */
  private emit(event: Record<string, unknown>, from: OpenHandsEvent | null, sourceType = "instance"): void {
    this.out.push(
      toParseItem(omitUndefined(event), {
        line: this.ctx.line,
        record: from?.record ?? null,
        raw: from !== null ? () => readEventRaw(from) : this.ctx.instanceRaw,
        sourceType: from === null ? sourceType : describeSourceType(from),
        format: "openhands",
      }),
    );
  }
}
