/** One line of a finding's evidence, ready to show. */
export interface EvidenceLine {
  label: string;
  values: string[];
}

const LABELS: Record<string, string> = {
  outputHashes: "Output hashes",
  diffHashes: "Diff hashes",
  failureSignatures: "Failure signatures",
  failingCounts: "Failing tests",
  blockers: "Blockers",
  completedWork: "Completed work",
  queries: "Repeated queries",
  files: "Files edited and undone",
  command: "Check script",
  loopQueries: "Research queries in the loop",
  loopOutputHashes: "Outputs of the loop's turns",
  summaries: "Summaries",
  outputHash: "Output hash",
  diffHash: "Diff hash",
  verificationFailure: "Verification failure",
};

/** Shown elsewhere in the finding's row (count / limit). */
const SKIP = new Set(["count", "limit"]);

/**
 * A finding's evidence (detector or runtime, any JSON) as labelled lines:
 * arrays become their items, objects their JSON, empty values are left out.
 * Never throws; long values are cut.
 */
export function describeEvidence(evidence: unknown): EvidenceLine[] {
  if (evidence === null || evidence === undefined) return [];
  if (typeof evidence !== "object" || Array.isArray(evidence)) return [{ label: "Evidence", values: toValues(evidence) }];
  const out: EvidenceLine[] = [];
  for (const [key, value] of Object.entries(evidence as Record<string, unknown>)) {
    if (SKIP.has(key)) continue;
    const values = toValues(value);
    if (values.length) out.push({ label: Object.hasOwn(LABELS, key) ? LABELS[key] : humanizeKey(key), values });
  }
  return out;
}

/** Repeats in a row are the point of the evidence: `a, a, a` reads `a ×3`. */
function collapseRepeats(values: string[]): string[] {
  const out: string[] = [];
  let n = 0;
  values.forEach((v, i) => {
    n++;
    if (values[i + 1] !== v) {
      out.push(n > 1 ? `${v} ×${n}` : v);
      n = 0;
    }
  });
  return out;
}

function toValues(v: unknown): string[] {
  if (v === null || v === undefined || v === "") return [];
  if (Array.isArray(v)) return collapseRepeats(v.slice(-10).flatMap(toValues)).slice(0, 10);
  if (typeof v === "object") {
    try {
      return [clip(JSON.stringify(v), 300)];
    } catch {
      return [];
    }
  }
  return [clip(String(v), 300)];
}

function humanizeKey(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
