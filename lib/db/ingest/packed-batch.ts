import type { LoopEvent, SourceFormat } from "@/lib/domain/protocol/types";
import type { ParsedEvent, ParseItem } from "@/lib/domain/formats/types";
import { parseIsoTimestamp } from "@/lib/domain/formats/timestamp";
import type { LiveRun } from "./live-runs";

/** A parse item that is not an event: a bad line, a document's run facts, an imported run. */
export type OtherItem = Exclude<ParseItem, ParsedEvent>;

/**
 * A batch of parse items as the writer reads it: each event's stored columns
 * side by side (what the insert binds, what dedupe and run loading key on),
 * and the other items with their place among the events. Plain arrays of
 * strings and numbers: a parse thread hands one over at the cost of a copy,
 * where the events' object trees would cost several times their JSON.parse
 * to clone. The events themselves come back from their JSON text only when
 * they are applied to their run (`eventAt`), and die young there.
 */
export interface PackedBatch {
  packed: true;
  /** Items other than events, in order; `at` is how many events came before each. */
  others: { at: number; item: OtherItem }[];
  runId: string[];
  eventId: string[];
  ts: string[];
  /** The instant of `ts` in epoch ms, as the parser read it. */
  tsMs: number[];
  type: string[];
  sourceType: string[];
  node: (string | null)[];
  line: (number | null)[];
  record: (string | null)[];
  raw: string[];
  format: SourceFormat[];
  /**
   * The event as JSON where `raw` is not exactly that: a foreign format's
   * mapped event (what `data` stores, and what every later rebuild reads), a
   * protocol line that the validator normalised or that another serialiser
   * wrote. Null where `raw` parses to the event itself.
   */
  json: (string | null)[];
  /**
   * The event objects, where the batch was packed in the writer's thread, or
   * where JSON text cannot carry a protocol event exactly (a number beyond
   * the double range, a negative zero); null elsewhere.
   */
  events: (LoopEvent | null)[];
  /** Per run, what its events did to the parse thread's accumulator (absent where the writer's thread packed the batch). */
  live?: LiveRun[];
  /** Ascending, the events whose (runId, id) an earlier one of the batch has (absent where the writer is to find them). */
  duplicates?: number[];
}

/** Packs parse items, in order; `serialise` (for another thread) leaves the event objects out. */
export function packItems(items: readonly ParseItem[], serialise: boolean): PackedBatch {
  const packer = new BatchPacker(serialise);
  for (const item of items) packer.push(item);
  return packer.batch;
}

/** Packs items one by one as they are parsed, so that their objects die young. */
export class BatchPacker {
  readonly batch: PackedBatch = {
    packed: true, others: [], runId: [], eventId: [], ts: [], tsMs: [], type: [], sourceType: [], node: [], line: [],
    record: [], raw: [], format: [], json: [], events: [],
  };

  constructor(private readonly serialise: boolean) {}

  get size(): number {
    return this.batch.runId.length + this.batch.others.length;
  }

  push(item: ParseItem): void {
    const b = this.batch;
    if (item.kind !== "event") {
      b.others.push({ at: b.runId.length, item });
      return;
    }
    const e = item.event;
    b.runId.push(e.runId);
    b.eventId.push(e.id);
    b.ts.push(e.ts);
    b.tsMs.push(item.tsMs ?? parseIsoTimestamp(e.ts));
    b.type.push(e.type);
    b.sourceType.push(item.sourceType);
    b.node.push(typeof e.node === "string" ? e.node : null);
    b.line.push(item.line);
    b.record.push(item.record ?? null);
    b.raw.push(item.raw);
    b.format.push(item.format);
    if (!this.serialise) {
      b.json.push(item.format === "protocol" ? null : JSON.stringify(e));
      b.events.push(e);
    } else if (item.format !== "protocol") {
      b.json.push(JSON.stringify(e));
      b.events.push(null);
    } else if (parsesToItself(e, item.raw)) {
      b.json.push(null);
      b.events.push(null);
    } else {
      const text = JSON.stringify(e);
      const exact = text === item.raw || carriesExactly(text, item.raw);
      b.json.push(text === item.raw || !exact ? null : text);
      b.events.push(exact ? null : e);
    }
  }
}

/**
 * Whether a protocol event is its line's JSON.parse untouched. The validator
 * parses the line and normalises in place only a missing or null "v" (set
 * to 1, a new last key when it was missing) and null fields (dropped): a
 * line without `null` whose event does not end in a "v" it did not have is
 * the event as parsed, with no serialising to check it. (Were the validator
 * to change more, the event would still be applied as every rebuild of its
 * run reads it: from its raw line.)
 */
function parsesToItself(e: LoopEvent, raw: string): boolean {
  if (raw.includes("null")) return false;
  let last = "";
  for (const key in e) last = key;
  return last !== "v";
}

