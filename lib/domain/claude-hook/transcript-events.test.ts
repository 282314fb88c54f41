import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSource } from "../formats/parse-source";
import type { LoopEvent } from "../protocol/types";
import { mapTranscriptEvents } from "./transcript-events";

// The real transcript of `shared/real-traces/claude-code` (read here only, never copied).
const FILE = fileURLToPath(new URL("../../../../shared/real-traces/claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl", import.meta.url));
const TEXT = readFileSync(FILE, "utf8");
const LINES = TEXT.split("\n").filter((l) => l !== "");
const full = mapTranscriptEvents(TEXT, { final: true }).events;
const byId = new Map(full.map((e) => [e.id, e]));
const prefix = (n: number) => `${LINES.slice(0, n).join("\n")}\n`;

async function ingestIds(text: string): Promise<string[]> {
  const ids: string[] = [];
  async function* chunks() {
    yield text;
  }
  for await (const item of parseSource(chunks(), { sourceKey: "session.jsonl", format: "claude-code" })) if (item.kind === "event") ids.push(item.event.id);
  return ids;
}

describe("the events of a growing Claude Code transcript", () => {
  it("are, read whole at Stop, exactly the events ingesting the file gives", async () => {
    expect(full.map((e) => e.id).sort()).toEqual((await ingestIds(TEXT)).sort());
    const count = (type: string) => full.filter((e) => e.type === type).length;
    expect(count("tool.called")).toBe(161);
    expect(count("verify.result")).toBe(17);
    expect(full[0]).toMatchObject({ type: "run.started", id: "ae4a77f8-aedd-4bc1-888f-c94edc91af04:run.started" });
  });

  it("never send an early copy of an event that a longer read changes (the server keeps the first copy of an id)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: LINES.length }), (n) => {
        for (const event of mapTranscriptEvents(prefix(n), { final: false }).events) {
          expect(event).toEqual(byId.get(event.id));
        }
      }),
      { numRuns: 25 },
    );
  });

  it("hold a tool call back until its result is written, and give it the same id then", () => {
    // Line 1414 is the tool_use of the fourth failing commit; its result is line 1419.
    const toolUseId = "07387ffe-8c0f-4478-9dc4-4786e73254db:0";
    const ids = (n: number) => new Set(mapTranscriptEvents(prefix(n), { final: false }).events.map((e: LoopEvent) => e.id));
    expect(ids(1418).has(toolUseId)).toBe(false);
    expect(ids(1419).has(toolUseId)).toBe(true);
    expect(ids(1419).has(`${toolUseId}:verify`)).toBe(true);
    expect(byId.get(`${toolUseId}:verify`)).toMatchObject({ type: "verify.result", passed: false });
  });

  it("leave a last line without its newline for the next read", () => {
    const cut = `${LINES.slice(0, 1418).join("\n")}\n${LINES[1418]}`;
    const ids = new Set(mapTranscriptEvents(cut, { final: false }).events.map((e) => e.id));
    expect(ids.has("07387ffe-8c0f-4478-9dc4-4786e73254db:0")).toBe(false);
  });

  it("count bad lines and map the good ones around them", () => {
    const text = `${LINES.slice(0, 40).join("\n")}\nnot json\n{"type":"user"}\n${LINES.slice(40, 80).join("\n")}\n`;
    const read = mapTranscriptEvents(text, { final: true });
    expect(read.errors).toBe(2);
    expect(read.events.map((e) => e.id)).toEqual(mapTranscriptEvents(`${LINES.slice(0, 80).join("\n")}\n`, { final: true }).events.map((e) => e.id));
  });
});
