/**
 * Loop evidence stated by an SDD run report (`formats.md` §1, last
 * paragraph): an exhausted budget, a repeated command, a diagnostic seen
 * again and again.
 */
import type { RunFactFields } from "./types";

/** One piece of loop evidence stated by a report, with a sentence to show. */
export interface LoopEvidence {
  kind: "budget" | "repeated_command" | "diagnostic";
  text: string;
}

/**
 * A diagnostic counts as loop evidence from this many occurrences: the same
 * default as the detector's `repeated_failure` (3 in a row).
 */
export const DIAGNOSTIC_EVIDENCE_MIN_COUNT = 3;

/**
 * Lists the loop evidence in a report's facts, in the order budgets, repeated
 * commands, diagnostics.
 *
 * @example
 * listReportLoopEvidence({ repeatedCommands: [{ command: "npm test -- search", count: 7 }] })
 * // [{ kind: "repeated_command", text: "`npm test -- search` ran 7 times" }]
 */
export function listReportLoopEvidence(facts: RunFactFields): LoopEvidence[] {
  const evidence: LoopEvidence[] = [];
  for (const budget of facts.budgets ?? []) {
    // `0 / 0` is a disabled budget (e.g. no web access), not an exhausted one.
    if (budget.max !== null && budget.used > 0 && budget.used >= budget.max) {
      evidence.push({ kind: "budget", text: `${budget.name} budget used up: ${budget.used} / ${budget.max}` });
    }
  }
  for (const repeated of facts.repeatedCommands ?? []) {
    // The report lists only commands it saw more than once; a count of 1 says nothing.
    if (repeated.count >= 2) {
      evidence.push({ kind: "repeated_command", text: `\`${repeated.command}\` ran ${repeated.count} times` });
    }
  }
  for (const diagnostic of facts.diagnostics ?? []) {
    if (diagnostic.count >= DIAGNOSTIC_EVIDENCE_MIN_COUNT) {
      const where = `[${diagnostic.source}] ${diagnostic.location}`;
      const message = diagnostic.message === undefined ? "" : `: ${diagnostic.message}`;
      evidence.push({ kind: "diagnostic", text: `${where} seen ${diagnostic.count} times${message}` });
    }
  }
  return evidence;
}
