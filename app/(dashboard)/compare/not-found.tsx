import { headers } from "next/headers";
import Link from "next/link";
import { requirePageUser } from "@/lib/auth/access";
import { findMissingRuns } from "@/lib/db/compare";
import { readCompareQuery } from "@/lib/domain/compare/compare-query";
import { revealInvisible } from "@/lib/domain/access/visible-text";
import "@/components/compare/compare.css";

/** The runs asked for that are not stored, read again from the request's URL (a not-found page gets no search params). */
async function readMissingRuns(): Promise<string[]> {
  const path = (await headers()).get("x-loopscope-path") ?? "";
  const params: Record<string, string[]> = {};
  for (const [k, v] of new URL(path, "http://x").searchParams) (params[k] ??= []).push(v);
  const { query } = readCompareQuery(params);
  return query.kind === "runs" ? findMissingRuns(query.runIds) : [];
}

/** A comparison naming a run id that is not stored (a typo, a pruned run, or one not ingested yet). */
export default async function CompareNotFound() {
  await requirePageUser();
  const missing = await readMissingRuns();
  return (
    <main className="page">
      <div className="notice warn" role="alert">
        <p><strong>{missing.length === 1 ? "No run with this id is stored" : "No runs with these ids are stored"}:</strong></p>
        <ul>{missing.map((id) => <li key={id}><code>{revealInvisible(id)}</code></li>)}</ul>
        <p>They may not be ingested yet, or were pruned:</p>
        <pre className="error-text">npx loopscope ingest path/to/the/run/files</pre>
        <p><Link href="/runs">Pick runs to compare from the history</Link></p>
      </div>
    </main>
  );
}
