// A signed-in session for the benchmarks' HTTP requests: the dashboard's pages
// and read APIs need one. Writes a bench user (viewer) and a session straight
// into the benchmark's database, as a sign-in would (only the token's hash is
// stored), and returns the Cookie header that carries it.
import { randomUUID } from "node:crypto";

/** @param {import("../lib/db/sql.ts").SqlDb} db */
export async function createBenchSession(db) {
  const { newToken, hashToken } = await import("../lib/auth/secrets.ts");
  const now = Date.now();
  await db.run(
    `INSERT INTO "User" ("id","name","role","createdAt","updatedAt") VALUES (?, 'bench', 'viewer', ?, ?) ON CONFLICT ("name") DO NOTHING`,
    [randomUUID(), now, now],
  );
  const user = await db.get(`SELECT "id" FROM "User" WHERE "name" = 'bench'`);
  const token = newToken("lss_");
  await db.run(
    `INSERT INTO "Session" ("id","tokenHash","userId","createdAt","expiresAt","lastSeenAt","client") VALUES (?, ?, ?, ?, ?, ?, 'bench')`,
    [randomUUID(), hashToken(token), user.id, now, now + 86_400_000, now],
  );
  return `loopscope_session=${token}`;
}
