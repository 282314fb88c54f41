/**
 * What a comparison of runs reads about each run: its stored summary, its
 * built graph (lib/domain/graph/build-run-graph), its findings and its
 * verification results in run order. Plain data: it crosses to the browser.
 */
import type { VerifyOutcome } from "../graph/failing-tests";
import type { RunGraph } from "../graph/types";
import type { StoredFinding } from "../runs/stored-finding";

/** The columns of a stored run that a comparison shows. */
export interface CompareRunSummary {
  id: string;
  title: string | null;
  ticketId: string | null;
  profile: string | null;
  format: string;
  status: string;
  terminalStatus: string | null;
  stopReason: string | null;
  haltReason: string | null;
  startedAt: number | null;
  durationMs: number | null;
  steps: number;
  tokens: number;
  costUsd: number;
  eventCount: number;
  findingCount: number;
}

export interface CompareRunInput {
  run: CompareRunSummary;
  graph: RunGraph;
  findings: readonly StoredFinding[];
  /** The run's `verify.result`s in run order (at most the read model's cap). */
  verify: readonly VerifyOutcome[];
  /** More verification results were stored than were read. */
  verifyCapped: boolean;
}
