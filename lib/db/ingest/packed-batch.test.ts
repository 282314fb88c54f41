import { describe, expect, it } from "vitest";
import { deserialize, serialize } from "node:v8";
import type { ParseItem } from "@/lib/domain/formats/types";
import type { LoopEvent } from "@/lib/domain/protocol/types";
import { parseProtocolLines } from "@/lib/domain/formats";
import { dataAt, decodePosted, encodeForPost, eventAt, packItems, type PackedBatch } from "./packed-batch";

const LINES = [
  // As JSON.stringify writes it: sent as its raw text alone.
  `{"v":1,"id":"e1","runId":"r1","ts":"2026-08-01T00:00:00.000Z","type":"node.started","node":"planner","turn":1}`,
  // Another serialiser's spacing.
  `{"v": 1, "id": "e2", "runId": "r1", "ts": "2026-08-01T00:00:01Z", "type": "node.started", "node": "coder", "turn": 1}`,
  // Normalised by the validator: no "v", a null node.
  `{"id":"e3","runId":"r1","ts":"2026-08-01T00:00:02Z","type":"note","node":null,"text":"x"}`,
  // What JSON text cannot carry: a number beyond the double range, a negative zero.
  `{"v":1,"id":"e4","runId":"r2","ts":"2026-08-01T00:00:03Z","type":"note","big":1e999,"zero":-0}`,
  `{"v":1,"id":"e5","runId":"r2","ts":"2026-08-01T00:00:04Z","type":"note","zero":-0.0e2,"text":"2026-08-01 -08"}`,
  // Normalised with no null in sight: "v" added.
  `{"id":"e6","runId":"r2","ts":"2026-08-01T00:00:05Z","type":"note","text":"x"}`,
  // "v" last, as written.
  `{"id":"e7","runId":"r2","ts":"2026-08-01T00:00:06Z","type":"note","v":1}`,
  // Normalised, and beyond what JSON text carries: crosses as an object.
  `{"id":"e8","runId":"r2","ts":"2026-08-01T00:00:07Z","type":"note","big":-1e999}`,
  `{"id":"e9","runId":"r2","ts":"2026-08-01T00:00:08Z","type":"note","zero":-0}`,
];

function protocolItems(): ParseItem[] {
  const { events, errors } = parseProtocolLines(LINES.join("\n"));
  expect(errors).toEqual([]);
  return events;
}

/** Through a thread boundary: packed for posting, cloned as postMessage clones, unpacked. */
function postAndReceive(items: readonly ParseItem[]): PackedBatch {
  const { posted, transfer } = encodeForPost(packItems(items, true));
  expect(transfer.length).toBeGreaterThan(0);
  return decodePosted(deserialize(serialize(posted)));
}

describe("a packed batch", () => {
  it("gives back, across threads, exactly the events the validator made (as Object.is tells numbers)", () => {
    const items = protocolItems();
    const received = postAndReceive(items);
    expect(received.runId.length).toBe(items.length);
    items.forEach((item, i) => {
      const event = (item as { event: LoopEvent }).event;
      expect(eventAt(received, i)).toStrictEqual(event);
      expect(dataAt(received, i)).toBeNull();
      expect(received.raw[i]).toBe(LINES[i]);
    });
    const e4 = eventAt(received, 3) as unknown as { big: number; zero: number };
    expect(e4.big).toBe(Infinity);
    expect(Object.is(e4.zero, -0)).toBe(true);
    expect(Object.is((eventAt(received, 4) as unknown as { zero: number }).zero, -0)).toBe(true);
    // The validator's normalisation survives: "v" added, the null node dropped.
    expect(eventAt(received, 2)).toMatchObject({ v: 1 });
    expect("node" in eventAt(received, 2)).toBe(false);
    expect(eventAt(received, 5)).toMatchObject({ v: 1 });
    // Only what JSON text cannot carry crosses as an object.
    expect(received.events.map((e) => e !== null)).toEqual([false, false, false, false, false, false, false, true, true]);
    expect((eventAt(received, 7) as unknown as { big: number }).big).toBe(-Infinity);
    expect(Object.is((eventAt(received, 8) as unknown as { zero: number }).zero, -0)).toBe(true);
  });

  it("keeps the columns the writer stores and the other items in their place", () => {
    const events = protocolItems();
    const foreign: ParseItem = {
      kind: "event", format: "claude-code", line: 7, record: null, raw: `{"type":"assistant"}`, sourceType: "assistant", tsMs: 5,
      event: { v: 1, id: "c1", runId: "r3", ts: "2026-08-01T00:00:05Z", type: "node.completed", node: "claude" } as LoopEvent,
    };
    const items: ParseItem[] = [
      { kind: "error", line: 1, message: "not JSON" },
      events[0],
      { kind: "run", runId: "r1", format: "sdd-report", facts: { title: "T" } },
      events[1],
      foreign,
      { kind: "error", line: 9, message: "last" },
    ];
    for (const b of [packItems(items, false), postAndReceive(items)]) {
      expect(b.others.map((o) => [o.at, o.item.kind])).toEqual([[0, "error"], [1, "run"], [3, "error"]]);
      expect(b.runId).toEqual(["r1", "r1", "r3"]);
      expect(b.eventId).toEqual(["e1", "e2", "c1"]);
      expect(b.node).toEqual(["planner", "coder", "claude"]);
      expect(b.line).toEqual([1, 2, 7]);
      expect(b.format).toEqual(["protocol", "protocol", "claude-code"]);
      expect(b.sourceType).toEqual(["node.started", "node.started", "assistant"]);
      expect(b.tsMs).toEqual([Date.parse("2026-08-01T00:00:00.000Z"), Date.parse("2026-08-01T00:00:01Z"), 5]);
      // A foreign format's event is stored as its JSON, and applied as that JSON reads back (as every rebuild reads it).
      expect(dataAt(b, 2)).toBe(JSON.stringify(foreign.event));
      expect(eventAt(b, 2)).toStrictEqual(foreign.event);
    }
  });

  it("packs an event with no line (a document's) and reads its line back as none", () => {
    const item: ParseItem = {
      kind: "event", format: "sdd-report", line: null, raw: "## Summary", sourceType: "run.started",
      event: { v: 1, id: "d1", runId: "r4", ts: "2026-08-01T00:00:00Z", type: "run.started" } as LoopEvent,
    };
    const b = postAndReceive([item]);
    expect(b.line).toEqual([null]);
    expect(b.node).toEqual([null]);
    expect(b.record).toEqual([null]);
    expect(eventAt(b, 0)).toStrictEqual(item.event);
  });
});
