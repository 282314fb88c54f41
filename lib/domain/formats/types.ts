import type { LoopEvent, SourceFormat } from "../protocol/types";

/**
 * What a parser yields while it reads one source (a file or a request body).
 * Parsers never throw on bad input: every problem becomes a `ParseError` with
 * its line, and every valid line around it is still yielded.
 */
export type ParseItem = ParsedEvent | ParseError | RunFacts | ImportedRun;

export interface ParsedEvent {
  kind: "event";
  /** The event, normalised onto the protocol (foreign formats are mapped). */
  event: LoopEvent;
  /** 1-based line of the source it came from; `null` when synthesised from a whole document. */
  line: number | null;
  /**
   * Where inside a JSON document the event came from, as the format names it
   * (`trajectory[3]` for SWE-agent, `messages[7]` for mini-SWE-agent,
   * `history[42]` for OpenHands); absent for line formats.
   */
  record?: string | null;
  /** The original text it came from (the JSON line, or the report section). */
  raw: string;
  /** The type the source itself used (`handoff.sent`, `tool.completed`, …); equals `event.type` for the protocol. */
  sourceType: string;
  format: SourceFormat;
  /** The instant of `event.ts` in epoch ms, as the validator parsed it. */
  tsMs?: number;
}

export interface ParseError {
  kind: "error";
  line: number | null;
  message: string;
}

/**
 * Run-level facts that a document states about a run and that no event
 * carries (SDD run reports and retrospectives): merged into the run's summary.
 * Every field is optional; a field left out says nothing.
 */
export interface RunFacts {
  kind: "run";
  runId: string;
  format: SourceFormat;
  facts: RunFactFields;
}

export interface BudgetLine {
  name: string;
  used: number;
  max: number | null;
}

export interface DiagnosticEntry {
  source: string;
  location: string;
  count: number;
  lastSeen?: string;
  message?: string;
}

export interface RunFactFields {
  /** Which document stated the facts; a run report's facts win over its retrospective's (rounded) ones. */
  document?: "report" | "retrospective";
  title?: string;
  ticketId?: string;
  ticketPath?: string;
  ticketStatus?: string;
  commitHash?: string;
  profile?: string;
  /** `success` | `failed` | `partial` as the report says it. */
  reportStatus?: string;
  terminalStatus?: string;
  stopReason?: string;
  error?: string;
  startedAt?: string;
  endedAt?: string;
  durationMs?: number;
  tokens?: number;
  steps?: number;
  toolCalls?: number;
  llmCalls?: number;
  budgets?: BudgetLine[];
  repeatedCommands?: { command: string; count: number }[];
  diagnostics?: DiagnosticEntry[];
  phases?: string[];
  filesChanged?: string[];
  /** The whole markdown document (report or retrospective section), kept as written. */
  markdown?: string;
  /** Extra labelled values found and not mapped above (`Diagnostic Latency`, `Failure Mode`, …). */
  extra?: Record<string, string>;
}

/**
 * What a run exported by another Loopscope states beyond its events and
 * facts (`loopscope-export.ts`): the format it was first stored under, and
 * the decisions people made on it. Comes before the run's events.
 */
export interface ImportedRun {
  kind: "imported-run";
  runId: string;
  format: SourceFormat;
  decisions: ImportedDecision[];
}

/** A person's decision on a halt, as stored (the `human.decision` event that records it is one of the run's events). */
export interface ImportedDecision {
  id: string;
  haltKey: string;
  action: string;
  directive: string | null;
  budgetDelta: Record<string, unknown> | null;
  provider: string | null;
  by: string;
  eventId: string;
  /** Epoch ms. */
  createdAt: number;
  /** When the runtime received and acknowledged it (epoch ms), if it did. */
  deliveredAt: number | null;
  ackedAt: number | null;
}
