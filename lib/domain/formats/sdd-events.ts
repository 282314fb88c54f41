/**
 * The SDD agent's runtime events (`<eventsDir>/<threadId>.jsonl`, `formats.md`
 * §2): `{type, runId, threadId, timestamp, payload}` per line, no event id.
 * Mapped onto protocol concepts; `sourceType` keeps the original type and
 * `raw` the line.
 */
import type { ParseItem } from "./types";
import { RUN_STATUS_TYPE, type RunStatusFields } from "./extension-events";
import { readForeignLine, readNodeId, readNumber, readObject, readString } from "./foreign-envelope";
import type { LineMapper } from "./line-mapper";
import { toParseItem } from "./parsed-event";

/**
 * Maps the lines of one SDD runtime events file. Ids are `<threadId>:<line>`
 * (the line's position identifies it, `formats.md` §2), stable across reads
 * and independent of the path; `sourceKey` stands in for a missing threadId.
 *
 * - `run.started` → `run.started` (`title` = payload.goal, `ticketId`);
 * - `llm.completed` stays (an extension type) with `tokens` = payload.totalTokens
 *   at the top level, so token totals count it;
 * - `tool.started` / `tool.completed` stay, with `node` and `tool` at the top
 *   level (not `tool.called`: without args a repeat cannot be claimed);
 * - `interrupt.raised` → `run.status` paused (reason approval),
 *   `interrupt.resumed` → `run.status` running, `run.finished` → `run.status`
 *   completed (or paused when interrupted);
 * - anything else (`checkpoint.saved`, `eval.recorded`, …) stays as it is.
 */
export function createSddEventsMapper(sourceKey: string): LineMapper {
  /** The run an interrupt paused last: the next resume in the file continues it under a new runId. */
  let lastPausedRunId: string | undefined;
  const threadGoal = new Map<string, { title?: string; ticketId?: string }>();
  /** Start time of the open llm / tool call per run (and tool), for durations. */
  const openCalls = new Map<string, number>();

  return {
    map(text, line): ParseItem[] {
      const read = readForeignLine(text, "timestamp");
      if (!read.ok) return [{ kind: "error", line, message: read.message }];
      const { source, type, runId, ts, tsMs } = read.value;
      const payload = readObject(source.payload);
      const threadId = readString(source.threadId) ?? sourceKey;
      const event: Record<string, unknown> = { ...source, v: 1, id: `${threadId}:${line}`, ts };
      delete event.timestamp;

      switch (type) {
        case "run.started":
          // A resume starts a new runId without its goal: it carries on the thread's.
          event.title = readString(payload.goal) ?? threadGoal.get(threadId)?.title;
          event.ticketId = readString(payload.ticketId) ?? threadGoal.get(threadId)?.ticketId;
          threadGoal.set(threadId, { title: event.title as string | undefined, ticketId: event.ticketId as string | undefined });
          break;
        case "llm.started":
          openCalls.set(`${runId}\nllm`, tsMs);
          break;
        case "llm.completed":
          event.tokens = readNumber(payload.totalTokens);
          event.model = readString(payload.model);
          event.durationMs = takeDuration(openCalls, `${runId}\nllm`, tsMs);
          break;
        case "tool.started":
        case "tool.completed": {
          event.node = readNodeId(payload.node);
          event.tool = readString(payload.toolName);
          const key = `${runId}\ntool\n${String(event.tool)}\n${String(event.node)}`;
          if (type === "tool.started") openCalls.set(key, tsMs);
          else event.durationMs = takeDuration(openCalls, key, tsMs);
          break;
        }
        case "interrupt.raised":
          lastPausedRunId = runId;
          setRunStatus(event, { status: "paused", reason: "approval", detail: readInterruptDetail(payload) });
          break;
        case "interrupt.resumed": {
          const resumes = lastPausedRunId !== runId ? lastPausedRunId : undefined;
          setRunStatus(event, { status: "running", resumedBy: readString(readObject(payload.resume).by), resumes });
          if (resumes !== undefined) {
            // The paused run does not wait any more: it goes on as this one.
            dropUndefined(event);
            const continued = { v: 1, id: `${threadId}:${line}:continued`, runId: resumes, ts, type: RUN_STATUS_TYPE, status: "completed", reason: "continued", continuedIn: runId, threadId };
            return [
              toParseItem(continued, { line, raw: text, sourceType: type, format: "sdd-events" }),
              toParseItem(event, { line, raw: text, sourceType: type, format: "sdd-events" }),
            ];
          }
          break;
        }
        case "run.finished":
          setRunStatus(event, payload.interrupted === true ? { status: "paused", reason: "interrupted" } : { status: "completed" });
          break;
      }
      dropUndefined(event);
      return [toParseItem(event, { line, raw: text, sourceType: type, format: "sdd-events" })];
    },
    end: () => [],
  };
}

function setRunStatus(event: Record<string, unknown>, fields: RunStatusFields): void {
  event.type = RUN_STATUS_TYPE;
  Object.assign(event, fields);
}

/** The interrupt's value (what it asks approval for); several become a list. */
function readInterruptDetail(payload: Record<string, unknown>): unknown {
  const interrupts = Array.isArray(payload.interrupts) ? payload.interrupts : [];
  const values = interrupts.map((interrupt) => readObject(interrupt).value).filter((v) => v !== undefined);
  if (values.length === 0) return undefined;
  return values.length === 1 ? values[0] : values;
}

function takeDuration(openCalls: Map<string, number>, key: string, endMs: number): number | undefined {
  const startMs = openCalls.get(key);
  if (startMs === undefined) return undefined;
  openCalls.delete(key);
  return endMs >= startMs ? Math.round(endMs - startMs) : undefined;
}

function dropUndefined(event: Record<string, unknown>): void {
  for (const key of Object.keys(event)) if (event[key] === undefined) delete event[key];
}
