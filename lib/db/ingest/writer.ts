import { createHash } from "node:crypto";
import type { SqlDb } from "../sql";
import type { SourceFormat } from "@/lib/domain/protocol/types";
import type { ImportedDecision, ParseItem, RunFactFields } from "@/lib/domain/formats/types";
import type { DetectorConfig } from "@/lib/domain/detector";
import { RunAccumulator } from "@/lib/domain/runs/run-accumulator";
import { CHECKPOINT_EVERY, RunCheckpoints } from "@/lib/domain/runs/run-checkpoints";
import { insertEventRows } from "./event-rows";
import { eventAt, isPackedBatch, packItems, type PackedBatch } from "./packed-batch";
import type { LiveRun } from "./live-runs";
import { findingKey, insertFindings, insertRuntimeHalts, rebuildAccumulator, writeRunState } from "./run-store";
import { mergeFacts } from "./merge-facts";
import { planBatch } from "./batch-plan";
import { callsForNotification, enqueueRunNotifications, loadRules } from "../notify";
import type { NotifyRuleSpec } from "@/lib/domain/notify/types";

export interface IngestCounts {
  eventsNew: number;
  eventsDuplicate: number;
  linesRejected: number;
  runsNew: number;
  runsTouched: Set<string>;
  findingsNew: number;
  /** Unterminated last lines not valid yet (half-written, most likely): left for the next ingest. */
  linesHeld: number;
  /** Files and folders that could not be read (each is also a rejected line). */
  pathsUnreadable: number;
}

export function emptyCounts(): IngestCounts {
  return { eventsNew: 0, eventsDuplicate: 0, linesRejected: 0, runsNew: 0, runsTouched: new Set(), findingsNew: 0, linesHeld: 0, pathsUnreadable: 0 };
}

/** Where a batch came from: stored with its rows in the same transaction. */
export interface BatchSource {
  sourceId: number | null;
  /** The name errors are stored and shown under (a path, or `api:<key>`). */
  name: string;
  /** Offset and line count to commit with the rows (file sources only). */
  progress?: { offset: number; lineCount: number; fingerprint: string | null; size: number; mtimeMs: number; format: string | null };
}

export interface RejectedLine {
  line: number | null;
  message: string;
  excerpt: string | null;
  runId: string | null;
}

interface CachedRun {
  acc: RunAccumulator;
  format: SourceFormat;
  facts: RunFactFields | null;
  /** Kept once the run had a late event: the next late batch replays from the last one before it. */
  checkpoints: RunCheckpoints | null;
}

const MAX_CACHED_RUNS = 5000;

/** How `loadRun` found a run: its batch's parse-thread results taken, its cached accumulator valid, or rebuilt. */
type Loaded = { kind: "live" | "cached" | "rebuilt"; format: SourceFormat; facts: string | null };

/**
 * Stores parsed items in the database, once. Keeps one accumulator per run in
 * memory so that summaries, graph totals and live detector findings follow
 * every new event at a constant cost; an accumulator is rebuilt from the
 * stored events when another writer touched the run meanwhile (its stored
 * event count differs) or when an event arrives older than the newest one
 * applied (a late event is placed where its ts says, and the run re-evaluated:
 * from the run's last checkpoint before the late batch's oldest event, so a
 * buffered batch arriving late costs a replay of the run's tail, not of all of it).
 *
 * A batch from a parse thread carries what its events did to the thread's
 * own accumulators (`LiveRun`): for a run whose stored state is the one the
 * thread's accumulator started the batch from, and whose events the batch all
 * stored, the writer stores those results and applies nothing itself; any
 * other run of the batch is applied here as above.
 */
export class IngestWriter {
  private readonly cache = new Map<string, CachedRun>();
  /** Per run, the parse-thread accumulator whose results were stored last (and nothing since), and its event count then. */
  private readonly liveTokens = new Map<string, { token: string; eventCount: number }>();
  /** Run batches stored from a parse thread's results (for tests). */
  liveRunsTaken = 0;

