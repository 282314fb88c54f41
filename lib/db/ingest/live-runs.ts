import type { ParseItem } from "@/lib/domain/formats/types";
import type { SourceFormat } from "@/lib/domain/protocol/types";
import type { DetectorConfig, Finding } from "@/lib/domain/detector";
import { RunAccumulator, type EdgeTotals, type NodeTotals, type RunSummary, type RuntimeHalt } from "@/lib/domain/runs/run-accumulator";
import { BatchPacker, type PackedBatch } from "./packed-batch";
import type { BatchCollector } from "./read-batches";

/**
 * What one batch did to one run's accumulator, worked out by the parse thread
 * as it parsed the batch, on the assumption that every event of the run in it
 * is new and the run's stored state is what the thread applied before. The
 * writer checks both in its transaction (`takeLiveRun`) and stores this
 * instead of applying the events itself; where either fails, it applies them
 * as without a parse thread.
 */
export interface LiveRun {
  runId: string;
  /**
   * The thread's accumulator this came from, unique across threads: the
   * writer takes a run's results only from the accumulator it took them from
   * before, or, for a run its transaction created, from one that had applied
   * nothing yet.
   */
  token: string;
  format: SourceFormat;
  /** Events the accumulator had applied before this batch, and those it applied of it (each id once, as the writer inserts them). */
  before: number;
  applied: number;
  /** Findings the batch's events triggered and task findings they updated, in order. */
  found: Finding[];
  /** Of `found`, the new ones. */
  newFindings: number;
  halts: RuntimeHalt[];
  summary: RunSummary;
  nodes: NodeTotals[];
  edges: EdgeTotals[];
}

/** A run's accumulator in the parse thread. */
interface ThreadRun {
  acc: RunAccumulator;
  token: string;
}

/** A run's part of the batch being parsed; null once the thread gave up on it for this batch. */
interface BatchRun {
  run: ThreadRun;
  before: number;
  applied: number;
  found: Finding[];
  newFindings: number;
}

/** Accumulators kept by the thread, as many as the writer caches. */
const MAX_THREAD_RUNS = 5000;

/**
 * The parse thread's accumulators: one per run, fed each event as it is
 * parsed (the object the parser made, so the writer never parses it again).
 * A run is given up on, and its accumulator dropped, at an event older than
 * one applied (a late event: the writer replays the run from what is stored)
 * and at a document's facts or an imported run's decisions (which the writer
 * merges); a new accumulator for it applies nothing the writer takes.
 */
export class LiveRunTracker {
  private readonly runs = new Map<string, ThreadRun>();
  private serial = 0;

  constructor(
    private readonly config: Partial<DetectorConfig> | undefined,
    /** Makes tokens unique across threads. */
    private readonly prefix: string,
  ) {}

  /** A collector of one batch: packs its items (for posting) and applies its events. */
  collector(): BatchCollector<PackedBatch> {
    const packer = new BatchPacker(true);
    const inBatch = new Map<string, BatchRun | null>();
    /** Per run, the event ids of the batch: an id seen before in it is a duplicate, which the writer skips. */
    const ids = new Map<string, Set<string>>();
    const duplicates: number[] = [];
    let done: PackedBatch | null = null;
    const results = () => this.results(inBatch);
    return {
      push: (item) => {
        packer.push(item);
        if (item.kind === "event") {
          const e = item.event;
          let runIds = ids.get(e.runId);
          if (runIds === undefined) ids.set(e.runId, (runIds = new Set()));
          if (runIds.has(e.id)) {
            duplicates.push(packer.batch.runId.length - 1);
            return;
          }
          runIds.add(e.id);
        }
        this.apply(item, packer.batch, inBatch);
      },
      get size() {
        return packer.size;
      },
      get batch() {
        done ??= { ...packer.batch, live: results(), duplicates };
        return done;
      },
    };
  }

  private apply(item: ParseItem, b: PackedBatch, inBatch: Map<string, BatchRun | null>): void {
    if (item.kind === "error") return;
    const runId = item.kind === "event" ? item.event.runId : item.runId;
    if (item.kind !== "event") {
      this.giveUp(runId, inBatch);
      return;
    }
    let part = inBatch.get(runId);
    if (part === null) return;
    if (part === undefined) {
      let run = this.runs.get(runId);
      if (run === undefined) {
        run = { acc: new RunAccumulator(runId, item.format, this.config), token: `${this.prefix}:${++this.serial}` };
        this.trim();
      } else {
        this.runs.delete(runId);
      }
      this.runs.set(runId, run);
      part = { run, before: run.acc.eventCount, applied: 0, found: [], newFindings: 0 };
      inBatch.set(runId, part);
    }
    const e = item.event;
    const i = b.runId.length - 1;
    const tsMs = b.tsMs[i];
    const acc = part.run.acc;
    if (tsMs < acc.lastTsMs) {
      this.giveUp(runId, inBatch);
      return;
    }
    // The event as the writer would read it back from the packed batch (`eventAt`): the parsed
    // object itself, unless the packer found that its JSON does not parse back to it.
    const json = b.json[i];
    const event = b.events[i] ?? (json === null ? e : JSON.parse(json));
    const found = acc.applyEvent(event, tsMs);
    const updated = acc.updatedFindings();
    part.applied++;
    part.newFindings += found.length;
    if (found.length > 0 || updated.length > 0) part.found.push(...found, ...updated);
  }

  private giveUp(runId: string, inBatch: Map<string, BatchRun | null>): void {
    this.runs.delete(runId);
    inBatch.set(runId, null);
  }

  private results(inBatch: Map<string, BatchRun | null>): LiveRun[] {
    const out: LiveRun[] = [];
    for (const part of inBatch.values()) {
      if (part === null) continue;
      const acc = part.run.acc;
      const changed = acc.graph.takeChanged();
      out.push({
        runId: acc.runId, token: part.run.token, format: acc.summary().format, before: part.before, applied: part.applied,
        found: part.found, newFindings: part.newFindings, halts: [...acc.runtimeHalts()], summary: acc.summary(),
        nodes: changed.nodes, edges: changed.edges,
      });
    }
    return out;
  }

  private trim(): void {
    while (this.runs.size >= MAX_THREAD_RUNS) {
      const oldest = this.runs.keys().next().value;
      if (oldest === undefined) break;
      this.runs.delete(oldest);
    }
  }
}
