import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ParsedEvent, ParseItem } from "./types";
import { createWorkflowEventsMapper, STALL_HOLD_LINES } from "./workflow-events";

const TEXT = readFileSync(
  new URL("../../../fixtures/vuhlp/runs/0c9a7e5d-3b1f-4d2c-a8e6-4f2b0d8c6a4e/events.jsonl", import.meta.url),
  "utf8",
);
const PLANNER = "73762fca-454c-4798-b0f1-edde9ee75f56";
const IMPLEMENTER = "e7b907d9-370f-4473-9ac8-c59d892804b6";
const REVIEWER = "e7670ad1-07c9-4660-8768-fcbfaa6163f6";

function mapLines(lines: string[]): ParseItem[] {
  const mapper = createWorkflowEventsMapper("events.jsonl");
  const items: ParseItem[] = [];
  lines.forEach((line, i) => {
    if (line.trim() !== "") items.push(...mapper.map(line, i + 1));
  });
  return [...items, ...mapper.end()];
}
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");
const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.event.type === type);

describe("createWorkflowEventsMapper on the fixture", () => {
  const items = mapLines(TEXT.split("\n"));

  it("maps every line without errors and keeps the file's ids", () => {
    expect(items.filter((i) => i.kind === "error")).toEqual([]);
    const first = JSON.parse(TEXT.split("\n")[0]) as { id: string };
    expect(eventsOf(items)[0]).toMatchObject({ line: 1, sourceType: "run.patch", format: "workflow-events", event: { id: first.id } });
  });

  it("declares node labels and roles once, from node.patch", () => {
    const nodes = ofType(items, "graph.declared").flatMap((e) => (e.event.graph as { nodes?: unknown[] }).nodes ?? []);
    expect(nodes).toEqual([
      { id: PLANNER, label: "Planner", role: "planner" },
      { id: IMPLEMENTER, label: "Implementer", role: "implementer" },
      { id: REVIEWER, label: "Reviewer", role: "reviewer" },
    ]);
  });

  it("declares created edges both ways", () => {
    const edges = ofType(items, "graph.declared").flatMap((e) => (e.event.graph as { edges?: unknown[] }).edges ?? []);
    expect(edges).toEqual([
      { from: PLANNER, to: IMPLEMENTER },
      { from: IMPLEMENTER, to: PLANNER },
      { from: IMPLEMENTER, to: REVIEWER },
      { from: REVIEWER, to: IMPLEMENTER },
    ]);
  });

  it("turns the 7 handoffs into edge.traversed", () => {
    const hops = ofType(items, "edge.traversed");
    expect(hops).toHaveLength(7);
    expect(hops.map((h) => [h.event.from, h.event.to])).toEqual([
      [PLANNER, IMPLEMENTER],
      [IMPLEMENTER, REVIEWER],
      [REVIEWER, IMPLEMENTER],
      [IMPLEMENTER, REVIEWER],
      [REVIEWER, IMPLEMENTER],
      [IMPLEMENTER, REVIEWER],
      [REVIEWER, IMPLEMENTER],
    ]);
    expect(hops[0].event.reason).toBe("Implement formatRelative and use it in ActivityItem.");
    expect(hops.every((h) => h.sourceType === "handoff.sent")).toBe(true);
  });

  it("turns final messages into node.completed with the turn's tokens and duration", () => {
    const done = ofType(items, "node.completed");
    expect(done.map((d) => d.event.node)).toEqual([PLANNER, IMPLEMENTER, REVIEWER, IMPLEMENTER, REVIEWER, IMPLEMENTER, REVIEWER, IMPLEMENTER]);
    expect(done[0].event).toMatchObject({
      tokens: 7099,
      durationMs: 18_490,
      output: { final: "Plan: use Intl.RelativeTimeFormat in a formatRelative helper; update ActivityItem." },
    });
    expect(done[7].event).toMatchObject({ tokens: 8354, durationMs: 18_510 });
  });

  it("keeps telemetry with top-level tokens and maps diff artifacts without patch or hash", () => {
    expect(ofType(items, "telemetry.usage")[0].event).toMatchObject({ node: PLANNER, tokens: 7099 });
    const diffs = ofType(items, "artifact.diff");
    expect(diffs).toHaveLength(4);
    expect(diffs[0].event).toMatchObject({ node: IMPLEMENTER, files: ["web/src/lib/time.ts", "web/src/feed/ActivityItem.tsx"] });
    expect(diffs[0].event).not.toHaveProperty("patch");
    expect(diffs[0].event).not.toHaveProperty("diffHash");
    expect(ofType(items, "artifact.created").length).toBeGreaterThan(0);
  });

  it("maps run.patch statuses to run.status, ending with paused", () => {
    const statuses = ofType(items, "run.status");
    expect(statuses.map((s) => [s.event.status, s.event.mode])).toEqual([
      ["running", "AUTO"],
      ["paused", undefined],
    ]);
    expect(eventsOf(items).some((e) => e.event.type === "run.completed")).toBe(false);
  });

  it("turns run.stalled into a runtime loop.halted on the implementer, named by the next blocked node.patch", () => {
    const halted = ofType(items, "loop.halted");
    expect(halted).toHaveLength(1);
    expect(halted[0]).toMatchObject({
      line: 158,
      sourceType: "run.stalled",
      event: {
        id: "35c70475-11d1-4054-a098-24758df74716",
        node: IMPLEMENTER,
        haltReason: "stalled",
        source: "runtime",
        evidence: { outputHash: "cbc42b568b5f2de34cf8049a5faeb264e45e64f3709c4a8081d68035711426f9" },
      },
    });
    // Held until line 159 names the node, then yielded before that line's own events.
    const index = items.indexOf(halted[0]);
    expect((items[index + 1] as ParsedEvent).line).toBe(159);
  });

  it("keeps everything else with its own type and node = nodeId", () => {
    const progress = ofType(items, "node.progress")[0];
    expect(progress.event).toMatchObject({ node: PLANNER, nodeId: PLANNER });
    expect(ofType(items, "message.assistant.delta").length).toBeGreaterThan(0);
  });

  it("produces identical items on a second read", () => {
    expect(mapLines(TEXT.split("\n"))).toEqual(items);
  });
});

