import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../protocol/types";
import { RunAccumulator } from "./run-accumulator";
import { RunCheckpoints } from "./run-checkpoints";

const T0 = Date.UTC(2026, 0, 1);
const event = (i: number): LoopEvent => ({
  v: 1, id: `e${i}`, runId: "r", ts: new Date(T0 + i * 1000).toISOString(), type: "node.completed", node: i % 2 === 0 ? "a" : "b", output: { final: "same" }, tokens: 10,
});
const state = (acc: RunAccumulator) => JSON.stringify([acc.summary(), acc.findings(), acc.graph.nodes(), acc.graph.edges()]);

/** Applies events 0..n-1 in order, checkpointing as the writer does. */
function feed(n: number, checkpoints: RunCheckpoints): RunAccumulator {
  const acc = new RunAccumulator("r", "protocol");
  for (let i = 0; i < n; i++) {
    checkpoints.beforeEvent(acc, T0 + i * 1000);
    acc.applyEvent(event(i), T0 + i * 1000);
  }
  return acc;
}

describe("RunCheckpoints", () => {
  it("restores a copy holding exactly the events before the late instant, and replaying the rest gives the fresh state", () => {
    const checkpoints = new RunCheckpoints(10, 4);
    const live = feed(100, checkpoints);
    expect(checkpoints.size).toBe(4);
    expect(checkpoints.restoreBefore(Infinity)?.acc.eventCount).toBe(90);
    // A late event at instant 85.5 s: the checkpoint at 80 events (bound 79 s) is the last one before it.
    const late: LoopEvent = { ...event(0), id: "late", ts: new Date(T0 + 85_500).toISOString(), output: { final: "other" } };
    const start = checkpoints.restoreBefore(T0 + 85_500);
    expect(start?.boundTsMs).toBeLessThan(T0 + 85_500);
    const acc = start?.acc ?? new RunAccumulator("r", "protocol");
    const restoredCount = acc.eventCount;
    expect(restoredCount).toBe(80);
    const replay = [...Array.from({ length: 100 }, (_, i) => event(i)).filter((e) => Date.parse(e.ts) > (start?.boundTsMs ?? -Infinity)), late]
      .sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
    for (const e of replay) acc.applyEvent(e, Date.parse(e.ts));
    const fresh = new RunAccumulator("r", "protocol");
    for (const e of [...Array.from({ length: 100 }, (_, i) => event(i)), late].sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts))) fresh.applyEvent(e, Date.parse(e.ts));
    expect(state(acc)).toEqual(state(fresh));
    expect(state(acc)).not.toEqual(state(live));
    // Stale checkpoints are gone; the ones kept were not touched by the replay.
    expect(checkpoints.restoreBefore(T0 + 85_500)?.acc.eventCount).toBe(restoredCount);
    expect(checkpoints.restoreBefore(start?.boundTsMs ?? T0)?.acc.eventCount).toBeLessThan(restoredCount);
  });

  it("keeps the newest checkpoint and spaces older ones further apart", () => {
    const checkpoints = new RunCheckpoints(10, 5);
    feed(400, checkpoints);
    const counts: number[] = [];
    for (let cut = T0 + 400_000; ; ) {
      const start = checkpoints.restoreBefore(cut);
      if (start === null) break;
      counts.unshift(start.acc.eventCount);
      cut = start.boundTsMs;
    }
    expect(counts).toHaveLength(5);
    expect(counts[counts.length - 1]).toBeGreaterThanOrEqual(390);
    const gaps = counts.slice(1).map((c, i) => c - counts[i]);
    expect(gaps[0]).toBeGreaterThan(gaps[gaps.length - 1]);
  });

  it("takes none of a state that holds report facts", () => {
    const checkpoints = new RunCheckpoints(1, 4);
    const acc = new RunAccumulator("r", "protocol");
    acc.applyFacts({ steps: 3 });
    for (let i = 0; i < 5; i++) {
      checkpoints.beforeEvent(acc, T0 + i * 1000);
      acc.applyEvent(event(i), T0 + i * 1000);
    }
    expect(checkpoints.size).toBe(0);
  });
});