  constructor(
    private readonly db: SqlDb,
    private readonly config?: Partial<DetectorConfig>,
    /** Events between checkpoints of a run that had late events (tests use small values). */
    private readonly checkpointEvery = CHECKPOINT_EVERY,
  ) {}

  /** The detector settings this writer applies events with (a parse thread's accumulators use the same). */
  get detectorConfig(): Partial<DetectorConfig> | undefined {
    return this.config;
  }

  /** Writes one batch in one transaction; returns the rejected lines it stored. */
  async writeBatch(input: readonly ParseItem[] | PackedBatch, source: BatchSource, counts: IngestCounts): Promise<RejectedLine[]> {
    const batch = isPackedBatch(input) ? input : packItems(input, false);
    // Read before the transaction: it needs no database, and SQLite's write lock is held the shorter.
    const { rows, duplicates, factsByRun, rejected, formats, documents, decisions, merged } = planBatch(batch);
    return this.db.transaction(async (tx) => {
      counts.eventsDuplicate += duplicates;
      // Sorted, so that concurrent writers lock runs in one order (no deadlocks on PostgreSQL).
      const resync = new Set<string>();
      /** Runs this transaction created: none of their events is stored yet. */
      const created = new Set<string>();
      const offered = new Map<string, LiveRun>();
      for (const l of batch.live ?? []) if (!merged.has(l.runId)) offered.set(l.runId, l);
      /** Runs whose parse-thread results are taken, provided every event of theirs in the batch is stored now. */
      const live = new Map<string, LiveRun & { loaded: Loaded; stored: number }>();
      for (const runId of [...formats.keys()].sort()) {
        const loaded = await this.loadRun(tx, runId, formats.get(runId)!, counts, created, offered.get(runId));
        if (loaded.kind === "rebuilt") resync.add(runId);
        if (loaded.kind === "live") live.set(runId, { ...offered.get(runId)!, loaded, stored: 0 });
      }
      for (const d of decisions) await insertImportedDecision(tx, d.runId, d.decision);
      const inserted = await insertEventRows(tx, batch, rows, source.sourceId, created);
      if (live.size > 0) await this.checkLive(tx, batch, rows, inserted, live);
      const rebuild = new Set<string>();
      /** Per run, the oldest instant this batch stored: a rebuild restarts before it. */
      const oldest = new Map<string, number>();
      /** The events applied, in order: where a finding's instant is looked up. */
      const applied: number[] = [];
      const fresh = new Map<string, ReturnType<RunAccumulator["findings"]>[number][]>();
      /** Per run, the findings counted as new while its events were applied in order. */
      const newByRun = new Map<string, number>();
      let cached: CachedRun | undefined;
      let runId = "";
      let isLive = false;
      let started = false;
      for (let r = 0; r < rows.length; r++) {
        if (!inserted[r]) {
          counts.eventsDuplicate++;
          continue;
        }
        counts.eventsNew++;
        const i = rows[r];
        const tsMs = batch.tsMs[i];
        if (!started || batch.runId[i] !== runId) {
          started = true;
          runId = batch.runId[i];
          counts.runsTouched.add(runId);
          isLive = live.has(runId);
          cached = isLive ? undefined : this.cache.get(runId)!;
        }
        if (isLive) {
          applied.push(i);
          continue;
        }
        cached = cached!;
        if (!(tsMs >= (oldest.get(runId) ?? Infinity))) oldest.set(runId, tsMs);
        if (rebuild.has(runId)) continue;
        if (tsMs < cached.acc.lastTsMs) {
          rebuild.add(runId);
          continue;
        }
        applied.push(i);
        cached.checkpoints?.beforeEvent(cached.acc, tsMs);
        const found = cached.acc.applyEvent(eventAt(batch, i), tsMs);
        const updated = cached.acc.updatedFindings();
        counts.findingsNew += found.length;
        if (found.length > 0) newByRun.set(runId, (newByRun.get(runId) ?? 0) + found.length);
        if (found.length > 0 || updated.length > 0) {
          const list = fresh.get(runId) ?? [];
          list.push(...found, ...updated);
          fresh.set(runId, list);
        }
      }
      let tsOfApplied: Map<string, number> | null = null;
      const tsOf = (eventId: string): number | null => {
        if (tsOfApplied === null) {
          tsOfApplied = new Map();
          for (const i of applied) tsOfApplied.set(batch.eventId[i], batch.tsMs[i]);
        }
        return tsOfApplied.get(eventId) ?? null;
      };
      for (const [runId, { facts }] of factsByRun) {
        const cached = this.cache.get(runId)!;
        cached.facts = cached.facts ? mergeFacts(cached.facts, facts) : facts;
        counts.runsTouched.add(runId);
        if (!rebuild.has(runId)) cached.acc.applyFacts(cached.facts);
      }
      for (const d of documents) await tx.run(`UPDATE "Run" SET "${d.column}" = ? WHERE "id" = ?`, [d.markdown, d.runId]);
      for (const runId of rebuild) {
        const cached = this.cache.get(runId)!;
        const facts = cached.facts ? JSON.stringify(stripMarkdown(cached.facts)) : null;
        cached.checkpoints ??= new RunCheckpoints(this.checkpointEvery);
        cached.acc = await rebuildAccumulator(tx, runId, cached.format, facts, this.config, { checkpoints: cached.checkpoints, fromTsMs: oldest.get(runId) });
        resync.add(runId);
      }
      // A run rebuilt from its stored events (a late event, or a run another writer or other
      // settings had touched) gets its stored detector findings replaced by the rebuilt ones.
      // What counts as new is what was not stored before: the findings counted while this batch's
      // events were applied in order are replaced by the rebuilt ones.
      for (const runId of resync) {
        const stored = await tx.all<{ key: string }>(`SELECT "key" FROM "Finding" WHERE "runId" = ? AND "source" = 'detector'`, [runId]);
        await tx.run(`DELETE FROM "Finding" WHERE "runId" = ? AND "source" = 'detector'`, [runId]);
        const rebuilt = [...this.cache.get(runId)!.acc.findings()];
        const before = new Set(stored.map((r) => r.key));
        counts.findingsNew += rebuilt.filter((f) => !before.has(findingKey(f))).length - (newByRun.get(runId) ?? 0);
        fresh.set(runId, rebuilt);
      }
      const touched = new Set<string>([...formats.keys()]);
      // Read only when a run of this batch waits or ended stuck (not on every batch of a busy ingest),
      // and then fresh: a rule added a moment ago applies to the next halt.
      let rules: NotifyRuleSpec[] | null = null;
      for (const runId of touched) {
        const l = live.get(runId);
        let summary;
        if (l) {
          counts.findingsNew += l.newFindings;
          await insertFindings(tx, runId, l.found, tsOf);
          await insertRuntimeHalts(tx, runId, l.halts);
          await writeRunState(tx, l, null);
          summary = l.summary;
          this.liveTokens.delete(runId);
          this.liveTokens.set(runId, { token: l.token, eventCount: l.summary.eventCount });
          this.liveRunsTaken++;
        } else {
          const cached = this.cache.get(runId)!;
          await insertFindings(tx, runId, fresh.get(runId) ?? [], tsOf);
          await insertRuntimeHalts(tx, runId, cached.acc.runtimeHalts());
          await writeRunState(tx, cached.acc, factsByRun.has(runId) && cached.facts ? stripMarkdown(cached.facts) : null);
          summary = cached.acc.summary();
        }
        // In this transaction: a halt and the notification it calls for are stored together or not at all.
        if (callsForNotification(summary)) {
          rules ??= await loadRules(tx);
          if (rules.length > 0) await enqueueRunNotifications(tx, summary, rules);
        }
        if (source.sourceId !== null) {
          await tx.run(`INSERT INTO "RunSource" ("runId","sourceId") VALUES (?,?) ON CONFLICT DO NOTHING`, [runId, source.sourceId]);
        }
      }
      for (const r of rejected) {
        counts.linesRejected++;
        await storeIngestError(tx, source, r);
      }
      if (source.progress && source.sourceId !== null) {
        const p = source.progress;
        await tx.run(
          `UPDATE "IngestSource" SET "offset"=?,"lineCount"=?,"fingerprint"=?,"size"=?,"mtimeMs"=?,"format"=COALESCE(?, "format"),
           "eventCount"="eventCount"+?,"errorCount"="errorCount"+?,"updatedAt"=? WHERE "id"=?`,
          [p.offset, p.lineCount, p.fingerprint, p.size, p.mtimeMs, p.format, inserted.filter(Boolean).length,
            rejected.length, Date.now(), source.sourceId],
        );
      }
      this.trimCache();
      return rejected;
    });
  }

