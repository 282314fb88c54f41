/**
 * Builders of protocol events for the detector's tests: one run, ids `e1`,
 * `e2`, … and `ts` one second apart unless given.
 */
import type { LoopEvent } from "../protocol/types";
import type { DetectorConfig } from "./config";
import { detectRun } from "./batch";
import type { Finding } from "./findings";

const START = Date.UTC(2026, 7, 1, 12, 0, 0);

export interface RunBuilder {
  events: LoopEvent[];
  /** Any event; `at` is milliseconds after the run's start (default: one second after the previous). */
  add(type: string, fields?: Record<string, unknown>, at?: number): LoopEvent;
  turn(node: string, output?: string | null, fields?: Record<string, unknown>): LoopEvent;
  hop(from: string, to: string): LoopEvent;
  diff(patch: string | null, fields?: Record<string, unknown>): LoopEvent;
  verify(passed: boolean, fields?: Record<string, unknown>): LoopEvent;
  tool(node: string | null, tool: string, args?: unknown, outputHash?: string): LoopEvent;
  research(node: string, query: string, resultsHash?: string): LoopEvent;
  attempt(taskId: string, status: string, blockers: string[], completedWork: string[], at?: number): LoopEvent;
}

/** A fresh run to add events to. */
export function buildRun(runId = "r1"): RunBuilder {
  const events: LoopEvent[] = [];
  let clock = START;
  const add = (type: string, fields: Record<string, unknown> = {}, at?: number): LoopEvent => {
    clock = at === undefined ? clock + 1000 : START + at;
    const event: LoopEvent = {
      v: 1,
      id: `e${events.length + 1}`,
      runId,
      ts: new Date(clock).toISOString(),
      type,
      ...fields,
    };
    events.push(event);
    return event;
  };
  return {
    events,
    add,
    turn: (node, output, fields = {}) =>
      add("node.completed", output === undefined || output === null ? { node, ...fields } : { node, output: { final: output }, ...fields }),
    hop: (from, to) => add("edge.traversed", { from, to }),
    diff: (patch, fields = {}) => add("artifact.diff", patch === null ? { ...fields } : { patch, ...fields }),
    verify: (passed, fields = {}) => add("verify.result", { command: "npm test", passed, ...fields }),
    tool: (node, tool, args, outputHash) =>
      add("tool.called", {
        ...(node === null ? {} : { node }),
        tool,
        ...(args === undefined ? {} : { args }),
        ...(outputHash === undefined ? {} : { outputHash }),
      }),
    research: (node, query, resultsHash) =>
      add("research.result", { node, query, ...(resultsHash === undefined ? {} : { resultsHash }) }),
    attempt: (taskId, status, blockers, completedWork, at) =>
      add("task.attempt", { taskId, status, blockers, completedWork }, at),
  };
}

/** `signal@eventId` of each finding: a compact form to compare in tests. */
export function summarize(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.signal}@${f.atEventId}`);
}

/** The findings of a built run, in batch. */
export function detectBuilt(run: RunBuilder, config?: Partial<DetectorConfig>): Finding[] {
  return detectRun(run.events, config);
}
