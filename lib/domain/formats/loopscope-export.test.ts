import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { detectFormat } from "./detect-format";
import { parseRunExport, writeRunExportDocument, type RunExportDocument } from "./loopscope-export";
import { parseSource } from "./parse-source";
import type { ParseItem } from "./types";

function sampleDocument(): RunExportDocument {
  const protocol = { v: 1, id: "e1", runId: "r1", ts: "2026-08-01T10:00:00.000Z", type: "run.started", title: "Fix </script><script>alert(1)</script>" };
  return {
    loopscope: "run-export",
    version: 1,
    exportedAt: "2026-08-02T00:00:00.000Z",
    run: {
      id: "r1",
      format: "sdd-events",
      facts: { document: "report", title: "Fix it", steps: 3, budgets: [{ name: "Commands", used: 12, max: 12 }], extra: { Mode: "fast" } },
      report: "# Run Report: r1\n\nDone.",
      retrospective: "## Run 2026-08-01 (ID: r1)\n\nOutcome: ok",
      summary: { status: "done" },
    },
    detector: { maxCycleIterations: 8 },
    events: [
      { id: "e1", ts: protocol.ts, tsMs: Date.parse(protocol.ts), type: "run.started", sourceType: "run.started", node: null, line: 1, record: null, raw: JSON.stringify(protocol), mapped: null },
      {
        id: "e2", ts: "2026-08-01T10:00:01.000Z", tsMs: Date.parse("2026-08-01T10:00:01.000Z"), type: "node.completed", sourceType: "node.finished", node: "coder",
        line: 7, record: "history[3]", raw: '{"type":"node.finished","payload":{}}',
        mapped: { v: 1, id: "e2", runId: "r1", ts: "2026-08-01T10:00:01.000Z", type: "node.completed", node: "coder" },
      },
    ],
    decisions: [{ id: "d1", haltKey: "detector:x", action: "resume", directive: "go on", budgetDelta: { maxCycleIterations: 2 }, provider: null, by: "ada", eventId: "decision:d1", createdAt: 1, deliveredAt: 2, ackedAt: null }],
    findings: [{ signal: "x" }],
    nodes: [],
    edges: [],
  };
}

const kinds = (items: ParseItem[]) => items.map((i) => i.kind);
const errors = (items: ParseItem[]) => items.flatMap((i) => (i.kind === "error" ? [i.message] : []));

async function parseText(text: string): Promise<ParseItem[]> {
  const out: ParseItem[] = [];
  async function* chunks() {
    yield text;
  }
  for await (const item of parseSource(chunks(), { sourceKey: "run.json" })) out.push(item);
  return out;
}

