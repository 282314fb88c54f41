import { execFileSync } from "node:child_process";
import { readFileSync, existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { closeDb, getSql } from "./client";
import { testDatabaseKinds } from "./testing/test-databases";
import { useAppDatabase } from "./testing/app-database";
import { createSession, createSignInLink, createUser } from "./users";
import { createApiKey } from "./api-keys";
import { createShareLink } from "./share-links";

const kinds = await testDatabaseKinds();

/**
 * The database holds no secret in clear: after creating users with passwords,
 * sessions, sign-in links, API keys and share links, a full dump of the
 * database (pg_dump; SQLite's file bytes, WAL included, and a text dump of
 * every table) contains none of the passwords, keys or tokens.
 */
describe.each(kinds)("secrets at rest (%s)", (kind) => {
  const db = useAppDatabase(kind);

  async function dump(): Promise<string> {
    const t = db();
    if (t.config.kind === "postgres") return execFileSync("pg_dump", ["--data-only", "--inserts", t.config.url], { encoding: "utf8", maxBuffer: 64 << 20 });
    const sql = await getSql();
    const tables = await sql.all<{ name: string }>(`SELECT "name" FROM sqlite_master WHERE "type" = 'table'`);
    const rows: string[] = [];
    for (const { name } of tables) rows.push(JSON.stringify(await sql.all(`SELECT * FROM "${name}"`)));
    const file = t.config.file;
    const bytes = [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString("latin1"));
    return [...rows, ...bytes].join("\n");
  }

  it("stores only hashes of passwords, session and link tokens, API keys and share tokens", async () => {
    const secrets: string[] = [];
    const passwords = ["first-password-Zq9!x", "second-password-Wv7?y"];
    const users = [
      await createUser({ name: "admin-one", role: "admin", password: passwords[0] }),
      await createUser({ name: "viewer-two", role: "viewer", password: passwords[1] }),
    ];
    secrets.push(...passwords);
    for (const u of users) secrets.push((await createSession(u.id, "Chrome on Linux")).token);
    secrets.push((await createSignInLink("viewer-two"))!.token);
    secrets.push((await createApiKey("agent", { scope: "ingest+control" })).key, (await createApiKey("ci", { scope: "ingest" })).key);
    const sql = await getSql();
    await sql.run(`INSERT INTO "Run" ("id","format","createdAt","updatedAt") VALUES ('run-secret','protocol',0,0)`);
    secrets.push((await createShareLink({ runId: "run-secret", createdBy: "admin-one", expiresInMs: 86_400_000, redact: false }))!.token);
    await closeDb();

    const text = await dump();
    expect(text).toContain("admin-one");
    expect(text).toContain("scrypt$");
    for (const secret of secrets) {
      // The whole secret, and the random part without its prefix.
      expect(text.includes(secret), `found ${secret.slice(0, 8)}… in the dump`).toBe(false);
      expect(text.includes(secret.replace(/^ls[a-z]_/, ""))).toBe(false);
    }
  });
});
