/**
 * A run exported by Loopscope (`loopscope export <run> --json`): one JSON
 * document holding what another Loopscope needs to store the same run: its
 * events as they arrived (each event's original line, and the protocol event
 * it was mapped to), the facts and markdown its reports stated, and the
 * decisions people made on it. Findings, nodes, edges and the summary are in
 * the document for its readers; the receiving Loopscope derives them from the
 * events again, with its own detector settings (`detector` says which
 * settings made the exported ones).
 */
import type { JsonObject, SourceFormat } from "../protocol/types";
import type { JsonDocumentFormat } from "./document-format";
import { describeJsonType, isJsonObject } from "./json-line";
import { readDecision, readRunFacts, mustBe, type Problems } from "./loopscope-export-fields";
import { toParseItem } from "./parsed-event";
import type { ImportedDecision, ParseItem, RunFactFields } from "./types";

export const RUN_EXPORT_KIND = "run-export";
export const RUN_EXPORT_VERSION = 1;

/** An event as stored: where it came from, its original text, and the protocol event it was mapped to (null when `raw` is one). */
export interface ExportedEvent {
  id: string;
  ts: string;
  tsMs: number;
  type: string;
  sourceType: string;
  node: string | null;
  line: number | null;
  record: string | null;
  raw: string;
  mapped: JsonObject | null;
}

export interface RunExportDocument {
  loopscope: typeof RUN_EXPORT_KIND;
  version: typeof RUN_EXPORT_VERSION;
  exportedAt: string;
  run: {
    id: string;
    /** The format the run was first stored under. */
    format: SourceFormat;
    facts: RunFactFields | null;
    report: string | null;
    retrospective: string | null;
    /** For readers: the stored summary (status, halt, totals). Derived again on ingest. */
    summary: JsonObject;
  };
  /** For readers: the detector settings the exported findings were made under. */
  detector: JsonObject;
  /** In timeline order: ts instant, then arrival. */
  events: ExportedEvent[];
  decisions: ImportedDecision[];
  /** For readers: the findings, nodes and edges as stored. Derived again on ingest. */
  findings: JsonObject[];
  nodes: JsonObject[];
  edges: JsonObject[];
}

/** The largest export ingest reads (a document is read whole; a JavaScript string holds at most ~512 MiB). */
export const MAX_EXPORT_DOCUMENT_BYTES = 256 << 20;

/** How an export starts (`detect-format.ts` knows it by this, so its larger size limit applies). */
export const RUN_EXPORT_HEAD = `{"loopscope":"${RUN_EXPORT_KIND}"`;

/**
 * The document as text, in pieces to write one after another: the fields
 * first, then one event, decision or finding per line, so a long run is
 * written without one string of its whole size and reads well in a diff.
 *
 * @example writeRunExportDocument(doc).join("") // starts {"loopscope":"run-export","version":1,…
 */
export function* writeRunExportDocument(doc: RunExportDocument): Generator<string> {
  const { events, decisions, findings, nodes, edges, ...head } = doc;
  const headText = JSON.stringify(head);
  yield `${headText.slice(0, -1)},\n`;
  const lists: [string, unknown[]][] = [["events", events], ["decisions", decisions], ["findings", findings], ["nodes", nodes], ["edges", edges]];
  for (const [index, [name, list]] of lists.entries()) {
    yield `"${name}":[`;
    for (let i = 0; i < list.length; i++) yield `${i === 0 ? "\n" : ",\n"}${JSON.stringify(list[i])}`;
    yield `${list.length ? "\n" : ""}]${index === lists.length - 1 ? "}\n" : ",\n"}`;
  }
}

/** Formats a run may have been stored under (not this one: a run keeps its first format). */
const STORED_FORMATS: ReadonlySet<string> = new Set([
  "protocol", "sdd-report", "sdd-events", "workflow-events", "claude-code", "codex", "openhands", "swe-agent",
  "mini-swe-agent", "aider", "otel-genai",
]);

/** The run export as a JSON-document format: matched by its `loopscope` key, never by guessing. */
export const LOOPSCOPE_EXPORT: JsonDocumentFormat = {
  format: "loopscope-export",
  matches: (value) => isJsonObject(value) && value.loopscope === RUN_EXPORT_KIND,
  parse: (value) => parseRunExport(value),
};

/**
 * The items of an export, in the order the ingest writer needs them: the run
 * (its format and decisions), its events, then its facts and reports (merged
 * after the events, as a rebuild does). A bad event or decision is one error
 * naming where it is (`events[12].raw: not JSON: …`); the rest is still read.
 * A document without a readable run (`run.id`, `run.format`) yields only its error.
 */
