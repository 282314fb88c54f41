/**
 * Small helpers shared by the JSON-lines parsers: parsing one line into an
 * object, and naming JSON types and sizes in error messages.
 */
import { formatCount } from "../numbers";


export type JsonValueResult = { ok: true; value: unknown } | { ok: false; message: string };

/** A parsed JSON object, or why the line is not one. */
export type JsonObjectResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; message: string };

/**
 * Parses one line of JSON that must hold an object.
 *
 * @example parseJsonObject('{"a":1}') // { ok: true, value: { a: 1 } }
 * @example parseJsonObject('[1]')     // { ok: false, message: "line must be a JSON object (got array)" }
 */
export function parseJsonObject(text: string): JsonObjectResult {
  const parsed = parseJsonValue(text);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (!isJsonObject(value)) {
    return { ok: false, message: `line must be a JSON object (got ${describeJsonType(value)})` };
  }
  return { ok: true, value };
}

/** Parses JSON text; a syntax error becomes `not JSON: <the parser's message>`. */
export function parseJsonValue(text: string): JsonValueResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `not JSON: ${describeJsonError(error)}` };
  }
  if (text.length >= DEPTH_SCAN_MIN_CHARS && valueExceedsDepth(value, MAX_JSON_DEPTH)) {
    return { ok: false, message: `not accepted: JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
  }
  return { ok: true, value };
}

/**
 * True when a parsed JSON value nests arrays and objects deeper than `max`.
 * Walking the parsed value (V8's JSON.parse is not recursive) visits each
 * node once and stops at the first too-deep one: far cheaper than scanning
 * every character of the text.
 */
export function valueExceedsDepth(value: unknown, max: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === "object" && item !== null && valueExceedsDepth(item, max - 1)) return true;
    return false;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null && valueExceedsDepth(item, max - 1)) return true;
  }
  return false;
}

/**
 * The deepest nesting a line may have. JSON.parse accepts thousands of levels
 * but JSON.stringify (hashing, storing, answering) overflows the stack on them:
 * such a line is refused at the door, alone, and the rest of its batch kept.
 * Only lines long enough to hold that many brackets are scanned.
 */
export const MAX_JSON_DEPTH = 200;
const DEPTH_SCAN_MIN_CHARS = 2 * MAX_JSON_DEPTH;

/** True for a non-null, non-array object (what a JSON object parses to). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON name of a value's type, for messages: `null`, `array`, `object`, `string`, … */
export function describeJsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}


/** A byte limit as people write it: `1 MiB`, `64 KiB`, or `1,000 bytes`. */
export function formatByteLimit(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${formatCount(bytes)} bytes`;
}

function describeJsonError(error: unknown): string {
  // JSON.parse only throws SyntaxError; the guard keeps the message honest anyway.
  return error instanceof Error ? error.message : String(error);
}
