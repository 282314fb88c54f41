import type { SourceFormat } from "@/lib/domain/protocol/types";
import type { ImportedDecision, RunFactFields } from "@/lib/domain/formats/types";
import type { OtherItem, PackedBatch } from "./packed-batch";
import { mergeFacts, withDocument } from "./merge-facts";
import type { RejectedLine } from "./writer";

/** What a batch asks the writer to store, read from it before anything is written. */
export interface BatchPlan {
  /** The events to insert: indexes into the batch, each (runId, eventId) once. */
  rows: number[];
  /** Events the batch holds more than once (after the first). */
  duplicates: number;
  /** Each run's facts from the batch's documents, merged in order. */
  factsByRun: Map<string, { format: SourceFormat; facts: RunFactFields }>;
  rejected: RejectedLine[];
  /** Every run of the batch, with the format it is created under if new. */
  formats: Map<string, SourceFormat>;
  documents: { runId: string; column: "report" | "retrospective"; markdown: string }[];
  decisions: { runId: string; decision: ImportedDecision }[];
  /** Runs that facts or decisions of this batch are about: applied by the writer, whatever the parse thread did. */
  merged: Set<string>;
}

/**
 * Reads a packed batch: which events to insert (repeated ids found by the
 * parse thread when it packed the batch, else here), and the facts,
 * documents, imported decisions and rejected lines between them, in order.
 */
export function planBatch(batch: PackedBatch): BatchPlan {
  const plan: BatchPlan = {
    rows: [], duplicates: 0, factsByRun: new Map(), rejected: [], formats: new Map(), documents: [], decisions: [], merged: new Set(),
  };
  const { rows, factsByRun, formats } = plan;
  const takeOther = (item: OtherItem) => {
    if (item.kind === "error") {
      plan.rejected.push({ line: item.line, message: item.message, excerpt: null, runId: null });
      return;
    }
    plan.merged.add(item.runId);
    if (!formats.has(item.runId)) formats.set(item.runId, item.format);
    if (item.kind === "run") {
      const prev = factsByRun.get(item.runId);
      const facts = withDocument(item.facts);
      if (facts.markdown) plan.documents.push({ runId: item.runId, column: facts.document === "report" ? "report" : "retrospective", markdown: facts.markdown });
      factsByRun.set(item.runId, { format: item.format, facts: prev ? mergeFacts(prev.facts, facts) : facts });
      return;
    }
    // Another Loopscope's run: created under the format it was first stored under, with its people's decisions.
    for (const decision of item.decisions) plan.decisions.push({ runId: item.runId, decision });
  };
  const others = batch.others;
  let next = 0;
  const seen = new Map<string, Set<string>>();
  let runIds: Set<string> | undefined;
  const repeated = batch.duplicates;
  let nextRepeated = 0;
  for (let i = 0; i < batch.runId.length; i++) {
    while (next < others.length && others[next].at <= i) takeOther(others[next++].item);
    const runId = batch.runId[i];
    // A batch holds runs in stretches: the run's state is looked up when the run changes, not per event.
    if (i === 0 || runId !== batch.runId[i - 1]) {
      if (!formats.has(runId)) formats.set(runId, batch.format[i]);
      if (repeated === undefined) {
        runIds = seen.get(runId);
        if (runIds === undefined) seen.set(runId, (runIds = new Set()));
      }
    }
    if (repeated !== undefined) {
      if (repeated[nextRepeated] === i) {
        nextRepeated++;
        plan.duplicates++;
      } else {
        rows.push(i);
      }
      continue;
    }
    const eventId = batch.eventId[i];
    if (runIds!.has(eventId)) {
      plan.duplicates++;
      continue;
    }
    runIds!.add(eventId);
    rows.push(i);
  }
  while (next < others.length) takeOther(others[next++].item);
  return plan;
}
