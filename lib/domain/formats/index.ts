/**
 * Input parsers of Loopscope: the loop protocol and the foreign formats of
 * `shared/spec/formats.md`, from bytes to protocol events, run facts and
 * per-line errors. Pure: callers hand in strings or async iterables of chunks.
 */
export type { SourceFormat } from "../protocol/types";
export type {
  BudgetLine,
  DiagnosticEntry,
  ParsedEvent,
  ParseError,
  ParseItem,
  RunFactFields,
  RunFacts,
  ImportedDecision,
  ImportedRun,
} from "./types";
export {
  createLineMapper,
  isJsonLinesFormat,
  MAX_DOCUMENT_BYTES,
  parseProtocolLines,
  parseSource,
  UNSUPPORTED_FORMAT_MESSAGE,
  type ParseSourceFormat,
  type ParseSourceOptions,
  type SourceItem,
} from "./parse-source";
export { DETECT_MAX_BYTES, DETECT_MAX_LINES, detectFormat, detectFormatFromBytes, type DetectedFormat } from "./detect-format";
export {
  DEFAULT_MAX_LINE_BYTES,
  LineSplitter,
  splitLines,
  splitLinesSync,
  type LineItem,
  type SplitLinesOptions,
} from "./lines";
export { MAX_ID_LENGTH, parseProtocolLine, validateProtocolEvent, type ValidationResult } from "./protocol";
export { formatIsoTimestamp, isIsoTimestamp, parseIsoTimestamp } from "./timestamp";
export { parseSddReport } from "./sdd-report";
export { DIAGNOSTIC_EVIDENCE_MIN_COUNT, listReportLoopEvidence, type LoopEvidence } from "./report-loop-evidence";
export { parseRetrospectives, PHASE_NODES, splitPhases } from "./retrospectives";
export { createSddEventsMapper } from "./sdd-events";
export { createWorkflowEventsMapper, STALL_HOLD_LINES } from "./workflow-events";
export { createClaudeCodeMapper } from "./claude-code";
export { createCodexMapper } from "./codex";
export { createOpenHandsMapper, OPENHANDS_EXPORT } from "./openhands";
export { parseAiderHistory } from "./aider";
export { JSON_DOCUMENT_FORMATS, parseJsonDocument } from "./json-document";
export { LOOPSCOPE_EXPORT, parseRunExport, writeRunExportDocument, type ExportedEvent, type RunExportDocument } from "./loopscope-export";
export { mapGenAiSpans, spansFromOtlpJson, type GenAiSpan } from "./otel-genai";
export { parseTestOutput, type TestOutcome } from "./test-output";
export { createProtocolMapper, type LineMapper } from "./line-mapper";
export { RUN_STATUS_TYPE, type RunStatusEvent, type RunStatusFields } from "./extension-events";
