import type { InvalidParam } from "@/lib/format/runs-query";

/** Parameters of the URL that were ignored, and why (an old or hand-edited link still opens). */
export function InvalidParamsNotice({ invalid }: { invalid: InvalidParam[] }) {
  if (invalid.length === 0) return null;
  return (
    <div className="notice warn" role="status">
      <strong>Ignored in this link:</strong>{" "}
      {invalid.map((i, n) => (
        <span key={`${i.param}-${n}`}>
          {n > 0 ? "; " : ""}
          <code>{i.param}={i.value}</code> ({i.reason})
        </span>
      ))}
    </div>
  );
}

/** The database could not be read: what failed and where to look. */
export function RunsLoadError({ message, database }: { message: string; database: string }) {
  return (
    <div className="notice bad" role="alert">
      <p><strong>Could not read the runs from the database</strong> ({database}):</p>
      <pre className="error-text">{message}</pre>
      <p>Check <code>DATABASE_URL</code> and that the database is reachable; <code>npx loopscope migrate</code> prepares a new one.</p>
    </div>
  );
}
