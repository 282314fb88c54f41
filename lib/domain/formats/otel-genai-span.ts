/**
 * The one span shape the OpenTelemetry GenAI mapper reads, whichever way the
 * spans arrived (an any-agent JSON dump, an OTLP/JSON body, an OTLP/protobuf
 * body), and the readers that turn each source's ids and times into it.
 */

/** An attribute value as OTLP's `AnyValue` can hold it, after decoding. */
export type SpanAttributeValue =
  | string
  | number
  | boolean
  | null
  | SpanAttributeValue[]
  | { [key: string]: SpanAttributeValue };

export type SpanStatus = "unset" | "ok" | "error";

/** One span, normalised. */
export interface GenAiSpan {
  /** 32 lowercase hex digits (16 bytes), as W3C trace context and OTLP/JSON write it. */
  traceId: string;
  /** 16 lowercase hex digits (8 bytes). */
  spanId: string;
  /** The parent's span id, or null for a span that names none. */
  parentSpanId: string | null;
  name: string;
  /** Start and end in epoch milliseconds (fractions kept). */
  startMs: number;
  endMs: number;
  status: SpanStatus;
  /** The status description, when the span has one. */
  statusMessage?: string;
  /** The span's attributes, keys as written (`gen_ai.operation.name`, …). */
  attributes: Record<string, SpanAttributeValue>;
  /**
   * The span as its source wrote it, as JSON text: the `raw` of the events it
   * gives (a dump's spans serialise it when first read: detecting never does).
   */
  raw: string;
}

const TRACE_ID_DIGITS = 32;
const SPAN_ID_DIGITS = 16;
const HEX = /^[0-9a-f]+$/i;
const DECIMAL = /^\d+$/;

/**
 * A trace or span id written as hex (OTLP/JSON; any case), as lowercase hex of
 * its width, or why it is not one. All zeroes is no id (OTLP calls it invalid).
 *
 * @example readHexId("5B8EFFF798038103D269B633813FC60C", "trace") // "5b8efff798038103d269b633813fc60c"
 */
export function readHexId(value: unknown, kind: "trace" | "span"): string | { problem: string } {
  const digits = kind === "trace" ? TRACE_ID_DIGITS : SPAN_ID_DIGITS;
  if (typeof value !== "string" || value.length !== digits || !HEX.test(value)) {
    return { problem: `must be ${digits} hex digits (got ${describeValue(value)})` };
  }
  if (/^0+$/.test(value)) return { problem: "must not be all zeroes" };
  return value.toLowerCase();
}

/**
 * A trace or span id written as an unsigned integer (the any-agent dump: Python's
 * `int` ids, read losslessly as a digit string), as lowercase hex of its width.
 *
 * @example readIntegerId("12324293800750531911", "span") // "ab08afea3548c547"
 */
export function readIntegerId(value: unknown, kind: "trace" | "span"): string | { problem: string } {
  const digits = kind === "trace" ? TRACE_ID_DIGITS : SPAN_ID_DIGITS;
  let n: bigint;
  if (typeof value === "string" && DECIMAL.test(value)) n = BigInt(value);
  else if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) n = BigInt(value);
  else return { problem: `must be a whole number (got ${describeValue(value)})` };
  const hex = n.toString(16);
  if (hex.length > digits) return { problem: `must fit in ${digits * 4} bits (got ${describeValue(value)})` };
  if (n === 0n) return { problem: "must not be zero" };
  return hex.padStart(digits, "0");
}

/** The first instant an ISO-8601 timestamp of four-digit years cannot write (year 10000). */
const END_OF_ISO_TIME_MS = 253_402_300_800_000;

/**
 * Epoch nanoseconds (a number, or a decimal string as OTLP/JSON writes 64-bit
 * integers) in epoch milliseconds, or undefined when not a positive integer
 * before the year 10000.
 */
export function readUnixNanos(value: unknown): number | undefined {
  let ms: number;
  if (typeof value === "number") ms = Number.isFinite(value) ? value / 1e6 : Number.NaN;
  else if (typeof value === "string" && DECIMAL.test(value) && value.length <= 24) {
    const nanos = BigInt(value);
    // Whole milliseconds exactly, then the remainder: a double cannot hold epoch nanoseconds.
    ms = Number(nanos / 1_000_000n) + Number(nanos % 1_000_000n) / 1e6;
  } else return undefined;
  return ms > 0 && ms < END_OF_ISO_TIME_MS ? ms : undefined;
}

/** A short JSON rendering of a value for an error message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