describe("the run export format", () => {
  it("is written one record a line and reads back as the same document, known by its first bytes", async () => {
    const doc = sampleDocument();
    const text = [...writeRunExportDocument(doc)].join("");
    expect(JSON.parse(text)).toEqual(doc);
    expect(text.split("\n").length).toBeGreaterThan(6);
    expect(detectFormat(text)).toBe("loopscope-export");
    // Reformatted by a person, it is still recognised by its shape.
    expect(kinds(await parseText(JSON.stringify(doc, null, 2)))).toEqual(kinds(await parseText(text)));
  });

  it("yields the run first, then its events as stored, then its facts and documents", async () => {
    const items = await parseText([...writeRunExportDocument(sampleDocument())].join(""));
    expect(kinds(items)).toEqual(["imported-run", "event", "event", "run", "run"]);
    const [run, first, second, facts, retro] = items;
    expect(run).toMatchObject({ kind: "imported-run", runId: "r1", format: "sdd-events", decisions: [{ id: "d1", budgetDelta: { maxCycleIterations: 2 }, ackedAt: null }] });
    // A protocol line is stored as it is; a mapped event with its mapped form.
    expect(first).toMatchObject({ format: "protocol", line: 1, sourceType: "run.started", raw: sampleDocument().events[0].raw });
    expect(second).toMatchObject({ format: "loopscope-export", line: 7, record: "history[3]", sourceType: "node.finished", event: { node: "coder" } });
    expect(facts).toMatchObject({ kind: "run", facts: { document: "report", steps: 3, markdown: "# Run Report: r1\n\nDone." } });
    expect(retro).toMatchObject({ kind: "run", facts: { document: "retrospective", markdown: expect.stringContaining("Outcome") } });
  });

  it("names the field of every bad record and keeps every good one", () => {
    const doc = sampleDocument() as unknown as Record<string, unknown> & { run: Record<string, unknown>; events: unknown[]; decisions: unknown[] };
    doc.events.push(
      { id: "e3", ts: "x", tsMs: 1, type: "t", sourceType: "t", node: null, line: null, record: null, raw: "{oops", mapped: null },
      { id: "e4", ts: "2026-08-01T10:00:02Z", tsMs: 1, type: "t", sourceType: "t", node: null, line: null, record: null, raw: '{"v":1,"id":"e4","runId":"other","ts":"2026-08-01T10:00:02Z","type":"t"}', mapped: null },
      { raw: 5 },
      "junk",
    );
    doc.decisions.push({ ...(doc.decisions[0] as object), id: "d2", createdAt: "yesterday" });
    (doc.run.facts as Record<string, unknown>).steps = "three";
    const items = parseRunExport(doc);
    expect(errors(items)).toEqual([
      "decisions[1].createdAt must be a number (epoch ms)",
      expect.stringMatching(/^events\[2\]\.raw: not JSON/),
      'events[3]: runId "other" is not the exported run\'s ("r1")',
      "events[4].raw must be a string (got number)",
      "events[5] must be an object (got string)",
      "run.facts.steps must be a number (got string)",
    ]);
    expect(items.filter((i) => i.kind === "event")).toHaveLength(2);
    expect(items[0]).toMatchObject({ kind: "imported-run", decisions: [{ id: "d1" }] });
    expect(items.find((i) => i.kind === "run")).toMatchObject({ facts: { title: "Fix it" } });
  });

  it("reads nothing from a document without a readable run, and says why", () => {
    expect(errors(parseRunExport({ loopscope: "run-export", version: 2 }))).toEqual([expect.stringContaining('"version" 2 is not an export version')]);
    expect(errors(parseRunExport({ loopscope: "run-export", version: 1, run: { id: "r", format: "loopscope-export" } }))).toEqual([
      'run.format "loopscope-export" is not a format Loopscope stores runs under',
    ]);
    expect(parseRunExport({ loopscope: "run-export", version: 1, run: { id: "" } })).toHaveLength(1);
  });

  it("reads damaged bytes without throwing: cut short, spliced with junk, a record dropped", async () => {
    const text = [...writeRunExportDocument(sampleDocument())].join("");
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: text.length }), fc.nat({ max: text.length }), fc.string({ maxLength: 40 }), async (cut, at, junk) => {
        for (const damaged of [text.slice(0, cut), text.slice(0, at) + junk + text.slice(at), text.replace(/\n\{"id":"e2"[^\n]*/, "")]) {
          const items = await parseText(damaged);
          for (const item of items) expect(["imported-run", "event", "run", "error"]).toContain(item.kind);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("never throws on junk in any place of a document", () => {
    const base = sampleDocument();
    fc.assert(
      fc.property(fc.constantFrom("run", "events", "decisions", "facts", "event", "decision"), fc.jsonValue(), (where, junk) => {
        const doc = structuredClone(base) as unknown as { run: Record<string, unknown>; events: unknown[]; decisions: unknown[] };
        if (where === "run" || where === "events" || where === "decisions") (doc as Record<string, unknown>)[where] = junk;
        else if (where === "facts") doc.run.facts = junk;
        else if (where === "event") doc.events[0] = junk;
        else doc.decisions[0] = junk;
        const items = parseRunExport(doc);
        expect(Array.isArray(items)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
