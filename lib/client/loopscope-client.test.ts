import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "@/lib/db/testing/test-databases";
import { RouteListener } from "@/lib/db/testing/route-listener";
import { closeDb } from "@/lib/db/client";
import { createApiKey } from "@/lib/db/api-keys";
import { recordDecision } from "@/lib/db/decisions";
import { readRunControlState } from "@/lib/db/control";
import { createLoopscopeClient, type LoopscopeClient, type LoopscopeClientError } from "./index";

const kinds = await testDatabaseKinds();
const GRAPH = { nodes: [{ id: "planner" }, { id: "researcher" }], edges: [{ from: "planner", to: "researcher" }, { from: "researcher", to: "planner" }] };

describe.each(kinds)("the client against a real server (%s)", (kind) => {
  let t: TestDatabase;
  let server: RouteListener;
  let apiKey: string;
  let errors: LoopscopeClientError[];
  const client = (): LoopscopeClient =>
    createLoopscopeClient({
      url: server.url, apiKey, batchSize: 10, flushIntervalMs: 20, backoff: { initialMs: 20, maxMs: 200 },
      onError: (e) => errors.push(e),
    });

  beforeEach(async () => {
    t = await createTestDb(kind);
    process.env.DATABASE_URL = t.config.kind === "sqlite" ? `file:${t.config.file}` : t.config.url;
    apiKey = (await createApiKey("client-test", { scope: "ingest+control" })).key;
    server = new RouteListener();
    await server.start();
    errors = [];
  });
  afterEach(async () => {
    await server.stop();
    await closeDb();
    // pg's pool.end() resolves before its connections have closed; dropping the
    // database under a closing connection would surface as an unhandled error.
    await new Promise((r) => setTimeout(r, 200));
    await t.destroy();
  });

  const storedIds = async (runId: string) =>
    (await t.db.all<{ eventId: string }>(`SELECT "eventId" FROM "Event" WHERE "runId" = ? ORDER BY "pk"`, [runId])).map((r) => r.eventId);

  it("buffers events through a server restart and stores each exactly once", async () => {
    const ls = client();
    const runId = await ls.startRun({ title: "Buffered" });
    const ids: string[] = [];
    const emitTurns = (from: number, n: number) => {
      for (let i = from; i < from + n; i++) ids.push(ls.emit(runId, { type: "node.completed", node: "coder", output: { final: `turn ${i}` } }));
    };
    emitTurns(0, 25);
    await ls.flush();
    expect(await storedIds(runId)).toHaveLength(26);

    await server.stop();
    emitTurns(25, 25);
    await new Promise((r) => setTimeout(r, 400)); // several failed attempts
    expect(ls.buffered).toBe(25);
    await server.start(); // same port
    // The first batch after the restart is stored but its answer is lost: the client sends it again.
    server.dropNextIngestAnswer = true;
    emitTurns(50, 25);
    await ls.close();

    const stored = await storedIds(runId);
    expect(stored).toHaveLength(76);
    expect(new Set(stored).size).toBe(76);
    expect(stored.slice(1)).toEqual(ids);
    expect(server.ingestAnswers.some((a) => a.duplicate > 0)).toBe(true);
    const run = await t.db.get<{ eventCount: number }>(`SELECT "eventCount" FROM "Run" WHERE "id" = ?`, [runId]);
    expect(Number(run!.eventCount)).toBe(76);
    expect(errors).toEqual([]);
  });

  it("delivers a decision to an agent that reconnects, until it is acknowledged, and applies it once", async () => {
    const agent = client();
    const runId = await agent.startRun({ title: "Reconnect", graph: GRAPH, budgets: { maxCycleIterations: 2 } });
    for (let i = 0; i < 3; i++) {
      agent.emit(runId, { type: "node.completed", node: "planner", output: { final: `plan ${i}` } });
      agent.emit(runId, { type: "edge.traversed", from: "planner", to: "researcher" });
      agent.emit(runId, { type: "node.completed", node: "researcher", output: { final: `found ${i}` } });
      agent.emit(runId, { type: "edge.traversed", from: "researcher", to: "planner" });
    }
    await agent.flush();
    const halted = await agent.getRunState(runId);
    expect(halted).toMatchObject({ status: "halted", waiting: true, haltReason: "budget_exceeded", loopLimit: 2 });

    // The agent waits, then its process dies; the server goes down too.
    const gone = new AbortController();
    const waiting = agent.waitForDecision(runId, { signal: gone.signal });
    await new Promise((r) => setTimeout(r, 100));
    gone.abort();
    expect(await waiting).toBeNull();
    await server.stop();

    // A person decides meanwhile (the dashboard's own code path).
    const decided = await recordDecision(t.db, {
      runId, haltKey: halted!.haltKey!, action: "resume", directive: "stop researching; implement the parser",
      budgetDelta: { maxCycleIterations: 4 }, provider: null, by: "ada",
    });
    expect(decided.ok).toBe(true);

    // A new agent process starts waiting while the server is still down, and gets it once it is back.
    const restarted = client();
    const pending = restarted.waitForDecision(runId);
    await new Promise((r) => setTimeout(r, 200));
    await server.start();
    const first = await pending;
    expect(first).toMatchObject({ runId, action: "resume", directive: "stop researching; implement the parser", by: "ada", budgetDelta: { maxCycleIterations: 4 } });

    // It crashes before acknowledging: the next process gets the same decision, acknowledges it.
    const third = client();
    const again = await third.waitForDecision(runId, { timeoutMs: 5000 });
    expect(again?.id).toBe(first!.id);
    await third.ack(runId, again!.id);
    await third.ack(runId, again!.id); // idempotent
    expect(await third.waitForDecision(runId, { timeoutMs: 600 })).toBeNull();
    expect(await client().waitForDecision(runId, { timeoutMs: 600 })).toBeNull();
    const state = await readRunControlState(t.db, runId);
    expect(state).toMatchObject({ status: "running", waiting: false, pendingDecisionId: null, loopLimit: 6 });
  });

  it("wakes a waiting agent as soon as the decision is made, and reports a bad key", async () => {
    const agent = client();
    const runId = await agent.startRun({ graph: GRAPH });
    await agent.halt(runId, { haltReason: "stalled", node: "planner", suggestedActions: ["spawn_reviewer"] });
    const state = await agent.getRunState(runId);
    expect(state).toMatchObject({ waiting: true, haltReason: "stalled" });
    expect(state!.haltKey).toMatch(/^runtime:/);
    const started = Date.now();
    const waiting = agent.waitForDecision(runId);
    await new Promise((r) => setTimeout(r, 150));
    await recordDecision(t.db, { runId, haltKey: state!.haltKey!, action: "stop", directive: null, budgetDelta: null, provider: null, by: "bob" });
    expect(await waiting).toMatchObject({ action: "stop", by: "bob" });
    expect(Date.now() - started).toBeLessThan(5000);

    const bad = createLoopscopeClient({ url: server.url, apiKey: "lsk_wrong", onError: (e) => errors.push(e) });
    bad.emit(runId, { type: "node.started", node: "planner" });
    await expect(bad.flush()).rejects.toMatchObject({ status: 401 });
    expect(bad.buffered).toBe(1);
    await expect(bad.waitForDecision(runId)).rejects.toMatchObject({ status: 401 });
  });
});
