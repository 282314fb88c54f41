/**
 * Batch detection: a whole run at once, ordered as the spec reads it, with
 * the same results as feeding a `RunDetector` one event at a time.
 */
import type { LoopEvent } from "../protocol/types";
import type { DetectorConfig } from "./config";
import type { Finding } from "./findings";
import { getSortInstant } from "./instant";
import { RunDetector } from "./run-detector";

/**
 * A run's events in the spec's order: later copies of an id dropped (the
 * first copy to arrive wins, even if a later one differs), then sorted by
 * the instant of `ts` (offsets honoured, no offset = UTC), ties by the given
 * (arrival) order.
 */
export function orderRunEvents(events: readonly LoopEvent[]): LoopEvent[] {
  const seen = new Set<string>();
  const kept: LoopEvent[] = [];
  for (const event of events) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    kept.push(event);
  }
  const instants = new Float64Array(kept.length);
  let sorted = true;
  for (let i = 0; i < kept.length; i++) {
    instants[i] = getSortInstant(kept[i].ts);
    if (i > 0 && instants[i] < instants[i - 1]) sorted = false;
  }
  if (sorted) return kept;
  const positions = Array.from(kept, (_, i) => i);
  positions.sort((a, b) => instants[a] - instants[b] || a - b);
  return positions.map((i) => kept[i]);
}

/**
 * Detects loops in one run given as a batch of events (any order,
 * duplicates allowed).
 *
 * @example detectRun(events, { maxCycleIterations: 5 }).map((f) => f.signal)
 */
export function detectRun(events: readonly LoopEvent[], config?: Partial<DetectorConfig>): Finding[] {
  return detectOrderedRun(orderRunEvents(events), config);
}

/** Feeds events already in the spec's order to a fresh detector. */
export function detectOrderedRun(ordered: readonly LoopEvent[], config?: Partial<DetectorConfig>): Finding[] {
  const detector = new RunDetector(config);
  for (const event of ordered) detector.feed(event);
  return detector.findings.slice();
}
