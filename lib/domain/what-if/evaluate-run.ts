import type { LoopEvent } from "../protocol/types";
import { RunDetector, type DetectorConfig, type Finding } from "../detector";

export interface RunTotals {
  steps: number;
  tokens: number;
  costUsd: number;
}

export interface WhatIfHalt {
  atEventId: string;
  /** Steps (`node.completed`) done up to and including the halting event. */
  step: number;
  haltReason: string;
  signal: string;
  node: string | null;
  edge: string | null;
}

export interface WhatIfRunResult {
  findings: Finding[];
  /** Where the run would have been halted: its first finding. */
  halt: WhatIfHalt | null;
  totals: RunTotals;
  /** What halting there would have saved: everything the run spent after that point. */
  saved: RunTotals;
  /**
   * The run's own `loop.halted` events: stored among its findings as the
   * runtime's halts, which no detector setting takes away.
   */
  runtimeHalts: number;
  /**
   * A person decided on the run (`human.decision`) at or after the point
   * where it would halt: they were asked there or near there, so how the run
   * ended is their doing as much as the agent's.
   */
  personDecidedAfterHalt: boolean;
}

const NOTHING_SAVED: RunTotals = { steps: 0, tokens: 0, costUsd: 0 };

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/**
 * Re-runs the detector over one run's events, fed in stored order (ts, then
 * arrival), with another configuration; tracks where it would first halt the
 * run and what the run spent after that point.
 */
export class WhatIfEvaluator {
  private readonly detector: RunDetector;
  private readonly totals: RunTotals = { steps: 0, tokens: 0, costUsd: 0 };
  private atHalt: RunTotals | null = null;
  private halt: WhatIfHalt | null = null;
  private runtimeHalts = 0;
  private personDecidedAfterHalt = false;

  constructor(config: Partial<DetectorConfig>) {
    this.detector = new RunDetector(config);
  }

  feed(event: LoopEvent): void {
    const totals = this.totals;
    if (event.type === "node.completed") {
      totals.steps++;
      totals.tokens += num(event.tokens);
      totals.costUsd += num(event.costUsd);
    } else if (event.type === "llm.completed") {
      totals.tokens += num(event.tokens);
    } else if (event.type === "loop.halted") {
      this.runtimeHalts++;
    } else if (event.type === "human.decision" && this.halt !== null) {
      this.personDecidedAfterHalt = true;
    }
    const found = this.detector.feed(event);
    if (this.halt === null && found.length > 0) {
      const f = found[0];
      this.halt = { atEventId: f.atEventId, step: totals.steps, haltReason: f.haltReason, signal: f.signal, node: f.node, edge: f.edge };
      this.atHalt = { ...totals };
    }
  }

  result(): WhatIfRunResult {
    const { totals, atHalt } = this;
    const saved: RunTotals = atHalt
      ? { steps: totals.steps - atHalt.steps, tokens: totals.tokens - atHalt.tokens, costUsd: totals.costUsd - atHalt.costUsd }
      : { ...NOTHING_SAVED };
    return {
      findings: [...this.detector.findings], halt: this.halt, totals: { ...totals }, saved, runtimeHalts: this.runtimeHalts,
      personDecidedAfterHalt: this.personDecidedAfterHalt,
    };
  }
}

/**
 * Re-runs the detector over one run's events (in stored order) with another
 * configuration: where it would halt the run and what halting there saves.
 *
 * @example
 * evaluateWhatIf(events, { maxCycleIterations: 3 }).halt?.step // 9
 */
export function evaluateWhatIf(events: Iterable<LoopEvent>, config: Partial<DetectorConfig>): WhatIfRunResult {
  const evaluator = new WhatIfEvaluator(config);
  for (const event of events) evaluator.feed(event);
  return evaluator.result();
}

export interface WhatIfRunInput {
  runId: string;
  title: string | null;
  terminalStatus: string | null;
  status: string;
  /** The findings stored now (under the project's configuration), the runtime's own halts included. */
  currentFindings: number;
  currentHaltReason: string | null;
}

export interface WhatIfRow extends WhatIfRunInput, WhatIfRunResult {
  /**
   * Ended `done_success` yet would have been halted, and no person decided on
   * it after that point: the false alarm a stricter setting causes. A run a
   * person resumed after such a halt and that then succeeded is no false
   * alarm (the halt asked them, and they steered it), and saves nothing either.
   */
  falseAlarm: boolean;
  /** Halted now by the detector but would not be under the new configuration. */
  noLongerHalted: boolean;
}

export interface WhatIfSummary {
  runs: number;
  wouldHalt: number;
  falseAlarms: number;
  noLongerHalted: number;
  saved: RunTotals;
}

/**
 * Combines a run's facts with its re-evaluation. Halting a run that went on to
 * succeed saves nothing (it throws the work away), so a false alarm's `saved`
 * is zero. Only the detector's findings can disappear under another setting:
 * a run whose stored findings are all the runtime's own halts stays halted.
 */
export function toWhatIfRow(input: WhatIfRunInput, result: WhatIfRunResult): WhatIfRow {
  const succeededAfterHalt = result.halt !== null && input.terminalStatus === "done_success";
  const falseAlarm = succeededAfterHalt && !result.personDecidedAfterHalt;
  return {
    ...input,
    ...result,
    saved: succeededAfterHalt ? { ...NOTHING_SAVED } : result.saved,
    falseAlarm,
    noLongerHalted: result.halt === null && input.currentFindings > result.runtimeHalts,
  };
}

/** Totals over a what-if re-run; false alarms add nothing to what is saved (see `toWhatIfRow`). */
export function summarizeWhatIf(rows: readonly WhatIfRow[]): WhatIfSummary {
  const saved: RunTotals = { steps: 0, tokens: 0, costUsd: 0 };
  let wouldHalt = 0;
  let falseAlarms = 0;
  let noLongerHalted = 0;
  for (const r of rows) {
    if (r.halt) wouldHalt++;
    if (r.falseAlarm) falseAlarms++;
    if (r.noLongerHalted) noLongerHalted++;
    saved.steps += r.saved.steps;
    saved.tokens += r.saved.tokens;
    saved.costUsd += r.saved.costUsd;
  }
  return { runs: rows.length, wouldHalt, falseAlarms, noLongerHalted, saved };
}
