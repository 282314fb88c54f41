import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { openSqlDb, type SqlDb } from "../sql";
import { GroupCommit } from "./group-commit";

describe("GroupCommit on SQLite", () => {
  let dir: string;
  let file: string;
  let db: SqlDb;
  let transactions: number;
  /** The real handle, counting the transactions it opens. */
  let counted: SqlDb;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "loopscope-group-"));
    file = join(dir, "g.db");
    db = openSqlDb({ kind: "sqlite", file });
    await db.exec(`CREATE TABLE "p" ("id" TEXT PRIMARY KEY); CREATE TABLE "c" ("id" TEXT PRIMARY KEY, "pid" TEXT REFERENCES "p"("id"))`);
    transactions = 0;
    counted = Object.assign(Object.create(db) as SqlDb, {
      transaction<T>(fn: (tx: SqlDb) => Promise<T>) {
        transactions++;
        return db.transaction(fn);
      },
    });
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (id: string) => async (tx: SqlDb) => {
    await tx.run(`INSERT INTO "p" ("id") VALUES (?)`, [id]);
    return id;
  };
  const stored = async () => (await db.all<{ id: string }>(`SELECT "id" FROM "p" ORDER BY "id"`)).map((r) => r.id);

  it("writes the parts submitted together in one transaction, each caller getting its own result", async () => {
    const group = new GroupCommit(counted);
    const results = await Promise.all(["a", "b", "c"].map((id) => group.submit(1, insert(id))));
    expect(results).toEqual(["a", "b", "c"]);
    expect(transactions).toBe(1);
    expect(await stored()).toEqual(["a", "b", "c"]);
  });

  it("settles a caller only once its rows are committed (seen from another connection)", async () => {
    const group = new GroupCommit(counted);
    const other = new Database(file, { readonly: true });
    try {
      const seen = await group.submit(1, insert("a")).then(() => other.prepare(`SELECT COUNT(*) AS "n" FROM "p"`).get() as { n: number });
      expect(seen.n).toBe(1);
    } finally {
      other.close();
    }
  });

  it("rolls back a part that throws to its savepoint alone: only its caller gets the error", async () => {
    const group = new GroupCommit(counted);
    const failing = async (tx: SqlDb) => {
      await tx.run(`INSERT INTO "p" ("id") VALUES ('b')`);
      throw new Error("part b failed");
    };
    const outcomes = await Promise.allSettled([group.submit(1, insert("a")), group.submit(1, failing), group.submit(1, insert("c"))]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error("part b failed"));
    expect(transactions).toBe(1);
    expect(await stored()).toEqual(["a", "c"]);
  });

  it("fails every caller of a group whose COMMIT fails, and stores none of it", async () => {
    const group = new GroupCommit(counted);
    // A foreign key checked at COMMIT: the part itself succeeds, the transaction cannot commit.
    const dangling = async (tx: SqlDb) => {
      await tx.exec(`PRAGMA defer_foreign_keys = ON`);
      await tx.run(`INSERT INTO "c" ("id","pid") VALUES ('x','nowhere')`);
    };
    const outcomes = await Promise.allSettled([group.submit(1, insert("a")), group.submit(1, dangling)]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(await stored()).toEqual([]);
    // The queue goes on with the next group.
    await group.submit(1, insert("d"));
    expect(await stored()).toEqual(["d"]);
  });

  it("splits a queue heavier than the group limit into several transactions, in order", async () => {
    const group = new GroupCommit(counted, 5);
    const order: string[] = [];
    const part = (id: string) => async (tx: SqlDb) => {
      order.push(id);
      return insert(id)(tx);
    };
    await Promise.all(["a", "b", "c", "d"].map((id) => group.submit(3, part(id))));
    expect(order).toEqual(["a", "b", "c", "d"]);
    expect(transactions).toBe(4);
  });

  it("refuses a part submitted from inside a transaction of its connection, rather than wait for itself or be rolled back with it", async () => {
    const group = new GroupCommit(counted);
    const result = await db.transaction(async (tx) => {
      await tx.run(`INSERT INTO "p" ("id") VALUES ('outer')`);
      return group.submit(1, insert("inner")).catch((error: unknown) => String(error));
    });
    expect(result).toBe("Error: GroupCommit.submit was called inside a transaction of its connection: write with that transaction's handle instead");
    expect(await stored()).toEqual(["outer"]);
    // Outside it, the group goes on.
    expect(await group.submit(1, insert("after"))).toBe("after");
  });

  it("reports the backlog and, once it has drained some, an estimate of the wait", async () => {
    const group = new GroupCommit(counted, 100);
    expect(group.load()).toEqual({ backlog: 0, waitMs: 0 });
    const slow = async (tx: SqlDb) => {
      // performance.now, as the queue's own clock: Date.now's whole milliseconds could end this after 29.01 ms.
      const until = performance.now() + 30;
      while (performance.now() < until); // a part that holds the writer for 30 ms
      return insert(`s${Math.random()}`)(tx);
    };
    const first = group.submit(10, slow);
    const queued = group.load();
    expect(queued.backlog).toBe(10);
    // Before any group drained there is nothing to estimate from: a cold process refuses nothing.
    expect(queued.waitMs).toBe(0);
    await first;
    const pending = [group.submit(50, slow), group.submit(50, slow)];
    const busy = group.load();
    expect(busy.backlog).toBe(100);
    // 30 ms for 10 units, averaged from zero: at least a fifth of 3 ms per unit.
    expect(busy.waitMs).toBeGreaterThanOrEqual(100 * 0.6 - 1);
    await Promise.all(pending);
    expect(group.load().backlog).toBe(0);
  });
});