/** A negative zero in JSON text (`-0`, `-0.00`, `-0e3`), or something in a string that looks like one. */
const NEGATIVE_ZERO = /-0(?:\.0+)?(?:[eE][+-]?\d+)?(?![\d.eE])/;

/**
 * Whether JSON.parse(text) gives back the event that `text` was written
 * from: JSON writes a non-finite number as `null` and -0 as `0`, and those
 * come only from a line with a number out of range or a negative zero.
 */
function carriesExactly(text: string, raw: string): boolean {
  return !text.includes("null") && !NEGATIVE_ZERO.test(raw);
}

/** The `i`th event of a batch. */
export function eventAt(b: PackedBatch, i: number): LoopEvent {
  return b.events[i] ?? (JSON.parse(b.json[i] ?? b.raw[i]) as LoopEvent);
}

/** What the `data` column stores for the `i`th event: the mapped event of a foreign format, nothing for the protocol. */
export function dataAt(b: PackedBatch, i: number): string | null {
  return b.format[i] === "protocol" ? null : b.json[i];
}

export function isPackedBatch(input: readonly ParseItem[] | PackedBatch): input is PackedBatch {
  return (input as PackedBatch).packed === true;
}

/** A column of few distinct values (run ids, types, nodes, formats) as its values and an index per row. */
interface DictColumn<T> {
  values: T[];
  index: Int32Array;
}

/**
 * A packed batch as it crosses to the writer's thread: columns of few
 * distinct values as a dictionary, numbers as typed arrays (moved, not
 * copied), the rare event objects by position. Cloning a string costs an
 * allocation on the receiving side: a batch's run ids, types and formats are
 * a handful of strings, not one per event.
 */
export interface PostedBatch {
  posted: true;
  others: PackedBatch["others"];
  runId: DictColumn<string>;
  type: DictColumn<string>;
  sourceType: DictColumn<string>;
  node: DictColumn<string | null>;
  record: DictColumn<string | null>;
  format: DictColumn<SourceFormat>;
  eventId: string[];
  ts: string[];
  raw: string[];
  json: (string | null)[];
  tsMs: Float64Array;
  /** NaN for no line. */
  line: Float64Array;
  events: { at: number; event: LoopEvent }[];
  live?: LiveRun[];
  duplicates?: number[];
}

function toDict<T>(column: T[]): DictColumn<T> {
  const values: T[] = [];
  const seen = new Map<T, number>();
  const index = new Int32Array(column.length);
  for (let i = 0; i < column.length; i++) {
    let k = seen.get(column[i]);
    if (k === undefined) {
      k = values.length;
      values.push(column[i]);
      seen.set(column[i], k);
    }
    index[i] = k;
  }
  return { values, index };
}

function fromDict<T>(d: DictColumn<T>): T[] {
  const out = new Array<T>(d.index.length);
  for (let i = 0; i < out.length; i++) out[i] = d.values[d.index[i]];
  return out;
}

/** A batch ready to post, and the buffers to move with it. */
export function encodeForPost(b: PackedBatch): { posted: PostedBatch; transfer: ArrayBuffer[] } {
  const events: PostedBatch["events"] = [];
  b.events.forEach((event, at) => {
    if (event !== null) events.push({ at, event });
  });
  const posted: PostedBatch = {
    posted: true, others: b.others, runId: toDict(b.runId), type: toDict(b.type), sourceType: toDict(b.sourceType),
    node: toDict(b.node), record: toDict(b.record), format: toDict(b.format), eventId: b.eventId, ts: b.ts, raw: b.raw,
    json: b.json, tsMs: Float64Array.from(b.tsMs), line: Float64Array.from(b.line, (l) => l ?? Number.NaN), events, live: b.live, duplicates: b.duplicates,
  };
  const transfer = [posted.tsMs, posted.line, posted.runId.index, posted.type.index, posted.sourceType.index, posted.node.index,
    posted.record.index, posted.format.index].map((a) => a.buffer as ArrayBuffer);
  return { posted, transfer };
}

/** The packed batch a posted one was made from. */
export function decodePosted(p: PostedBatch): PackedBatch {
  const events = new Array<LoopEvent | null>(p.eventId.length).fill(null);
  for (const { at, event } of p.events) events[at] = event;
  return {
    packed: true, others: p.others, runId: fromDict(p.runId), eventId: p.eventId, ts: p.ts, tsMs: Array.from(p.tsMs), type: fromDict(p.type),
    sourceType: fromDict(p.sourceType), node: fromDict(p.node), line: Array.from(p.line, (l) => (Number.isNaN(l) ? null : l)),
    record: fromDict(p.record), raw: p.raw, format: fromDict(p.format), json: p.json, events, live: p.live, duplicates: p.duplicates,
  };
}
