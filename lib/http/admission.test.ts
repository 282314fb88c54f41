import { afterEach, describe, expect, it } from "vitest";
import { getSql } from "@/lib/db/client";
import { ingestApiLines, readBodyLines } from "@/lib/db/ingest/api-ingest";
import { useAppDatabase } from "@/lib/db/testing/app-database";
import { admitIngest, currentPressure } from "./admission";

useAppDatabase("sqlite");

const batch = async (runId: string, n: number) =>
  readBodyLines(
    new Response(
      Array.from({ length: n }, (_, i) =>
        JSON.stringify({ v: 1, id: `e${i}`, runId, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), type: "node.completed", node: "coder" }),
      ).join("\n"),
    ).body,
    8 << 20,
  );

describe("admitIngest on SQLite", () => {
  afterEach(() => {
    delete process.env.LOOPSCOPE_INGEST_MAX_WRITE_WAIT_MS;
  });

  it("refuses with 429 and Retry-After while the write queue is past its budget, and takes requests again once it drained", async () => {
    const sql = await getSql();
    // A first batch drains, so the queue knows how fast it goes.
    await ingestApiLines(sql, await batch("warm", 500), "api:test");
    process.env.LOOPSCOPE_INGEST_MAX_WRITE_WAIT_MS = "0.000001";
    const writing = ingestApiLines(sql, await batch("busy", 2000), "api:test");
    expect(currentPressure().writeWaitMs).toBeGreaterThan(0);
    const refused = admitIngest();
    expect("refused" in refused).toBe(true);
    if (!("refused" in refused)) return;
    expect(refused.refused.status).toBe(429);
    expect(Number(refused.refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await refused.refused.json()).error).toMatch(/^the server is at capacity \(new events would wait \d+ ms for the database/);
    // What was taken before is written and answered all the same.
    expect((await writing).stored).toBe(2000);
    expect(currentPressure().writeWaitMs).toBe(0);
    const taken = admitIngest();
    expect("release" in taken).toBe(true);
    if ("release" in taken) taken.release();
  });

  it("counts requests in flight and frees the slot once, however often release is called", () => {
    const before = currentPressure().inflight;
    const a = admitIngest();
    if (!("release" in a)) throw new Error("refused");
    expect(currentPressure().inflight).toBe(before + 1);
    a.release();
    a.release();
    expect(currentPressure().inflight).toBe(before);
  });
});