  /**
   * Makes sure the run exists and that what its events will be applied to
   * matches what is stored: the parse thread's accumulator that `live` came
   * from (the one whose results were stored last, or one that applied nothing
   * for a run created now), else the cached accumulator, else one rebuilt
   * from the stored events.
   */
  private async loadRun(
    tx: SqlDb, runId: string, format: SourceFormat, counts: IngestCounts, created: Set<string>, live: LiveRun | undefined,
  ): Promise<Loaded> {
    const select = () =>
      tx.get<{ eventCount: number; format: string; facts: string | null }>(
        `SELECT "eventCount","format","facts" FROM "Run" WHERE "id" = ?${tx.kind === "postgres" ? " FOR UPDATE" : ""}`,
        [runId],
      );
    let row = await select();
    if (!row) {
      const now = Date.now();
      const inserted = await tx.run(
        `INSERT INTO "Run" ("id","format","createdAt","updatedAt") VALUES (?,?,?,?) ON CONFLICT DO NOTHING`,
        [runId, format, now, now],
      );
      if (inserted > 0) {
        created.add(runId);
        counts.runsNew++;
        if (live && live.before === 0 && live.format === format) {
          this.cache.delete(runId);
          return { kind: "live", format, facts: null };
        }
        this.cache.set(runId, { acc: new RunAccumulator(runId, format, this.config), format, facts: null, checkpoints: null });
        return { kind: "cached", format, facts: null };
      }
      // Another writer created it meanwhile: wait for its row and start from what it stored.
      row = await select();
      if (!row) throw new Error(`run ${runId} vanished while being ingested`);
    }
    const storedFormat = row.format as SourceFormat;
    const last = this.liveTokens.get(runId);
    this.liveTokens.delete(runId);
    const unchanged = last?.eventCount === Number(row.eventCount);
    if (live && unchanged && last.token === live.token && live.format === storedFormat) {
      this.cache.delete(runId);
      return { kind: "live", format: storedFormat, facts: row.facts };
    }
    if (unchanged) {
      // What the thread's accumulator stored is all there is (it applied the run's events in order): the
      // replay reaches the state its findings were stored from, as a cached accumulator would have it.
      const acc = await rebuildAccumulator(tx, runId, storedFormat, row.facts, this.config);
      this.cache.set(runId, { acc, format: storedFormat, facts: row.facts ? (JSON.parse(row.facts) as RunFactFields) : null, checkpoints: null });
      return { kind: "cached", format: storedFormat, facts: row.facts };
    }
    const cached = this.cache.get(runId);
    if (cached && cached.acc.summary().eventCount === Number(row.eventCount)) {
      this.cache.delete(runId);
      this.cache.set(runId, cached);
      return { kind: "cached", format: storedFormat, facts: row.facts };
    }
    const facts = row.facts ? (JSON.parse(row.facts) as RunFactFields) : null;
    // Events were stored unseen (another writer, a rolled-back batch): checkpoints are retaken along the replay.
    const checkpoints = cached?.checkpoints ?? null;
    const acc = await rebuildAccumulator(tx, runId, storedFormat, row.facts, this.config, checkpoints === null ? undefined : { checkpoints });
    this.cache.set(runId, { acc, format: storedFormat, facts, checkpoints });
    return { kind: "rebuilt", format: storedFormat, facts: row.facts };
  }

