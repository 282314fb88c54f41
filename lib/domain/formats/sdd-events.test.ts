import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ParsedEvent, ParseItem } from "./types";
import { createSddEventsMapper } from "./sdd-events";

const TEXT = readFileSync(
  new URL("../../../fixtures/kotef-events/0b6f3c1e-92a4-4d8e-b5c7-e1f2a3b4c5d6.jsonl", import.meta.url),
  "utf8",
);
const THREAD = "0b6f3c1e-92a4-4d8e-b5c7-e1f2a3b4c5d6";
const FIRST_RUN = "f0e1d2c3-b4a5-4697-8879-6a5b4c3d2e1f";
const SECOND_RUN = "29e8d7c6-b5a4-4c3d-9e2f-1a0b9c8d7e6f";

function mapText(text: string, sourceKey = "events.jsonl"): ParseItem[] {
  const mapper = createSddEventsMapper(sourceKey);
  const items: ParseItem[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() !== "") items.push(...mapper.map(line, i + 1));
  });
  return [...items, ...mapper.end()];
}
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");

describe("createSddEventsMapper on the fixture", () => {
  const items = mapText(TEXT);
  const events = eventsOf(items);

  it("maps every line, into two runs (plus the paused run's continuation)", () => {
    expect(items).toHaveLength(28);
    expect(events).toHaveLength(28);
    expect(events.filter((e) => e.event.runId === FIRST_RUN)).toHaveLength(12);
    expect(events.filter((e) => e.event.runId === SECOND_RUN)).toHaveLength(16);
  });

  it("ids events by thread and line, keeps the line and the original type", () => {
    expect(events[0]).toMatchObject({
      line: 1,
      raw: TEXT.split("\n")[0],
      sourceType: "run.started",
      format: "sdd-events",
      event: { v: 1, id: `${THREAD}:1`, ts: "2026-08-12T15:30:00.000Z", type: "run.started", threadId: THREAD },
    });
    const lineEvents = events.filter((e) => !e.event.id.endsWith(":continued"));
    expect(lineEvents.map((e) => e.event.id)).toEqual(lineEvents.map((_, i) => `${THREAD}:${i + 1}`));
    expect(events[0].event).not.toHaveProperty("timestamp");
  });

  it("maps the run start, llm tokens and tool nodes", () => {
    expect(events[0].event).toMatchObject({ title: "Make search ignore diacritics", ticketId: "15-search-diacritics" });
    expect(events[2].event).toMatchObject({ type: "llm.completed", tokens: 5120, durationMs: 7000 });
    expect(events[5].event).toMatchObject({ type: "tool.started", node: "coder", tool: "read_file" });
    expect(events[6].event).toMatchObject({ type: "tool.completed", node: "coder", tool: "read_file", durationMs: 400 });
    const tokens = events.filter((e) => e.event.runId === SECOND_RUN).reduce((sum, e) => sum + (Number(e.event.tokens) || 0), 0);
    expect(tokens).toBe(13002 + 13913 + 14824);
  });

  it("maps the approval interrupt, the resume and the finish onto run.status", () => {
    const statuses = events.filter((e) => e.event.type === "run.status");
    expect(statuses.map((e) => [e.sourceType, e.event.runId, e.event.status])).toEqual([
      ["interrupt.raised", FIRST_RUN, "paused"],
      ["interrupt.resumed", FIRST_RUN, "completed"],
      ["interrupt.resumed", SECOND_RUN, "running"],
      ["run.finished", SECOND_RUN, "completed"],
    ]);
    expect(statuses[0].event).toMatchObject({
      reason: "approval",
      detail: { kind: "approval", command: "npm install diacritics@1.3.0" },
    });
    expect(statuses[1].event).toMatchObject({ id: `${THREAD}:13:continued`, reason: "continued", continuedIn: SECOND_RUN });
    expect(statuses[2].event).toMatchObject({ resumedBy: "dana", resumes: FIRST_RUN });
    // The resumed run carries on the thread's goal.
    expect(events.find((e) => e.event.runId === SECOND_RUN && e.event.type === "run.started")?.event).toMatchObject({ title: "Make search ignore diacritics", ticketId: "15-search-diacritics" });
    expect(events.some((e) => e.event.type === "run.completed")).toBe(false);
  });

  it("keeps checkpoint.saved as it is", () => {
    expect(events[10].event).toMatchObject({ type: "checkpoint.saved", payload: { next: ["approval_gate"] } });
  });

  it("produces identical items on a second read, whatever the source key", () => {
    expect(mapText(TEXT, "other-name.jsonl")).toEqual(items);
  });
});

describe("createSddEventsMapper on bad lines", () => {
  it("reports bad lines with their line and still maps the others", () => {
    const good = '{"type":"llm.started","runId":"r","threadId":"t","timestamp":"2026-01-01T00:00:00Z","payload":{}}';
    const text = [good, "not json", '{"type":"x","runId":"r","threadId":"t"}', '{"type":"x","runId":"r","timestamp":"soon"}', good].join("\n");
    const items = mapText(text);
    expect(items.map((i) => (i.kind === "error" ? `${i.line}: ${i.message}` : `${i.kind === "event" ? i.line : "run"}: ok`))).toEqual([
      "1: ok",
      expect.stringMatching(/^2: not JSON: /),
      '3: missing required field "timestamp"',
      '4: field "timestamp" must be an ISO-8601 timestamp (got "soon")',
      "5: ok",
    ]);
  });

  it("falls back to the source key when a line has no threadId", () => {
    const items = mapText('{"type":"eval.recorded","runId":"r","timestamp":"2026-01-01T00:00:00Z","payload":{"score":1}}', "t9.jsonl");
    expect(eventsOf(items)[0].event.id).toBe("t9.jsonl:1");
  });

  it("maps an interrupted run.finished to paused", () => {
    const items = mapText('{"type":"run.finished","runId":"r","threadId":"t","timestamp":"2026-01-01T00:00:00Z","payload":{"interrupted":true}}');
    expect(eventsOf(items)[0].event).toMatchObject({ type: "run.status", status: "paused" });
  });
});