export function parseRunExport(value: unknown): ParseItem[] {
  if (!isJsonObject(value)) return [error(mustBe("the export", "a JSON object", value))];
  if (value.version !== RUN_EXPORT_VERSION) {
    return [error(`"version" ${JSON.stringify(value.version ?? null)} is not an export version this Loopscope reads (${RUN_EXPORT_VERSION})`)];
  }
  const run = value.run;
  if (!isJsonObject(run)) return [error(mustBe("run", "an object", run))];
  if (typeof run.id !== "string" || run.id === "" || run.id.length > 200) return [error("run.id must be a text of 1–200 characters")];
  if (typeof run.format !== "string" || !STORED_FORMATS.has(run.format)) {
    return [error(`run.format ${JSON.stringify(run.format ?? null)} is not a format Loopscope stores runs under`)];
  }
  const runId = run.id;
  const problems: Problems = [];
  const decisions = readList(value.decisions, "decisions", problems).flatMap((d, i) => readDecision(d, `decisions[${i}]`, problems) ?? []);
  const items: ParseItem[] = [{ kind: "imported-run", runId, format: run.format as SourceFormat, decisions }];
  readList(value.events, "events", problems).forEach((e, i) => {
    const item = readEvent(e, `events[${i}]`, runId);
    if (typeof item === "string") problems.push(item);
    else items.push(item);
  });
  items.push(...readFactItems(run, runId, run.format as SourceFormat, problems));
  return [...items, ...problems.map(error)];
}

function error(message: string): ParseItem {
  return { kind: "error", line: null, message };
}

function readList(value: unknown, path: string, problems: Problems): unknown[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  problems.push(mustBe(path, "an array", value));
  return [];
}

/** One event: the protocol event (mapped, else its raw line) validated as any input is. */
function readEvent(value: unknown, path: string, runId: string): ParseItem | string {
  if (!isJsonObject(value)) return mustBe(path, "an object", value);
  const { raw, mapped, sourceType, line, record, tsMs } = value;
  if (typeof raw !== "string") return mustBe(`${path}.raw`, "a string", raw);
  if (mapped !== null && mapped !== undefined && !isJsonObject(mapped)) return mustBe(`${path}.mapped`, "an object or null", mapped);
  if (typeof sourceType !== "string" || sourceType === "") return mustBe(`${path}.sourceType`, "a non-empty string", sourceType);
  if (line !== null && line !== undefined && !(Number.isSafeInteger(line) && (line as number) > 0)) return mustBe(`${path}.line`, "a line number or null", line);
  if (record !== null && record !== undefined && typeof record !== "string") return mustBe(`${path}.record`, "a string or null", record);
  if (tsMs !== undefined && !(typeof tsMs === "number" && Number.isFinite(tsMs))) return mustBe(`${path}.tsMs`, "a number", tsMs);
  let event: unknown = mapped ?? null;
  if (event === null) {
    try {
      event = JSON.parse(raw);
    } catch (e) {
      return `${path}.raw: not JSON (${e instanceof Error ? e.message : String(e)}), and the event has no mapped form`;
    }
  }
  if (!isJsonObject(event)) return mustBe(`${path}.${mapped ? "mapped" : "raw"}`, "a JSON object", event);
  // A mapped event is stored with its mapped form; a protocol line is stored as it is.
  const item = toParseItem(event, {
    line: (line as number | null | undefined) ?? null, record: (record as string | null | undefined) ?? null, raw, sourceType,
    format: mapped ? "loopscope-export" : "protocol",
  });
  if (item.kind === "error") return `${path}: ${item.message}`;
  if (item.event.runId !== runId) return `${path}: runId ${JSON.stringify(item.event.runId)} is not the exported run's (${JSON.stringify(runId)})`;
  if (typeof tsMs === "number") item.tsMs = tsMs;
  return item;
}

/**
 * The run's facts and documents as ingest takes them: the facts with the
 * report's markdown (the report column), and the retrospective as a document
 * of its own, whose merge changes no fact the report stated.
 */
function readFactItems(run: Record<string, unknown>, runId: string, format: SourceFormat, problems: Problems): ParseItem[] {
  const facts = readRunFacts(run.facts, "run.facts", problems);
  const text = (key: "report" | "retrospective") => {
    const v = run[key];
    if (v === null || v === undefined || typeof v === "string") return v ?? null;
    problems.push(`run.${key} must be a string or null (got ${describeJsonType(v)})`);
    return null;
  };
  const report = text("report");
  const retrospective = text("retrospective");
  const items: ParseItem[] = [];
  // Ingest files a document's markdown under the column its `document` names.
  const main: RunFactFields | null = facts === null ? null : { ...facts };
  if (main) delete main.markdown;
  const inMain = main?.document === "report" ? report : main?.document === "retrospective" ? retrospective : null;
  if (main) items.push({ kind: "run", runId, format, facts: inMain !== null ? { ...main, markdown: inMain } : main });
  if (report !== null && (main === null || main.document !== "report")) items.push({ kind: "run", runId, format, facts: { document: "report", markdown: report } });
  if (retrospective !== null && (main === null || main.document !== "retrospective")) {
    items.push({ kind: "run", runId, format, facts: { document: "retrospective", markdown: retrospective } });
  }
  return items;
}
