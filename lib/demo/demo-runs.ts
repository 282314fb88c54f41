import { createRandom, intBetween, pick } from "./random";

/**
 * Scripted protocol runs of an SDD-style agent (planner, researcher, coder,
 * verifier, snitch), written as the agent would write them: clean successes,
 * a planner↔researcher loop, a verifier repeating one failure, a coder
 * producing identical diffs, an oscillating coder, budget exhaustion, task
 * retries of an autopilot, and runs still going. Deterministic for a seed.
 */
export type DemoScenario =
  | "success"
  | "research-loop"
  | "repeated-failure"
  | "identical-diffs"
  | "oscillation"
  | "budget"
  | "task-retries"
  | "running";

export interface DemoRunOptions {
  runId: string;
  scenario: DemoScenario;
  startMs: number;
  seed: number;
  title?: string;
  ticketId?: string;
}

const GRAPH = {
  nodes: [
    { id: "planner", label: "Planner", role: "planner" },
    { id: "researcher", label: "Researcher", role: "researcher" },
    { id: "coder", label: "Coder", role: "coder" },
    { id: "verifier", label: "Verifier", role: "verifier" },
    { id: "snitch", label: "Snitch", role: "reporter" },
  ],
  edges: [
    { from: "planner", to: "researcher" },
    { from: "researcher", to: "planner" },
    { from: "planner", to: "coder" },
    { from: "coder", to: "verifier" },
    { from: "verifier", to: "planner" },
    { from: "verifier", to: "coder" },
    { from: "planner", to: "snitch" },
  ],
};

export const DEMO_TICKETS: readonly { ticketId: string; title: string }[] = [
  { ticketId: "41-invoice-pdf", title: "Render invoices as PDF" },
  { ticketId: "42-rate-limit", title: "Rate-limit the public API" },
  { ticketId: "43-csv-export", title: "Export reports as CSV" },
  { ticketId: "44-tz-due-dates", title: "Fix time zones in invoice due dates" },
  { ticketId: "45-search-diacritics", title: "Make search ignore diacritics" },
  { ticketId: "46-webhook-retries", title: "Retry failed webhooks with backoff" },
  { ticketId: "47-dark-mode", title: "Add a dark mode toggle" },
  { ticketId: "48-audit-log", title: "Write an audit log for admin actions" },
  { ticketId: "49-password-reset", title: "Expire password reset links after 1 h" },
  { ticketId: "50-n-plus-one", title: "Remove the N+1 query on /orders" },
  { ticketId: "51-upload-limit", title: "Reject uploads over 25 MB" },
  { ticketId: "52-i18n-dates", title: "Localise dates in emails" },
];

