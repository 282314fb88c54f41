/**
 * Validation of loop protocol events (`event-protocol.md`, and `detector.md`
 * "Validation"). Hand-written checks, no schema library: this runs once per
 * ingested line.
 */
import type { LoopEvent } from "../protocol/types";
import { describeJsonType, isJsonObject, parseJsonValue } from "./json-line";
import { checkField, mustBe, TYPE_FIELDS } from "./protocol-fields";
import { parseIsoTimestamp } from "./timestamp";

/** Longest `id`, `runId` and `node` the protocol accepts, in UTF-16 code units. */
export const MAX_ID_LENGTH = 200;

/** A validated event, or the first problem found, naming the field. */
/** On success, `tsMs` is the instant of `ts` (parsed once here, so ingest need not parse it again). */
export type ValidationResult = { ok: true; event: LoopEvent; tsMs: number } | { ok: false; message: string };

/**
 * Checks a parsed value against the protocol: envelope, then the fields of its
 * type. An unknown type is accepted with only its envelope checked; unknown
 * fields are kept. The event returned has `v: 1` and no `null` optional fields
 * of the protocol (`null` counts as absent); `value` itself is not modified.
 *
 * @example
 * validateProtocolEvent({ id: "e1", runId: "r", ts: "2026-08-04T14:20:00Z", type: "verify.result", command: "npm test", passed: "no" })
 * // { ok: false, message: 'field "passed" must be a boolean (got string)' }
 */
export function validateProtocolEvent(value: unknown): ValidationResult {
  return checkEvent(value, false);
}

/**
 * Parses and validates one JSON line of a protocol file or request body.
 *
 * @example parseProtocolLine("{oops") // { ok: false, message: "not JSON: Expected property name …" }
 */
export function parseProtocolLine(text: string): ValidationResult {
  const parsed = parseJsonValue(text);
  return parsed.ok ? checkEvent(parsed.value, true) : parsed;
}

/**
 * The validator behind both entry points. `owned` says the object was made by
 * the caller for this purpose (fresh from `JSON.parse` or a mapper), so it may
 * be normalised in place instead of copied.
 */
export function checkEvent(value: unknown, owned: boolean): ValidationResult {
  if (!isJsonObject(value)) {
    return { ok: false, message: `event must be a JSON object (got ${describeJsonType(value)})` };
  }
  const envelope = checkEnvelope(value);
  if (typeof envelope === "string") return { ok: false, message: envelope };
  const tsMs = envelope;
  const type = value.type as string;
  let nullFields: string[] | undefined;
  if (value.node === null) nullFields = ["node"];
  const specs = TYPE_FIELDS.get(type);
  if (specs !== undefined) {
    for (const spec of specs) {
      const field = value[spec.name];
      if (field === undefined || field === null) {
        if (spec.required) return { ok: false, message: `missing required field "${spec.name}" for ${type}` };
        if (field === null) (nullFields ??= []).push(spec.name);
        continue;
      }
      const problem = checkField(spec.name, spec.kind, field);
      if (problem !== null) return { ok: false, message: problem };
    }
  }
  if (value.v === 1 && nullFields === undefined) return { ok: true, event: value as LoopEvent, tsMs };
  const event: Record<string, unknown> = owned ? value : { ...value };
  event.v = 1;
  if (nullFields !== undefined) for (const name of nullFields) delete event[name];
  return { ok: true, event: event as LoopEvent, tsMs };
}

/** The envelope's first problem, or the instant of its `ts` when it has none. */
function checkEnvelope(value: Record<string, unknown>): string | number {
  const v = value.v;
  if (v !== undefined && v !== null && v !== 1) {
    return `field "v" must be 1 (got ${typeof v === "number" ? v : describeJsonType(v)})`;
  }
  const idProblem = checkIdField(value, "id") ?? checkIdField(value, "runId");
  if (idProblem !== null) return idProblem;
  const ts = value.ts;
  if (ts === undefined || ts === null) return `missing required field "ts"`;
  if (typeof ts !== "string") return mustBe("ts", "an ISO-8601 timestamp string", ts);
  const tsMs = readTimestamp(ts);
  if (Number.isNaN(tsMs)) return `field "ts" must be an ISO-8601 timestamp (got ${quote(ts)})`;
  const type = value.type;
  if (type === undefined || type === null) return `missing required field "type"`;
  if (typeof type !== "string") return mustBe("type", "a string", type);
  if (type === "") return `field "type" must not be empty`;
  const node = value.node;
  if (node !== undefined && node !== null) {
    const problem = checkIdValue("node", node);
    if (problem !== null) return problem;
  }
  return checkStoredText(value) ?? tsMs;
}

/**
 * The last `ts` read and its instant. The events a mapper makes from one
 * record carry that record's time (about half of all events, on real
 * transcripts, have the time of the one before), and comparing two strings
 * costs less than reading one as a date. `parseIsoTimestamp` depends on its
 * text alone, so the answer is the same.
 */
let lastTs = "";
let lastTsMs = Number.NaN;

/** `parseIsoTimestamp(ts)`, read again only when `ts` differs from the last one. */
function readTimestamp(ts: string): number {
  if (ts !== lastTs) {
    lastTsMs = parseIsoTimestamp(ts);
    lastTs = ts;
  }
  return lastTsMs;
}

/**
 * ES2024's `String.prototype.isWellFormed`: false when the text holds a lone
 * UTF-16 surrogate (not a character, and PostgreSQL cannot store it). Node 20
 * has it; the TypeScript lib of this project stops at ES2023. V8 answers it
 * at once for text of one-byte characters, most text, where a regular
 * expression would have to be run over it.
 */
interface WellFormedCheck {
  isWellFormed(): boolean;
}

/**
 * The top-level strings of an event go into text columns (run id, title,
 * node, reasons…): a NUL character or a lone surrogate there would be stored
 * differently, or not at all, by PostgreSQL. Refused with the field's name,
 * on both databases alike. (Nested values are stored as escaped JSON text.)
 */
function checkStoredText(value: Record<string, unknown>): string | null {
  for (const name in value) {
    const v = value[name];
    if (typeof v !== "string" || !Object.prototype.hasOwnProperty.call(value, name)) continue;
    if (v.includes("\u0000")) return `field "${name}" must not contain a NUL character (\\u0000)`;
    if (!(v as unknown as WellFormedCheck).isWellFormed()) return `field "${name}" must be valid Unicode text (it holds a lone surrogate)`;
  }
  return null;
}

function checkIdField(value: Record<string, unknown>, name: "id" | "runId"): string | null {
  const field = value[name];
  if (field === undefined || field === null) return `missing required field "${name}"`;
  return checkIdValue(name, field);
}

function checkIdValue(name: string, field: unknown): string | null {
  if (typeof field !== "string") return mustBe(name, "a string", field);
  if (field === "") return `field "${name}" must not be empty`;
  if (field.length > MAX_ID_LENGTH) {
    return `field "${name}" must be at most ${MAX_ID_LENGTH} characters (got ${field.length})`;
  }
  return null;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
