/**
 * An SDD run report's loop evidence (`formats.md` §1): its diagnostics
 * timeline, repeated commands and budget lines, read from `Run.facts`.
 */
import { listReportLoopEvidence } from "../formats/report-loop-evidence";
import type { RunFactFields } from "../formats/types";
import type { ReportEvidence } from "./types";

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The report evidence in a run's stored facts; `null` when the facts state
 * no diagnostics, repeated commands or budgets (protocol runs have none).
 * Entries of the wrong shape are skipped: facts are stored JSON.
 *
 * @example readReportEvidence({ repeatedCommands: [{ command: "npm test", count: 7 }] })?.items[0].text // "`npm test` ran 7 times"
 */
export function readReportEvidence(facts: unknown): ReportEvidence | null {
  if (!isRecord(facts)) return null;
  const diagnostics = (Array.isArray(facts.diagnostics) ? facts.diagnostics : []).filter(
    (d): d is ReportEvidence["diagnostics"][number] => isRecord(d) && typeof d.source === "string" && typeof d.location === "string" && typeof d.count === "number",
  );
  const repeatedCommands = (Array.isArray(facts.repeatedCommands) ? facts.repeatedCommands : []).filter(
    (r): r is ReportEvidence["repeatedCommands"][number] => isRecord(r) && typeof r.command === "string" && typeof r.count === "number",
  );
  const budgets = (Array.isArray(facts.budgets) ? facts.budgets : []).filter(
    (b): b is ReportEvidence["budgets"][number] => isRecord(b) && typeof b.name === "string" && typeof b.used === "number" && (b.max === null || typeof b.max === "number"),
  );
  if (diagnostics.length === 0 && repeatedCommands.length === 0 && budgets.length === 0) return null;
  const clean: RunFactFields = { diagnostics, repeatedCommands, budgets };
  return {
    items: listReportLoopEvidence(clean),
    // The timeline keeps the report's order (its own chronology).
    diagnostics,
    repeatedCommands: [...repeatedCommands].sort((a, b) => b.count - a.count),
    budgets,
  };
}
