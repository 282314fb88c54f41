import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ParsedEvent, ParseItem, RunFacts } from "./types";
import { listReportLoopEvidence, parseSddReport } from "./sdd-report";

const RUNS = new URL("../../../fixtures/sdd/runs/", import.meta.url);
const SUCCESS = readFileSync(new URL("2026-08-11T10-06-25-300Z_51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b.md", RUNS), "utf8");
const STUCK = readFileSync(new URL("2026-08-12T15-58-09-880Z_a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2.md", RUNS), "utf8");

const factsOf = (items: ParseItem[]) => (items.find((i) => i.kind === "run") as RunFacts).facts;
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");
const errorsOf = (items: ParseItem[]) => items.filter((i) => i.kind === "error");

describe("parseSddReport on the clean-success fixture", () => {
  const items = parseSddReport(SUCCESS);

  it("reads the run facts", () => {
    const run = items[0] as RunFacts;
    expect(run).toMatchObject({ kind: "run", runId: "51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b", format: "sdd-report" });
    expect(run.facts).toMatchObject({
      reportStatus: "success",
      terminalStatus: "done_success",
      stopReason: "Tests green; ticket closed",
      endedAt: "2026-08-11T10:06:25.300Z",
      startedAt: "2026-08-11T10:00:00.000Z",
      durationMs: 385_300,
      ticketId: "14-welcome-email",
      ticketPath: ".sdd/backlog/tickets/closed/14-welcome-email.md",
      ticketStatus: "closed",
      commitHash: "71fe0a9c3d",
      toolCalls: 11,
      llmCalls: 8,
      steps: 8,
      profile: "fast",
      filesChanged: ["src/mail/templates.ts", "test/mail.test.ts"],
      budgets: [
        { name: "Commands", used: 4, max: 30 },
        { name: "Test Runs", used: 1, max: 5 },
        { name: "Web Requests", used: 1, max: 15 },
      ],
      markdown: SUCCESS,
    });
    expect(run.facts.tokens).toBeUndefined(); // "Total Tokens: 0" means not measured
    expect(run.facts.extra).toMatchObject({
      "Change Size": "2 files",
      "Diagnostic Latency": "52.8s",
      "Failure Mode": "none",
      "Resource Usage": "4 cmds, 1 tests, 1 web",
    });
    expect(errorsOf(items)).toEqual([]);
  });

  it("synthesises start, verification and completion events with path-independent ids", () => {
    const events = eventsOf(items);
    expect(events.map((e) => e.event.id)).toEqual([
      "sdd:51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b:run.started",
      "sdd:51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b:verify:1",
      "sdd:51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b:run.completed",
    ]);
    const [started, verify, completed] = events;
    expect(started).toMatchObject({
      line: 1,
      raw: "# Run Report: 51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b",
      sourceType: "report.run",
      format: "sdd-report",
      event: { type: "run.started", ts: "2026-08-11T10:00:00.000Z", ticketId: "14-welcome-email", profile: "fast" },
    });
    expect(verify).toMatchObject({
      line: 48,
      sourceType: "report.verification",
      event: { type: "verify.result", command: "npm test", passed: true, exitCode: 0, ts: "2026-08-11T10:06:25.300Z" },
    });
    expect(verify.event).not.toHaveProperty("stderr");
    expect(verify.raw.split("\n")[0]).toBe("- **Command**: `npm test`");
    expect(completed).toMatchObject({
      line: 5,
      raw: "**Terminal Status:** done_success",
      event: { type: "run.completed", ts: "2026-08-11T10:06:25.300Z", terminalStatus: "done_success", stopReason: "Tests green; ticket closed" },
    });
  });

  it("produces identical items on a second parse", () => {
    expect(parseSddReport(SUCCESS)).toEqual(items);
  });

  it("finds no loop evidence", () => {
    expect(listReportLoopEvidence(factsOf(items))).toEqual([]);
  });
});

describe("parseSddReport on the aborted_stuck fixture", () => {
  const items = parseSddReport(STUCK);
  const facts = factsOf(items);

  it("lets Terminal Status win over Status and reads the loop facts", () => {
    expect(facts).toMatchObject({
      reportStatus: "success",
      terminalStatus: "aborted_stuck",
      stopReason: "Planner detected loop planner→verifier without progress after 6 hops.",
      durationMs: 1_689_880,
      steps: 15,
      repeatedCommands: [{ command: "npm test -- search", count: 7 }],
      diagnostics: [
        {
          source: "TEST",
          location: "test/search.test.ts:27",
          count: 7,
          lastSeen: "2026-08-12T15:56:40.000Z",
          message: "expected [] to have length 1",
        },
      ],
      budgets: [
        { name: "Commands", used: 9, max: 30 },
        { name: "Test Runs", used: 7, max: 8 },
        { name: "Web Requests", used: 0, max: 15 },
      ],
    });
    expect(facts.commitHash).toBeUndefined();
  });

  it("turns the failing verification into verify.result with its output as stderr", () => {
    const verify = eventsOf(items).find((e) => e.event.type === "verify.result");
    expect(verify?.event).toMatchObject({
      id: "sdd:a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2:verify:1",
      command: "npm test -- search",
      passed: false,
      exitCode: 1,
      stderr: 'FAIL test/search.test.ts > matches "Zürich" for "zurich"',
    });
    const started = eventsOf(items).find((e) => e.event.type === "run.started");
    expect(started?.event.ts).toBe("2026-08-12T15:30:00.000Z");
  });

  it("lists the repeated command and the diagnostic as loop evidence", () => {
    expect(listReportLoopEvidence(facts)).toEqual([
      { kind: "repeated_command", text: "`npm test -- search` ran 7 times" },
      { kind: "diagnostic", text: "[TEST] test/search.test.ts:27 seen 7 times: expected [] to have length 1" },
    ]);
  });
});

