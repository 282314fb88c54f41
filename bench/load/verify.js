// Reads a pass's stored events back: the acknowledged ones must all be there, and none twice.
import pg from "pg";

/** Compares the events stored under `prefix` with the set of acknowledged keys (`runId\0eventId`). */
export async function verifyStored(kind, databaseUrl, prefix, accepted) {
  const rows = [];
  const sql = `SELECT "runId","eventId" FROM "Event" WHERE "eventId" LIKE '${prefix}%'`;
  if (kind === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(databaseUrl.slice("file:".length), { readonly: true });
    for (const r of db.prepare(sql).iterate()) rows.push(r);
    db.close();
  } else {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    for (const r of (await client.query(sql)).rows) rows.push(r);
    await client.end();
  }
  const stored = new Set(rows.map((r) => `${r.runId}\u0000${r.eventId}`));
  let lost = 0;
  for (const k of accepted) if (!stored.has(k)) lost++;
  let extra = 0;
  for (const k of stored) if (!accepted.has(k)) extra++;
  return { stored: rows.length, duplicated: rows.length - stored.size, lost, extra };
}
