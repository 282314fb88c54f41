import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqlDb, type SqlDb } from "./sql";

// SQLite's one connection is shared by every caller in the process; these
// check that a caller's statements never land in another caller's transaction.
describe("the shared SQLite connection", () => {
  let dir: string;
  let db: SqlDb;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "loopscope-sql-"));
    db = openSqlDb({ kind: "sqlite", file: join(dir, "s.db") });
    await db.exec(`CREATE TABLE "t" ("id" TEXT PRIMARY KEY)`);
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = async () => (await db.all<{ id: string }>(`SELECT "id" FROM "t" ORDER BY "id"`)).map((r) => r.id);
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  /**
   * A transaction that inserts `id`, then awaits and fails: resolves once it
   * is open and waiting, with the promise of its end.
   */
  const openThenFail = async (id: string, message: string) => {
    let reachedAwait!: () => void;
    const awaiting = new Promise<void>((resolve) => (reachedAwait = resolve));
    const failing = db.transaction(async (tx) => {
      await tx.run(`INSERT INTO "t" ("id") VALUES (?)`, [id]);
      reachedAwait();
      await pause();
      throw new Error(message);
    });
    await awaiting;
    return { failing };
  };

  it("keeps another caller's writes, made while a transaction awaited, when that transaction rolls back", async () => {
    const { failing } = await openThenFail("a", "a fails");
    // Both arrive while `failing` is open and waiting: neither may become part of it.
    const plain = db.run(`INSERT INTO "t" ("id") VALUES ('b')`);
    const own = db.transaction((tx) => tx.run(`INSERT INTO "t" ("id") VALUES ('c')`));
    await expect(failing).rejects.toThrow("a fails");
    expect(await plain).toBe(1);
    expect(await own).toBe(1);
    expect(await ids()).toEqual(["b", "c"]);
  });

  it("answers another caller's read during an open transaction with what is committed, and queues its INSERT … RETURNING", async () => {
    await db.run(`INSERT INTO "t" ("id") VALUES ('kept')`);
    const { failing } = await openThenFail("rolled-back", "fails");
    // Not the open transaction's row, which is about to go.
    expect((await db.all<{ id: string }>(`SELECT "id" FROM "t" ORDER BY "id"`)).map((r) => r.id)).toEqual(["kept"]);
    expect(await db.get(`SELECT "id" FROM "t" WHERE "id" = 'rolled-back'`)).toBeUndefined();
    // It returns rows, and it writes: it waits for its turn rather than joining the transaction.
    const returning = db.all<{ id: string }>(`INSERT INTO "t" ("id") VALUES ('returned') RETURNING "id"`);
    await expect(failing).rejects.toThrow("fails");
    expect(await returning).toEqual([{ id: "returned" }]);
    expect(await ids()).toEqual(["kept", "returned"]);
  });

  it("lets a transaction's own nested calls join it, across awaits", async () => {
    const result = await db.transaction(async (tx) => {
      await tx.run(`INSERT INTO "t" ("id") VALUES ('a')`);
      await pause();
      // Nested: runs at once inside the open transaction (waiting for a turn would never end).
      return db.transaction(async (inner) => {
        await inner.run(`INSERT INTO "t" ("id") VALUES ('b')`);
        return (await inner.all<{ id: string }>(`SELECT "id" FROM "t" ORDER BY "id"`)).map((r) => r.id);
      });
    });
    expect(result).toEqual(["a", "b"]);
    expect(await ids()).toEqual(["a", "b"]);
  });

  it("refuses to close the connection from inside its own transaction, rather than wait for itself", async () => {
    await expect(db.transaction(() => db.close())).rejects.toThrow("close() was called inside a transaction of the connection it closes");
    expect(await ids()).toEqual([]);
  });

  it("runs a statement that cannot be in a transaction (VACUUM) after the open one ends", async () => {
    let release!: () => void;
    const held = db.transaction(async (tx) => {
      await tx.run(`INSERT INTO "t" ("id") VALUES ('a')`);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await pause();
    const vacuum = db.exec(`VACUUM`);
    release();
    await held;
    await vacuum;
    expect(await ids()).toEqual(["a"]);
  });
});