/** Returns the protocol events of one scripted run, as JSON lines. */
export function generateDemoRun(o: DemoRunOptions): string[] {
  const rnd = createRandom(o.seed);
  const lines: string[] = [];
  let t = o.startMs;
  let n = 0;
  const emit = (type: string, fields: Record<string, unknown>) => {
    t += intBetween(rnd, 150, 900);
    lines.push(JSON.stringify({ v: 1, id: `${o.runId}-e${String(++n).padStart(4, "0")}`, runId: o.runId, ts: new Date(t).toISOString(), type, ...fields }));
  };
  const turn = (node: string, output: Record<string, unknown>, slowMs = 20_000) => {
    emit("node.started", { node });
    const durationMs = intBetween(rnd, slowMs / 4, slowMs);
    t += durationMs;
    const tokens = intBetween(rnd, 1500, 14000);
    emit("node.completed", { node, durationMs, tokens, costUsd: Math.round(tokens * 0.0031) / 1000, output });
  };
  const hop = (from: string, to: string) => emit("edge.traversed", { from, to });
  const diff = (body: string) =>
    emit("artifact.diff", { node: "coder", files: ["src/app.ts"], patch: `--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,1 +1,1 @@\n-old\n+${body}\n` });
  const verify = (passed: boolean, failing: string[] = [], stderr?: string) =>
    emit("verify.result", { node: "verifier", command: "npm test", passed, exitCode: passed ? 0 : 1, ...(failing.length ? { failing } : {}), ...(stderr ? { stderr } : {}) });
  const plan = (next: string, reason: string) => turn("planner", { structured: { next, reason } });

  emit("run.started", { title: o.title, ticketId: o.ticketId, profile: pick(rnd, ["fast", "strict", "fast", "yolo"]), graph: GRAPH });
  switch (o.scenario) {
    case "success": {
      plan("researcher", "Check the existing helpers first");
      hop("planner", "researcher");
      emit("research.result", { node: "researcher", query: `${o.title} best practice`, resultsHash: `r${o.seed}`, quality: 0.8, resultCount: 6 });
      turn("researcher", { final: "Found the helper in src/lib; reuse it." });
      hop("researcher", "planner");
      plan("coder", "Implement with the existing helper");
      hop("planner", "coder");
      diff(`impl-${o.seed}`);
      turn("coder", { final: "Implemented and added tests." });
      hop("coder", "verifier");
      const first = rnd() < 0.5;
      if (first) {
        verify(false, ["test/app.test.ts > handles empty input"]);
        turn("verifier", { final: "1 failing" });
        hop("verifier", "coder");
        diff(`fix-${o.seed}`);
        turn("coder", { final: "Handled empty input." });
        hop("coder", "verifier");
      }
      verify(true);
      turn("verifier", { final: "All green" });
      hop("verifier", "planner");
      plan("snitch", "Done");
      hop("planner", "snitch");
      turn("snitch", { final: "Report written" });
      emit("run.completed", { terminalStatus: "done_success", stopReason: "Tests green; ticket closed" });
      break;
    }
    case "research-loop": {
      for (let i = 1; i <= 7; i++) {
        plan("researcher", `Need to assess the options once more (round ${i})`);
        hop("planner", "researcher");
        emit("research.result", { node: "researcher", query: `${o.title} library comparison`, resultsHash: `same-${o.seed}`, quality: 0.35, resultCount: 4 });
        turn("researcher", { final: "Already researched: same four libraries." });
        hop("researcher", "planner");
      }
      break;
    }
    case "repeated-failure": {
      plan("coder", "Fix the failing test");
      hop("planner", "coder");
      for (let i = 1; i <= 3; i++) {
        diff(`attempt-${i}-${o.seed}`);
        turn("coder", { final: `Attempt ${i}: adjusted the date handling.` });
        hop("coder", "verifier");
        verify(false, [], "FAIL test/dates.test.ts > due date in Europe/Vienna\nAssertionError: expected 2026-09-04 to equal 2026-09-03\n  at 12ms");
        turn("verifier", { final: "Still failing" });
        if (i < 3) hop("verifier", "coder");
      }
      break;
    }
    case "identical-diffs": {
      plan("coder", "Apply the patch");
      hop("planner", "coder");
      for (let i = 1; i <= 2; i++) {
        diff(`same-patch-${o.seed}`);
        turn("coder", { final: `Re-applied the patch (${i}).` });
        hop("coder", "verifier");
        verify(false, ["test/a.test.ts > a", "test/b.test.ts > b"]);
        turn("verifier", { final: "2 failing" });
        if (i < 2) hop("verifier", "coder");
      }
      break;
    }
    case "oscillation": {
      plan("coder", "Fix lint");
      hop("planner", "coder");
      for (let i = 0; i < 4; i++) {
        turn("coder", { final: i % 2 === 0 ? "Switched to tabs." : "Switched to spaces." });
        hop("coder", "verifier");
        verify(false, ["lint > indentation"]);
        turn("verifier", { final: "lint fails" });
        hop("verifier", "coder");
      }
      break;
    }
    case "budget": {
      for (let i = 1; i <= 9; i++) {
        diff(`progress-${i}-${o.seed}`);
        turn("coder", { final: `Step ${i}: migrated ${i * 10}% of the call sites.` });
        hop("coder", "verifier");
        verify(false, Array.from({ length: Math.max(1, 12 - i) }, (_, k) => `test/migrate.test.ts > case ${k}`));
        turn("verifier", { final: `${Math.max(1, 12 - i)} failing` });
        hop("verifier", "coder");
      }
      break;
    }
    case "task-retries": {
      for (let i = 1; i <= 3; i++) {
        emit("task.attempt", { taskId: o.ticketId, status: "blocked", blockers: ["waiting for API credentials"], completedWork: ["scaffolded client"], sessionId: `s${i}` });
        turn("planner", { structured: { next: "coder", reason: `retry ${i}` } });
      }
      break;
    }
    case "running": {
      plan("coder", "Implement");
      hop("planner", "coder");
      diff(`wip-${o.seed}`);
      turn("coder", { final: "Work in progress" });
      hop("coder", "verifier");
      break;
    }
  }
  return lines;
}

/** The demo's set of runs over the last weeks before `nowMs`: a mix of every scenario. */
export function generateDemoHistory(nowMs: number, count = 36, seed = 7): { runId: string; scenario: DemoScenario; lines: string[] }[] {
  const rnd = createRandom(seed);
  const scenarios: DemoScenario[] = ["success", "success", "success", "research-loop", "repeated-failure", "success", "identical-diffs", "oscillation", "budget", "task-retries", "success", "running"];
  const out: { runId: string; scenario: DemoScenario; lines: string[] }[] = [];
  for (let i = 0; i < count; i++) {
    const scenario = scenarios[i % scenarios.length];
    const ticket = DEMO_TICKETS[i % DEMO_TICKETS.length];
    const startMs = nowMs - (count - i) * intBetween(rnd, 3, 9) * 3600_000;
    const runId = `demo-${String(i + 1).padStart(3, "0")}-${scenario}`;
    out.push({ runId, scenario, lines: generateDemoRun({ runId, scenario, startMs, seed: seed * 1000 + i, ...ticket }) });
  }
  return out;
}
