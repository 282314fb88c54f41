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
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: `not JSON: ${describeJsonError(error)}` };
  }
}

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
