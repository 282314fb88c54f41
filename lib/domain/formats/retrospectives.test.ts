import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ParsedEvent, ParseItem, RunFacts } from "./types";
import { parseRetrospectives, splitPhases } from "./retrospectives";
import { parseSddReport } from "./sdd-report";

const RUNS = new URL("../../../fixtures/sdd/runs/", import.meta.url);
const LOG = readFileSync(new URL("retrospectives.md", RUNS), "utf8");
const STUCK_REPORT = readFileSync(new URL("2026-08-12T15-58-09-880Z_a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2.md", RUNS), "utf8");

const runsOf = (items: ParseItem[]) => items.filter((i): i is RunFacts => i.kind === "run");
const eventsOf = (items: ParseItem[], runId?: string) =>
  items.filter((i): i is ParsedEvent => i.kind === "event" && (runId === undefined || i.event.runId === runId));

describe("parseRetrospectives on the fixture", () => {
  const items = parseRetrospectives(LOG);

  it("reads one RunFacts per run section", () => {
    const runs = runsOf(items);
    expect(runs.map((r) => r.runId)).toEqual(["51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b", "a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2"]);
    expect(runs[1]).toMatchObject({
      format: "sdd-report",
      facts: {
        title: "Make search ignore diacritics",
        terminalStatus: "aborted_stuck",
        stopReason: "Planner detected loop planner→verifier without progress after 6 hops.",
        phases: ["implement", "verify", "retro"],
        durationMs: 1_689_900,
        endedAt: "2026-08-12T15:58:09.880Z",
        extra: {
          Budget: "9 cmds, 7 tests, 0 web",
          Metrics: "ChangeSize=1, FailMode=tests_failed",
          Notes: "Planner detected loop planner→verifier without progress after 6 hops.",
        },
      },
    });
    expect(runs[0].facts.phases).toEqual(["analyze_system_state", "implement", "verify", "retro"]);
    expect(runs[0].facts.markdown?.startsWith("## Run 2026-08-11T10:06:25.300Z (ID: 51a0c2d3")).toBe(true);
    expect(runs[0].facts.markdown).not.toContain("a7b6c5d4");
    expect(items.filter((i) => i.kind === "error")).toEqual([]);
  });

  it("maps the phase path onto nodes, in order, at the run's start", () => {
    const runId = "51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b";
    const events = eventsOf(items, runId);
    expect(events.map((e) => [e.event.id.replace(`sdd:${runId}:`, ""), e.event.type, e.event.node ?? `${String(e.event.from)}->${String(e.event.to)}`])).toEqual([
      ["run.started", "run.started", "undefined->undefined"],
      ["phase:1", "node.started", "researcher"],
      ["hop:1", "edge.traversed", "researcher->coder"],
      ["phase:2", "node.started", "coder"],
      ["hop:2", "edge.traversed", "coder->verifier"],
      ["phase:3", "node.started", "verifier"],
      ["hop:3", "edge.traversed", "verifier->snitch"],
      ["phase:4", "node.started", "snitch"],
      ["run.completed", "run.completed", "undefined->undefined"],
    ]);
    const startTs = "2026-08-11T10:00:00.000Z";
    expect(events.slice(0, -1).every((e) => e.event.ts === startTs)).toBe(true);
    expect(events[1].event).toMatchObject({ phase: "analyze_system_state" });
    expect(events[0].event).toMatchObject({ title: "Send a welcome email after sign-up" });
    expect(events[8].event).toMatchObject({ ts: "2026-08-11T10:06:25.300Z", terminalStatus: "done_success" });
    expect(events[1]).toMatchObject({ line: 6, raw: "- **Phases**: analyze_system_state → implement → verify → retro" });
  });

  it("shares the run.started and run.completed ids with the run's report", () => {
    const runId = "a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2";
    const fromReport = eventsOf(parseSddReport(STUCK_REPORT)).map((e) => e.event.id);
    const fromLog = eventsOf(items, runId).map((e) => e.event.id);
    expect(fromLog).toContain(`sdd:${runId}:run.started`);
    expect(fromLog).toContain(`sdd:${runId}:run.completed`);
    expect(fromReport).toContain(`sdd:${runId}:run.started`);
    expect(fromReport).toContain(`sdd:${runId}:run.completed`);
  });

  it("produces identical items on a second parse", () => {
    expect(parseRetrospectives(LOG)).toEqual(items);
  });
});

describe("parseRetrospectives on variations", () => {
  it("tolerates a header, keeps a non-terminal Outcome as report status, and reads empty phases", () => {
    const md = [
      "# Retrospectives Log",
      "",
      "## Run 2026-01-02T03:04:05Z (ID: r1)",
      "- **goal**: Try",
      "- **OUTCOME**: partial",
      "- **Phases**: ",
      "- **Duration**: 10s",
    ].join("\n");
    const items = parseRetrospectives(md);
    expect(runsOf(items)[0].facts).toMatchObject({ title: "Try", reportStatus: "partial", phases: [], durationMs: 10_000 });
    expect(runsOf(items)[0].facts.terminalStatus).toBeUndefined();
    expect(eventsOf(items).map((e) => e.event.id)).toEqual(["sdd:r1:run.started"]);
  });

  it("names an unknown phase as its own node", () => {
    expect(splitPhases("implement -> deploy → verify")).toEqual(["implement", "deploy", "verify"]);
    const items = parseRetrospectives("## Run 2026-01-02T03:04:05Z (ID: r2)\n- **Phases**: implement → deploy\n");
    const nodes = eventsOf(items).filter((e) => e.event.type === "node.started").map((e) => e.event.node);
    expect(nodes).toEqual(["coder", "deploy"]);
  });

  it("reports a document without run sections as one error on line 1", () => {
    expect(parseRetrospectives("just text\n")).toEqual([
      { kind: "error", line: 1, message: 'no "## Run <ts> (ID: <runId>)" sections (not a retrospectives log)' },
    ]);
  });

  it("reports a malformed run heading and reads the other sections", () => {
    const items = parseRetrospectives("## Run yesterday\n- **Goal**: x\n## Run 2026-01-02T03:04:05Z (ID: r3)\n- **Goal**: y\n");
    expect(items[0]).toMatchObject({ kind: "error", line: 1 });
    expect(runsOf(items).map((r) => r.facts.title)).toEqual(["y"]);
  });
});

describe("parseRetrospectives on loosely written sections", () => {
  it("reads a heading time with a space and an Outcome with a gloss", () => {
    const items = parseRetrospectives("## Run 2026-01-02 03:04:05Z (ID: r5)\n- **Outcome**: `aborted_stuck` (loop)\n");
    expect(runsOf(items)[0].facts).toMatchObject({ endedAt: "2026-01-02T03:04:05.000Z", terminalStatus: "aborted_stuck" });
    expect(eventsOf(items).map((e) => e.event.type)).toEqual(["run.started", "run.completed"]);
  });
});
