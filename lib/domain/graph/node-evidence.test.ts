import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectRun } from "../detector";
import type { LoopEvent } from "../protocol/types";
import { extractNodeEvidence, type EvidenceEvent } from "./node-evidence";

const FIXTURES = join(__dirname, "../../../fixtures/protocol");
const read = (name: string) => readFileSync(join(FIXTURES, name), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as LoopEvent);

function windowOf(events: LoopEvent[], node: string): EvidenceEvent[] {
  return events.filter((e) => e.node === node).map((e, i) => ({ eventId: e.id, tsMs: i, type: e.type, fields: e as Record<string, unknown> }));
}

function firedAt(events: LoopEvent[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const f of detectRun(events)) map.set(f.atEventId, [...(map.get(f.atEventId) ?? []), f.signal]);
  return map;
}

describe("extractNodeEvidence", () => {
  it("shows the verifier's three identical failures, the failing test from stderr, and where the detector fired", () => {
    const events = read("verifier-repeated-failure.jsonl");
    const evidence = extractNodeEvidence(windowOf(events, "verifier"), firedAt(events));
    const signatures = evidence.failureSignatures.map((s) => s.hash);
    expect(signatures).toEqual(Array(3).fill("6b26da80dffb59e731cb5510d7a1b642167d895ee9ccf227baf5bf18fa91e237"));
    expect(evidence.verify.map((v) => [v.failingCount, v.failingSource, v.fired])).toEqual([
      [1, "stderr", []],
      [1, "stderr", []],
      [1, "stderr", ["repeated_failure"]],
    ]);
    expect(evidence.verify[0].failing).toEqual(["test/invoice.test.ts > due date > is 30 days after issue in Europe/Vienna"]);
    expect(evidence.verify[0].command).toBe("npx vitest run test/invoice.test.ts");
    expect(evidence.turns).toHaveLength(3);
  });

  it("counts failing tests as the runner counts them when the output names fewer (a summary whose ids were cut off)", () => {
    const verify = (id: string, fields: Record<string, unknown>): EvidenceEvent => ({ eventId: id, tsMs: 0, type: "verify.result", fields: { node: "main", command: "pytest", passed: false, ...fields } });
    const evidence = extractNodeEvidence([
      verify("a", { failingCount: 11, stderr: "====== 11 failed, 286 passed in 9.1s ======" }),
      verify("b", { failing: ["t::one", "t::two"], failingCount: 7 }),
      verify("c", { failing: ["t::one", "t::two"] }),
      verify("d", { stderr: "boom" }),
    ], new Map());
    expect(evidence.verify.map((v) => v.failingCount)).toEqual([11, 7, 2, null]);
  });

  it("hashes the coder's diffs as the detector does", () => {
    const events = read("verifier-repeated-failure.jsonl");
    const evidence = extractNodeEvidence(windowOf(events, "coder"), new Map());
    const expected = ["9f17453b833d151ff8cf6df763959fce0c6ec128845dec69f5f4929c0e6496d6", "cfd24b1aca1941e017662caaedc6b2e0e18059316d59cda1fa251108bc756a57", "8fa4432d1563836d21f94ec0b00b0ce3eb869dd9d6d51e7714b2befc2ace1894"];
    expect(evidence.diffHashes.map((d) => d.hash)).toEqual(expected);
    expect(evidence.outputHashes).toHaveLength(3);
  });

  it("marks research that came back the same as no new information", () => {
    const events = read("planner-researcher-loop.jsonl");
    const research = extractNodeEvidence(windowOf(events, "researcher"), new Map()).research;
    expect(research.length).toBeGreaterThan(2);
    expect(research[0].noNewInformation).toBe(false);
    expect(research.slice(1).every((r) => r.noNewInformation)).toBe(true);
  });

  it("counts repeated tool calls by tool, canonical args and result", () => {
    const call = (id: string, args: unknown, outputHash?: string): EvidenceEvent => ({ eventId: id, tsMs: 0, type: "tool.called", fields: { tool: "grep", args, outputHash } });
    const evidence = extractNodeEvidence(
      [call("1", { q: "x", p: 1 }), call("2", { p: 1, q: "x" }), call("3", { p: 1, q: "x" }), call("4", { p: 2 }), call("5", { p: 1, q: "x" }), call("6", { p: 1, q: "x" }, "h")],
      new Map(),
    );
    expect(evidence.toolCalls).toBe(6);
    expect(evidence.toolRepeats).toEqual([{ tool: "grep", args: '{"p":1,"q":"x"}', outputHash: null, count: 4, longestStreak: 3, lastEventId: "5" }]);
  });
});
