/**
 * What every view of a halt shares (the run page, the graph, the decision
 * panel): why it halted, where, what was counted, and at which event. A
 * detector `Finding` and a runtime's own `loop.halted` are both stored so.
 */
export interface HaltLocation {
  haltReason: string;
  /** The detector's signal or budget name; "runtime" for the runtime's own halt. */
  signal: string | null;
  node: string | null;
  edge: string | null;
  cycleId: string | null;
  taskId: string | null;
  recommendation: string | null;
  count: number | null;
  limit: number | null;
  atEventId: string;
}

/** A finding as stored with its run (table `Finding`). */
export interface StoredFinding extends HaltLocation {
  id: number;
  /** `detector` or `runtime`. */
  source: string;
  loopType: string | null;
}