describe("parseSddReport on variations of real reports", () => {
  it("reads either label style, any case, reordered sections, CRLF, and other duration units", () => {
    const md = [
      "# Run Report: r-9",
      "## Budget Usage",
      "- **test runs**: 8 / 8",
      "**TERMINAL STATUS**: aborted_constraint",
      "- **date:** 2026-01-02T03:04:05Z",
      "**Duration:** 2m",
      "**Token Usage:** 12,345 tokens",
      "## Files Changed",
      "No files changed.",
    ].join("\r\n");
    const items = parseSddReport(md);
    const facts = factsOf(items);
    expect(facts).toMatchObject({
      terminalStatus: "aborted_constraint",
      endedAt: "2026-01-02T03:04:05.000Z",
      durationMs: 120_000,
      tokens: 12_345,
      budgets: [{ name: "test runs", used: 8, max: 8 }],
      filesChanged: [],
    });
    expect(listReportLoopEvidence(facts)).toEqual([{ kind: "budget", text: "test runs budget used up: 8 / 8" }]);
    expect(eventsOf(items).map((e) => e.event.type)).toEqual(["run.started", "run.completed"]);
    expect(eventsOf(items)[0].event.ts).toBe("2026-01-02T03:02:05.000Z");
  });

  it("has no terminal status and no run.completed when the report states none", () => {
    const items = parseSddReport("# Run Report: r1\n**Date:** 2026-01-02T03:04:05Z\n**Status:** failed\n**Duration:** 850ms\n");
    expect(factsOf(items).terminalStatus).toBeUndefined();
    expect(factsOf(items).durationMs).toBe(850);
    expect(eventsOf(items).map((e) => e.event.type)).toEqual(["run.started"]);
  });

  it("reads several verification blocks and the functional probes", () => {
    const md = [
      "# Run Report: r2",
      "**Date:** 2026-01-02T03:04:05Z",
      "## Functional Probes",
      "- ✅ `curl -f localhost:3000/health` (exit 0)",
      "- ❌ `npm run smoke` (exit 2)",
      "  Error: port 3000 in use",
      "## Verification Results",
      "- **Command**: `npm run lint`",
      "- **Passed**: ✅",
      "- **Exit Code**: 0",
      "- **Command**: `npm test`",
      "- **Exit Code**: 1",
      "- **Passed**: ❌",
      "- **Stdout**:",
      "```",
      "1 failed",
      "```",
      "- **Stderr**:",
      "```",
      "## not a heading: inside a fence",
      "```",
    ].join("\n");
    const events = eventsOf(parseSddReport(md));
    expect(events.map((e) => [e.event.id, e.event.passed, e.event.exitCode, e.event.stderr])).toEqual([
      ["sdd:r2:run.started", undefined, undefined, undefined],
      ["sdd:r2:probe:1", true, 0, undefined],
      ["sdd:r2:probe:2", false, 2, "Error: port 3000 in use"],
      ["sdd:r2:verify:1", true, 0, undefined],
      ["sdd:r2:verify:2", false, 1, "## not a heading: inside a fence"],
    ]);
    expect(events[1]).toMatchObject({ line: 4, sourceType: "report.probe" });
    expect(events[4]).toMatchObject({ line: 11, sourceType: "report.verification" });
  });

  it("is one error on line 1 for a document without a run id heading", () => {
    expect(parseSddReport("# Something else\n**Status:** success\n")).toEqual([
      { kind: "error", line: 1, message: 'missing "# Run Report: <runId>" heading (not an SDD run report)' },
    ]);
  });

  it("keeps the facts but places no events without a Date", () => {
    const items = parseSddReport("# Run Report: r3\n**Terminal Status:** done_success\n");
    expect(factsOf(items).terminalStatus).toBe("done_success");
    expect(eventsOf(items)).toEqual([]);
    expect(errorsOf(items)).toHaveLength(1);
  });
});

describe("parseSddReport on stated-but-empty values", () => {
  it("reads `Terminal Status: none` as no terminal status, and a budget of 0 / 0 as no evidence", () => {
    const items = parseSddReport(
      "# Run Report: r4\n**Date:** 2026-01-02T03:04:05Z\n**Terminal Status:** none\n## Budget Usage\n- **Web Requests**: 0 / 0\n",
    );
    expect(factsOf(items).terminalStatus).toBeUndefined();
    expect(eventsOf(items).map((e) => e.event.type)).toEqual(["run.started"]);
    expect(listReportLoopEvidence(factsOf(items))).toEqual([]);
  });
});
