interface FindingLike {
  haltReason: string;
  signal: string | null;
}

/**
 * The finding that halted a run last: the latest of the run's halt signal
 * (runtime halts have the signal "runtime"), else the latest of its halt reason.
 */
export function findHaltFinding<F extends FindingLike>(
  run: { haltReason: string | null; haltSignal: string | null; findings: readonly F[] },
): F | null {
  if (!run.haltReason) return null;
  const same = run.findings.filter((f) => f.haltReason === run.haltReason);
  return same.findLast((f) => (f.signal ?? "runtime") === run.haltSignal) ?? same.at(-1) ?? null;
}
