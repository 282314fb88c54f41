import { getSql, getDb } from "@/lib/db/client";
import { describeDb } from "@/lib/db/config";

export const dynamic = "force-dynamic";

/** GET /api/health: 200 once the database answers (migrated), 503 otherwise. */
export async function GET(): Promise<Response> {
  try {
    const sql = await getSql();
    await sql.get(`SELECT 1 AS "ok"`);
    return Response.json({ ok: true, database: describeDb(getDb().config).split(" ")[0] });
  } catch (error) {
    return Response.json({ ok: false, error: error instanceof Error ? error.message : String(error) }, { status: 503 });
  }
}