describe("createWorkflowEventsMapper on edge cases", () => {
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({ id: `e${String(fields.n)}`, runId: "r", ts: "2026-01-01T00:00:00Z", ...fields });

  it("keeps an interrupted final message as it is", () => {
    const items = mapLines([line({ n: 1, type: "message.assistant.final", nodeId: "a", content: "x", status: "interrupted" })]);
    expect(eventsOf(items)[0].event).toMatchObject({ type: "message.assistant.final", node: "a" });
  });

  it("declares a one-way edge once", () => {
    const items = mapLines([line({ n: 1, type: "edge.created", edge: { from: "a", to: "b", bidirectional: false } })]);
    expect(eventsOf(items)[0].event.graph).toEqual({ edges: [{ from: "a", to: "b" }] });
  });

  it("declares a node again when its label changes", () => {
    const items = mapLines([
      line({ n: 1, type: "node.patch", nodeId: "a", patch: { label: "A", roleTemplate: "planner" } }),
      line({ n: 2, type: "node.patch", nodeId: "a", patch: { label: "A", status: "running" } }),
      line({ n: 3, type: "node.patch", nodeId: "a", patch: { label: "A2" } }),
    ]);
    expect(ofType(items, "graph.declared").map((e) => e.event.graph)).toEqual([
      { nodes: [{ id: "a", label: "A", role: "planner" }] },
      { nodes: [{ id: "a", label: "A2", role: "planner" }] },
    ]);
    expect(ofType(items, "graph.declared")[0].event.id).toBe("e1:graph");
  });

  it("releases a held stall without a node at the end, on another run, or after the hold limit", () => {
    const stall = line({ n: 1, type: "run.stalled", evidence: {} });
    const atEnd = ofType(mapLines([stall]), "loop.halted");
    expect(atEnd).toHaveLength(1);
    expect(atEnd[0].event).not.toHaveProperty("node");

    const other = JSON.stringify({ id: "x", runId: "other", ts: "2026-01-01T00:00:00Z", type: "run.mode" });
    const onOtherRun = mapLines([stall, other]);
    expect(eventsOf(onOtherRun).map((e) => e.event.type)).toEqual(["loop.halted", "run.mode"]);

    const filler = Array.from({ length: STALL_HOLD_LINES + 1 }, (_, i) => line({ n: i + 2, type: "node.progress", nodeId: "a" }));
    const afterLimit = mapLines([stall, ...filler, line({ n: 99, type: "node.patch", nodeId: "a", patch: { status: "blocked" } })]);
    const halted = ofType(afterLimit, "loop.halted");
    expect(halted).toHaveLength(1);
    expect(halted[0].event).not.toHaveProperty("node");
  });

  it("reports lines without the envelope it needs", () => {
    const items = mapLines(['{"id":"a","runId":"r","type":"x"}', "[]"]);
    expect(items).toEqual([
      { kind: "error", line: 1, message: 'missing required field "ts"' },
      { kind: "error", line: 2, message: "line must be a JSON object (got array)" },
    ]);
  });
});
