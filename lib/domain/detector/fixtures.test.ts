import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../protocol/types";
import { buildDetectReport, formatDetectTable, RunDetector } from "./index";

const FIXTURES = join(__dirname, "../../../fixtures");
const NORMATIVE = [
  "haltReason",
  "signal",
  "node",
  "edge",
  "cycleId",
  "taskId",
  "loopType",
  "recommendation",
  "count",
  "limit",
  "atEventId",
] as const;

function readProtocolRuns(): { runId: string; format: "protocol"; events: LoopEvent[] }[] {
  const dir = join(FIXTURES, "protocol");
  const byRun = new Map<string, LoopEvent[]>();
  for (const name of readdirSync(dir).sort()) {
    const text = readFileSync(join(dir, name), "utf8");
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      const event = JSON.parse(line) as LoopEvent;
      const events = byRun.get(event.runId) ?? [];
      events.push(event);
      byRun.set(event.runId, events);
    }
  }
  return [...byRun].map(([runId, events]) => ({ runId, format: "protocol", events }));
}

describe("protocol fixtures", () => {
  const expected = JSON.parse(readFileSync(join(FIXTURES, "protocol-expected.json"), "utf8")) as {
    runs: { runId: string; format: string; terminalStatus: string | null; findings: Record<string, unknown>[] }[];
  };
  const report = buildDetectReport({ runs: readProtocolRuns(), errors: [] });

  it("match the normative fields of protocol-expected.json", () => {
    const pick = (run: (typeof expected.runs)[number]) => ({
      runId: run.runId,
      format: run.format,
      terminalStatus: run.terminalStatus,
      findings: run.findings.map((f) => Object.fromEntries(NORMATIVE.map((k) => [k, f[k]]))),
    });
    expect(report.runs.map((run) => pick(run as never))).toEqual(expected.runs.map(pick));
    expect(report.errors).toEqual([]);
  });

  it("have the same keys as the reference output, evidence included, and `at`", () => {
    const keys = (f: object) => Object.keys(f);
    for (const [i, run] of report.runs.entries()) {
      expect(Object.keys(run)).toEqual(Object.keys(expected.runs[i]));
      run.findings.forEach((finding, j) => {
        // Issue 9 adds `at` (where the finding fired) after the spec's keys.
        expect(keys(finding)).toEqual([...keys(expected.runs[i].findings[j]), "at"]);
        const reference = expected.runs[i].findings[j].evidence as object;
        expect(keys(finding.evidence).slice(0, keys(reference).length)).toEqual(keys(reference));
      });
    }
  });

  it("reproduce the reference evidence of the repeated failure (diff hashes, failure signatures)", () => {
    const run = report.runs.find((r) => r.runId === "run_01JS4V6X8Z0B2D4F6H8K0M2P4R");
    const reference = expected.runs.find((r) => r.runId === "run_01JS4V6X8Z0B2D4F6H8K0M2P4R");
    expect(run?.findings[0].evidence).toMatchObject(reference?.findings[0].evidence as object);
    expect(run?.findings[0].suggestedActions).toEqual(reference?.findings[0].suggestedActions);
  });

  it("streaming gives the reference findings at the right events, with the UI's cycle state", () => {
    const loop = readProtocolRuns().find((r) => r.runId.startsWith("7d41c9e2"));
    const detector = new RunDetector();
    const madeAt: string[] = [];
    for (const event of loop?.events ?? []) {
      for (const finding of detector.feed(event)) madeAt.push(`${event.id}:${finding.signal}`);
    }
    expect(madeAt).toEqual(["01KZ6JFHXVYX0N0GQFG3H5MSYT:edge_without_progress"]);
    expect(detector.cycles()).toEqual([
      {
        cycleId: "c_b73e5c587644",
        nodes: ["coder", "planner", "researcher", "verifier"],
        edges: [
          "coder->verifier",
          "planner->coder",
          "planner->researcher",
          "planner->verifier",
          "researcher->planner",
          "verifier->planner",
        ],
        driver: "planner",
        iterations: 7,
        limit: 8,
        halted: true,
      },
    ]);
    const planner = detector.nodes().find((n) => n.id === "planner");
    expect(planner).toMatchObject({ role: "planner", label: "Planner", turns: 7 });
    expect(detector.config.maxTurnsPerNode).toBe(10);
  });

  it("prints a readable table", () => {
    const table = formatDetectTable({
      ...report,
      errors: [{ source: "runs/bad.jsonl", line: 12, message: "not JSON" }],
    });
    expect(table).toContain("7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63  protocol  -");
    expect(table).toMatch(/01KZ6JFHXVYX0N0GQFG3H5MSYT\s+stalled\s+edge_without_progress\s+planner->researcher\s+6\/5/);
    expect(table).toMatch(/c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c\s+protocol\s+done_success\s+0/);
    expect(table).toContain("runs/bad.jsonl:12  not JSON");
  });

  it("says in the table where each finding fired: file and line, and the record inside a JSON document", () => {
    const run = report.runs.find((r) => r.findings.length > 0)!;
    const [first] = run.findings;
    const table = (at: (typeof first)["at"]) => formatDetectTable({ runs: [{ ...run, findings: [{ ...first, at }] }], errors: [] });
    expect(table({ source: "runs/a.jsonl", line: 42, record: null })).toMatch(new RegExp(`${first.atEventId}\\s.*\\s+at runs/a\\.jsonl:42$`, "m"));
    expect(table({ source: "t/x.traj.json", line: null, record: "messages[105]" })).toMatch(/\s+at t\/x\.traj\.json messages\[105\]$/m);
    expect(table(null)).not.toContain(" at ");
  });
});
