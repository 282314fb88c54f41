import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLoopscopeClient } from "loopscope/client";
import { createSqliteTestDb, type TestDatabase } from "@/lib/db/testing/test-databases";
import { RouteListener } from "@/lib/db/testing/route-listener";
import { closeDb } from "@/lib/db/client";
import { createApiKey } from "@/lib/db/api-keys";
import { recordDecision } from "@/lib/db/decisions";
import { readRunControlState } from "@/lib/db/control";
import type { DecisionAction } from "@/lib/client/types";
import type { AgentLogEntry } from "./agent-run";
import { runScenario } from "./main";
import type { ScenarioName } from "./scenarios";

/**
 * Each scripted run against a real server and the real detector: which loop
 * halts it first, and that after a person's decision it finishes as decided.
 */
describe("the demo agent's scenarios", () => {
  let t: TestDatabase;
  let server: RouteListener;
  let apiKey: string;
  let plays = 0;

  beforeAll(async () => {
    t = await createSqliteTestDb();
    process.env.DATABASE_URL = `file:${t.config.kind === "sqlite" ? t.config.file : ""}`;
    apiKey = (await createApiKey("agent-test", { scope: "ingest+control" })).key;
    server = new RouteListener();
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
    await closeDb();
    await t.destroy();
  });

  /** Runs a scenario; whenever it halts, a person decides `action` with a directive and +4 iterations. */
  async function play(name: ScenarioName, action: DecisionAction = "resume") {
    const runId = `test-${++plays}-${name}-${action}`;
    const log: AgentLogEntry[] = [];
    const halts: { haltKey: string; haltReason: string | null; signal: string | null }[] = [];
    const client = createLoopscopeClient({ url: server.url, apiKey, flushIntervalMs: 5 });
    await runScenario(client, runId, name, false, {
      paceMs: 0,
      log: (e) => {
        log.push(e);
        if (e.agent !== "halted") return;
        void (async () => {
          const state = await readRunControlState(t.db, runId);
          const finding = await t.db.get<{ signal: string }>(
            `SELECT "signal" FROM "Finding" WHERE "runId" = ? AND ? LIKE '%' || "key" ORDER BY "id" DESC LIMIT 1`, [runId, state!.haltKey!]);
          halts.push({ haltKey: state!.haltKey!, haltReason: state!.haltReason, signal: finding?.signal ?? null });
          await recordDecision(t.db, {
            runId, haltKey: state!.haltKey!, action, directive: `directive for ${name}`,
            budgetDelta: action === "resume" ? { maxCycleIterations: 4 } : null, provider: null, by: "tester",
          });
        })();
      },
    });
    await client.close();
    const run = await t.db.get<{ status: string; terminalStatus: string | null; loopIterations: number | null; loopLimit: number | null }>(
      `SELECT "status","terminalStatus","loopIterations","loopLimit" FROM "Run" WHERE "id" = ?`, [runId]);
    return { log, halts, run: run!, runId };
  }

  it.each<[ScenarioName, string, string]>([
    ["research-loop", "budget_exceeded", "maxCycleIterations"],
    ["repeated-failure", "repeated_error", "repeated_failure"],
    ["identical-diffs", "stalled", "unchanged_diff"],
    ["oscillation", "oscillating", "oscillation"],
    ["runtime-budget", "budget_exceeded", "runtime"],
  ])("%s halts once on %s (%s), takes the directive, and finishes", async (name, haltReason, signal) => {
    const { log, halts, run } = await play(name);
    expect(halts).toEqual([{ haltKey: expect.any(String), haltReason, signal }]);
    const received = log.filter((e) => e.agent === "decision");
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ decision: { action: "resume", directive: `directive for ${name}`, by: "tester" } });
    expect(log.at(-1)).toMatchObject({ agent: "finished", outcome: "done_success" });
    expect(run).toMatchObject({ status: "done", terminalStatus: "done_success" });
  });

  it("research-loop: the badge shows the raised limit after +4 iterations", async () => {
    const { run } = await play("research-loop", "resume");
    expect(run).toMatchObject({ loopIterations: 5, loopLimit: 8 });
  });

  it("a clean success never halts", async () => {
    const { halts, run } = await play("success");
    expect(halts).toEqual([]);
    expect(run).toMatchObject({ status: "done", terminalStatus: "done_success" });
  });

  it("stop ends the run as aborted_stuck and the agent sends nothing more", async () => {
    const { log, run, runId } = await play("repeated-failure", "stop");
    expect(log.at(-1)).toMatchObject({ agent: "finished", outcome: "stop" });
    expect(run).toMatchObject({ status: "done", terminalStatus: "aborted_stuck" });
    const last = await t.db.get<{ type: string }>(`SELECT "type" FROM "Event" WHERE "runId" = ? ORDER BY "tsMs" DESC, "pk" DESC LIMIT 1`, [runId]);
    expect(last!.type).toBe("run.completed");
  });
});
