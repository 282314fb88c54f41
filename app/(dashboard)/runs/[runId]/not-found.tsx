import Link from "next/link";

/** A run id that is not stored (a typo, or a run not ingested yet). */
export default function RunNotFound() {
  return (
    <main className="page">
      <div className="notice warn" role="alert">
        <p><strong>No run with this id is stored.</strong> It may not be ingested yet:</p>
        <pre className="error-text">npx loopscope ingest path/to/the/run/files</pre>
        <p><Link href="/runs">Search the run history</Link></p>
      </div>
    </main>
  );
}
