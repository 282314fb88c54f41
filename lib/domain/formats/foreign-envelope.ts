/**
 * Reading the envelope of a foreign JSON line (SDD runtime events, graph-
 * workflow events) with messages that name the source's own fields, before
 * the line is mapped onto the protocol.
 */
import { isJsonObject, parseJsonObject } from "./json-line";
import { MAX_ID_LENGTH } from "./protocol";
import { mustBe } from "./protocol-fields";
import { parseIsoTimestamp } from "./timestamp";

/** A foreign line whose envelope was read. */
export interface ForeignLine {
  source: Record<string, unknown>;
  type: string;
  runId: string;
  ts: string;
  /** `ts` in epoch milliseconds. */
  tsMs: number;
}

export type ForeignLineResult = { ok: true; value: ForeignLine } | { ok: false; message: string };

/**
 * Parses a line and checks its `type`, `runId` and timestamp (named `tsField`
 * as the source names it).
 */
export function readForeignLine(text: string, tsField: "ts" | "timestamp"): ForeignLineResult {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) return parsed;
  const source = parsed.value;
  const problem = checkString(source, "type") ?? checkString(source, "runId") ?? checkString(source, tsField);
  if (problem !== null) return { ok: false, message: problem };
  const runId = source.runId as string;
  if (runId.length > MAX_ID_LENGTH) {
    return { ok: false, message: `field "runId" must be at most ${MAX_ID_LENGTH} characters (got ${runId.length})` };
  }
  const ts = source[tsField] as string;
  const tsMs = parseIsoTimestamp(ts);
  if (Number.isNaN(tsMs)) {
    return { ok: false, message: `field "${tsField}" must be an ISO-8601 timestamp (got ${JSON.stringify(ts.slice(0, 60))})` };
  }
  return { ok: true, value: { source, type: source.type as string, runId, ts, tsMs } };
}

/** A sub-object of a foreign event, or an empty one, for reading optional fields. */
export function readObject(value: unknown): Record<string, unknown> {
  return isJsonObject(value) ? value : {};
}

/** A string usable as a protocol `node` (non-empty, at most 200 characters), else undefined. */
export function readNodeId(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= MAX_ID_LENGTH ? value : undefined;
}

/** A non-empty string, else undefined. */
export function readString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A finite number, else undefined. */
export function readNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function checkString(source: Record<string, unknown>, name: string): string | null {
  const value = source[name];
  if (value === undefined || value === null) return `missing required field "${name}"`;
  if (typeof value !== "string") return mustBe(name, "a string", value);
  if (value === "") return `field "${name}" must not be empty`;
  return null;
}
