const LABELS: Record<string, string> = {
  count: "Count",
  limit: "Limit",
  outputHashes: "Output hashes",
  diffHashes: "Diff hashes",
  failureSignatures: "Failure signatures",
  failingCounts: "Failing tests",
  queries: "Queries without new information",
  blockers: "Blockers",
  completedWork: "Completed work",
  outputHash: "Output hash",
  summaries: "Summaries",
};

const isHash = (v: unknown): v is string => typeof v === "string" && /^[0-9a-f]{32,}$/.test(v);

function Value({ value }: { value: unknown }) {
  if (isHash(value)) return <code title={value}>{value.slice(0, 12)}</code>;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return <span>{String(value)}</span>;
  return <code>{JSON.stringify(value)}</code>;
}

/** Runs of equal neighbours, in order: `a a a b` → `[a, 3], [b, 1]` (three identical hashes read as one, ×3). */
function groupRepeats(values: readonly unknown[]): [unknown, number][] {
  const out: [unknown, number][] = [];
  for (const v of values) {
    const last = out.at(-1);
    if (last !== undefined && JSON.stringify(last[0]) === JSON.stringify(v)) last[1]++;
    else out.push([v, 1]);
  }
  return out;
}

/** A list of evidence values: numbers (failing counts) as their trend, `3 → 3 → 2`; anything else with repeats grouped. */
function ValueList({ values }: { values: readonly unknown[] }) {
  if (values.every((v) => typeof v === "number")) return <span>{values.join(" → ")}</span>;
  return (
    <ul className="halt-evidence-list">
      {groupRepeats(values).map(([item, times], i) => <li key={i}><Value value={item} />{times > 1 ? ` ×${times}` : ""}</li>)}
    </ul>
  );
}

/** A finding's evidence (hashes shortened, the full value on hover), or the runtime's own. */
export function HaltEvidence({ evidence }: { evidence: unknown }) {
  if (!evidence || typeof evidence !== "object") return null;
  const entries = Object.entries(evidence as Record<string, unknown>).filter(
    ([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0),
  );
  if (entries.length === 0) return null;
  return (
    <dl className="halt-evidence" aria-label="Evidence">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{LABELS[k] ?? k}</dt>
          <dd>
            {Array.isArray(v) ? (
              <ValueList values={v} />
            ) : (
              <Value value={v} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