  /**
   * Keeps the parse thread's results of a run only where the batch stored
   * every event of it that the thread applied. Another run (an event stored
   * already, from an earlier batch of the file) gets the accumulator it had
   * before the batch, rebuilt from its stored events but this batch's, and its
   * events are applied here.
   */
  private async checkLive(
    tx: SqlDb, batch: PackedBatch, rows: readonly number[], inserted: readonly boolean[], live: Map<string, LiveRun & { loaded: Loaded; stored: number }>,
  ): Promise<void> {
    const failed = new Set<string>();
    for (let r = 0; r < rows.length; r++) {
      const l = live.get(batch.runId[rows[r]]);
      if (l === undefined) continue;
      if (inserted[r]) l.stored++;
      else failed.add(l.runId);
    }
    for (const l of live.values()) {
      if (l.stored !== l.applied) failed.add(l.runId);
    }
    for (const runId of failed) {
      const { loaded } = live.get(runId)!;
      live.delete(runId);
      this.liveTokens.delete(runId);
      const mine = new Set<string>();
      for (let r = 0; r < rows.length; r++) if (inserted[r] && batch.runId[rows[r]] === runId) mine.add(batch.eventId[rows[r]]);
      const acc = await rebuildAccumulator(tx, runId, loaded.format, loaded.facts, this.config, undefined, mine);
      const facts = loaded.facts ? (JSON.parse(loaded.facts) as RunFactFields) : null;
      this.cache.set(runId, { acc, format: loaded.format, facts, checkpoints: null });
    }
  }

