/**
 * Protocol events synthesised from the SDD agent's documents (run reports and
 * retrospectives). Their ids depend only on the run id and the document's
 * content, never on a file path, so that the report and the retrospective of
 * one run produce the same `run.started` / `run.completed` ids: whichever is
 * read first is stored and the other is an ignored duplicate.
 */
import { TERMINAL_STATUSES } from "../protocol/types";
import type { ParsedEvent, ParseError } from "./types";
import { toParseItem } from "./parsed-event";
import { formatIsoTimestamp, parseIsoTimestamp } from "./timestamp";

/** `sdd:<runId>:<suffix>`: the id of an event synthesised for an SDD run. */
export function makeSddEventId(runId: string, suffix: string): string {
  return `sdd:${runId}:${suffix}`;
}

/** True for the four terminal statuses of the protocol. */
export function isTerminalStatus(value: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(value);
}

/** When a run started: its end minus its duration when both are known, else its end. */
export function computeStartedAt(endedAt: string | undefined, durationMs: number | undefined): string | undefined {
  if (endedAt === undefined) return undefined;
  const end = parseIsoTimestamp(endedAt);
  if (durationMs === undefined || Number.isNaN(end)) return endedAt;
  return formatIsoTimestamp(end - durationMs);
}

export interface SddOrigin {
  line: number;
  raw: string;
  sourceType: string;
}

/** Builds one synthesised event of an SDD run, validated like any protocol event. */
export function buildSddEvent(
  runId: string,
  idSuffix: string,
  ts: string,
  type: string,
  fields: Record<string, unknown>,
  origin: SddOrigin,
): ParsedEvent | ParseError {
  const event: Record<string, unknown> = { v: 1, id: makeSddEventId(runId, idSuffix), runId, ts, type };
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) event[key] = value;
  }
  return toParseItem(event, { ...origin, format: "sdd-report" });
}

/** `sdd:<runId>:run.started`, with whatever the document knows about the run's start. */
export function buildSddRunStarted(
  runId: string,
  ts: string,
  fields: { title?: string; ticketId?: string; profile?: string },
  origin: SddOrigin,
): ParsedEvent | ParseError {
  return buildSddEvent(runId, "run.started", ts, "run.started", fields, origin);
}

/** `sdd:<runId>:run.completed`: only for a stated terminal status. */
export function buildSddRunCompleted(
  runId: string,
  ts: string,
  terminalStatus: string,
  stopReason: string | undefined,
  origin: SddOrigin,
): ParsedEvent | ParseError {
  return buildSddEvent(runId, "run.completed", ts, "run.completed", { terminalStatus, stopReason }, origin);
}
