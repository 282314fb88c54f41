import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { summarizeEvent } from "./event-summary";

const loop = readFileSync(resolve(__dirname, "../../fixtures/protocol/planner-researcher-loop.jsonl"), "utf8")
  .trim().split("\n").map((l) => JSON.parse(l) as { type: string });

describe("summarizeEvent", () => {
  it("says what each protocol event of a real run did", () => {
    const first = (type: string) => summarizeEvent(type, loop.find((e) => e.type === type));
    expect(first("run.started")).toBe("Pick a PDF rendering library · ticket 33-pdf-invoices · profile fast · graph: 5 nodes, 7 edges");
    expect(first("node.completed")).toBe("turn 1 · 11 s · 8.8k tokens · $0.0273 · next: researcher — Compare PDF libraries once more (round 1)");
    expect(first("edge.traversed")).toBe("planner → researcher");
    expect(first("research.result")).toMatch(/^“.+” · \d+ results/);
  });

  it("covers verification, tools, halts and completion", () => {
    expect(summarizeEvent("verify.result", { command: "npm test", passed: false, exitCode: 1, failing: ["a", "b", "c", "d"] }))
      .toBe("✗ failed · `npm test` · exit 1 · failing: a, b, c");
    expect(summarizeEvent("tool.called", { tool: "bash", ok: true, args: { cmd: "ls" } })).toBe('bash · ok · {"cmd":"ls"}');
    expect(summarizeEvent("loop.halted", { haltReason: "budget_exceeded", cycleId: "c1" })).toBe("halted: budget exceeded · cycle c1");
    expect(summarizeEvent("run.completed", { terminalStatus: "done_success", stopReason: "Tests\ngreen" })).toBe("done success · Tests green");
  });

  it("shows the first plain fields of a type it does not know", () => {
    expect(summarizeEvent("telemetry.usage", { v: 1, id: "x", type: "telemetry.usage", tokens: 12, model: "m", nested: { a: 1 }, ok: true, more: 1 }))
      .toBe("tokens: 12 · model: m · ok: true");
  });

  it("never throws and stays one short line, whatever the event holds", () => {
    for (const type of ["__proto__", "constructor", "toString"]) expect(summarizeEvent(type, { reason: "retry" })).toBe("reason: retry");
    fc.assert(fc.property(fc.string(), fc.anything(), (type, event) => {
      const s = summarizeEvent(type, event);
      return typeof s === "string" && s.length <= 240 && !s.includes("\n");
    }));
    for (const type of ["node.completed", "verify.result", "artifact.diff", "task.attempt", "run.started"]) {
      fc.assert(fc.property(fc.dictionary(fc.constantFrom("turn", "output", "files", "failing", "graph", "blockers", "title"), fc.anything()), (e) => {
        const s = summarizeEvent(type, e);
        return s.length <= 240 && !s.includes("\n");
      }));
    }
  });
});
