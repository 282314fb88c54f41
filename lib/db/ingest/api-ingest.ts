import { LineSplitter, type LineItem } from "@/lib/domain/formats/lines";
import { parseProtocolLine } from "@/lib/domain/formats/protocol";
import type { ParseItem } from "@/lib/domain/formats/types";
import type { SourceFormat } from "@/lib/domain/protocol/types";
import type { SqlDb } from "../sql";
import { IngestWriter, emptyCounts, type IngestCounts } from "./writer";
import { getDetectorSettingsVersion, getProjectDetectorConfig } from "../settings";
import { GroupCommit, type GroupCommitLoad } from "./group-commit";

/** Largest request body accepted by POST /api/ingest (LOOPSCOPE_INGEST_MAX_BYTES overrides). */
export const DEFAULT_MAX_BODY_BYTES = 8 << 20;

export function maxBodyBytes(): number {
  const v = Number(process.env.LOOPSCOPE_INGEST_MAX_BYTES);
  return Number.isFinite(v) && v > 0 ? v : DEFAULT_MAX_BODY_BYTES;
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body is over the limit of ${limit} bytes; send smaller batches`);
  }
}

/**
 * Reads a request body up to `limit` bytes, splitting it into lines as it
 * arrives; stops with BodyTooLargeError as soon as the limit is passed (before
 * anything is parsed), so a huge or endless body costs at most `limit` bytes.
 */
export async function readBodyLines(body: ReadableStream<Uint8Array> | null, limit: number): Promise<LineItem[]> {
  const splitter = new LineSplitter();
  const lines: LineItem[] = [];
  await readBodyChunks(body, limit, (chunk) => splitter.push(chunk, lines));
  splitter.end(lines);
  return lines;
}

/**
 * Reads a request body chunk by chunk up to `limit` bytes; stops with
 * BodyTooLargeError (cancelling the stream) as soon as the limit is passed.
 * Returns the bytes read.
 */
export async function readBodyChunks(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  onChunk: (chunk: Uint8Array) => void,
): Promise<number> {
  if (!body) return 0;
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return total;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit);
    }
    onChunk(value);
  }
}

export interface ApiIngestResult {
  stored: number;
  duplicate: number;
  /** Every line refused. */
  rejected: number;
  /** The first `MAX_REPORTED_ERRORS` of them, with line and reason (all of them are counted in `rejected`). */
  errors: { line: number; message: string }[];
  runs: string[];
}

/**
 * Bad lines reported and stored one by one per request: a body of millions of
 * junk lines is counted, not stored as millions of error rows (which blocked
 * the server for minutes and every later page of that key's runs).
 */
export const MAX_REPORTED_ERRORS = 100;

let sharedWriter: { db: SqlDb; version: number; writer: Promise<IngestWriter> } | null = null;

/**
 * One writer per server process, so its per-run state serves every request; it
 * detects with the project's settings, and is replaced when they change.
 */
async function writerFor(db: SqlDb): Promise<IngestWriter> {
  const version = await getDetectorSettingsVersion(db);
  if (!sharedWriter || sharedWriter.db !== db || sharedWriter.version !== version) {
    sharedWriter = { db, version, writer: getProjectDetectorConfig(db).then((config) => new IngestWriter(db, config)) };
  }
  return sharedWriter.writer;
}


/** Validates NDJSON protocol lines and stores the valid ones; bad lines are stored as ingest errors too. */
export async function ingestApiLines(db: SqlDb, lines: LineItem[], sourceName: string): Promise<ApiIngestResult> {
  const items: ParseItem[] = [];
  const errors: { line: number; message: string }[] = [];
  let rejected = 0;
  const reject = (line: number, message: string) => {
    rejected++;
    if (errors.length >= MAX_REPORTED_ERRORS) return;
    errors.push({ line, message });
    items.push({ kind: "error", line, message });
  };
  for (const l of lines) {
    if ("error" in l) {
      reject(l.line, l.error);
      continue;
    }
    // A protocol event is a JSON object: anything else is refused without parsing it.
    if (l.text.trimStart()[0] !== "{") {
      reject(l.line, "not JSON: an event is one JSON object per line");
      continue;
    }
    const r = parseProtocolLine(l.text);
    if (r.ok && r.event.type === "human.decision") {
      // Only the dashboard records a person's decision (with who and when, first one wins):
      // an agent that could send one could resume itself past its own halt.
      reject(l.line, `human.decision is recorded by the dashboard when a person decides; a runtime cannot send it (use GET /api/runs/{runId}/control to receive decisions)`);
    } else if (r.ok) {
      items.push({ kind: "event", event: r.event, line: l.line, raw: l.text, sourceType: r.event.type, format: "protocol", tsMs: r.tsMs });
    } else {
      reject(l.line, r.message);
    }
  }
  if (rejected > errors.length) {
    const last = errors.at(-1)?.line ?? 0;
    items.push({ kind: "error", line: null, message: `${rejected - errors.length} more bad lines after line ${last} in this request (counted, not stored one by one)` });
  }
  const counts = await ingestApiItems(db, items, sourceName, "protocol");
  return { stored: counts.eventsNew, duplicate: counts.eventsDuplicate, rejected, errors, runs: [...counts.runsTouched].sort() };
}

/**
 * Stores parse items that arrived over HTTP (mapped by the route: protocol
 * lines, OTLP spans) through the server's shared writer, under the source
 * `sourceName` of the given format. The caller caps the errors it passes.
 */
export async function ingestApiItems(db: SqlDb, items: ParseItem[], sourceName: string, format: SourceFormat): Promise<IngestCounts> {
  const counts = emptyCounts();
  const write = async (tx: SqlDb) => {
    const sourceId = await apiSourceId(tx, sourceName, format);
    await (await writerFor(db)).writeBatch(items, { sourceId, name: sourceName }, counts);
  };
  // SQLite has one writer: concurrent requests share a transaction (group commit). PostgreSQL
  // writes them side by side, each in its own transaction, as several servers do.
  if (db.kind === "sqlite") await groupCommitFor(db).submit(items.length, write);
  else await write(db);
  return counts;
}

const groupCommits = new WeakMap<SqlDb, GroupCommit>();

function groupCommitFor(db: SqlDb): GroupCommit {
  let group = groupCommits.get(db);
  if (!group) {
    group = new GroupCommit(db);
    groupCommits.set(db, group);
  }
  return group;
}

/**
 * The SQLite write queue of API ingest (events waiting, how fast they drain),
 * for admission control; null on PostgreSQL, whose writes do not queue here.
 */
export function apiWriteLoad(db: SqlDb): GroupCommitLoad | null {
  return db.kind === "sqlite" ? groupCommitFor(db).load() : null;
}

async function apiSourceId(db: SqlDb, name: string, format: SourceFormat): Promise<number> {
  await db.run(`INSERT INTO "IngestSource" ("path","format","updatedAt") VALUES (?,?,?) ON CONFLICT DO NOTHING`, [
    name, format, Date.now(),
  ]);
  const row = await db.get<{ id: number }>(`SELECT "id" FROM "IngestSource" WHERE "path" = ?`, [name]);
  return Number(row!.id);
}