  private trimCache(): void {
    while (this.cache.size > MAX_CACHED_RUNS) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
    while (this.liveTokens.size > MAX_CACHED_RUNS) {
      const oldest = this.liveTokens.keys().next().value;
      if (oldest === undefined) break;
      this.liveTokens.delete(oldest);
    }
  }
}

function stripMarkdown(facts: RunFactFields): RunFactFields {
  const { markdown: _markdown, ...rest } = facts;
  return rest;
}

/** Stores a decision as its run's export has it (once: its id and its halt are unique). */
async function insertImportedDecision(tx: SqlDb, runId: string, d: ImportedDecision): Promise<void> {
  await tx.run(
    `INSERT INTO "Decision" ("id","runId","haltKey","action","directive","budgetDelta","provider","by","eventId","createdAt","deliveredAt","ackedAt")
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
    [d.id, runId, d.haltKey, d.action, d.directive, d.budgetDelta === null ? null : JSON.stringify(d.budgetDelta), d.provider, d.by, d.eventId,
      d.createdAt, d.deliveredAt, d.ackedAt],
  );
}

/** Stores a rejected line once (the same bad line read twice is one error). */
export async function storeIngestError(tx: SqlDb, source: BatchSource, r: RejectedLine): Promise<void> {
  const key = createHash("sha256")
    .update(`${source.name}\u0000${r.line ?? ""}\u0000${r.message}\u0000${r.excerpt ?? ""}`)
    .digest("hex");
  await tx.run(
    `INSERT INTO "IngestError" ("sourceId","source","line","message","key","runId","excerpt","createdAt")
     VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
    [source.sourceId, source.name, r.line, r.message, key, r.runId, r.excerpt, Date.now()],
  );
}
