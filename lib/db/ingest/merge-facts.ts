import type { RunFactFields } from "@/lib/domain/formats/types";

/** Which document facts come from, from their markdown (a run report starts `# Run Report`). */
export function withDocument(facts: RunFactFields): RunFactFields {
  if (facts.document || facts.markdown === undefined) return facts;
  return { ...facts, document: /^\s*#\s*Run Report/i.test(facts.markdown) ? "report" : "retrospective" };
}

/**
 * Merges facts about one run from two documents. A later document fills in and
 * overrides an earlier one's, except that a retrospective never overrides its
 * run report (the report says `1689.88s` where the retrospective rounds to
 * `1689.9s`); `extra` is merged key by key.
 */
export function mergeFacts(a: RunFactFields, b: RunFactFields): RunFactFields {
  const fillOnly = a.document === "report" && b.document === "retrospective";
  const out: RunFactFields = { ...a };
  for (const [k, v] of Object.entries(b) as [keyof RunFactFields, unknown][]) {
    if (v === undefined || k === "markdown" || k === "document") continue;
    if (fillOnly && out[k] !== undefined) continue;
    (out as Record<string, unknown>)[k] = v;
  }
  if (a.extra || b.extra) out.extra = fillOnly ? { ...b.extra, ...a.extra } : { ...a.extra, ...b.extra };
  out.document = a.document === "report" || b.document === "report" ? "report" : (b.document ?? a.document);
  return out;
}
