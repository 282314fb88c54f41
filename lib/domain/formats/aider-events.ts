/**
 * The protocol events of one Aider session, built as plain objects and
 * validated through `toParseItem`. Every event's id is its line's offset from
 * the session header plus what it is (`57:call`, `23:edit`), and its time
 * is derived from that line (see `SessionClock`), so a second read of the
 * file, or a read of the file after Aider appended to it, repeats them.
 */
import type { ParseItem } from "./types";
import { toParseItem } from "./parsed-event";
import { omitUndefined, withDefinedFields } from "./omit-undefined";
import { formatIsoTimestamp } from "./timestamp";
import { hashToolOutput, isVerifyCommand } from "./claude-code-commands";
import { MAIN_NODE } from "./agent-budgets";
import { hashMaskedOutput, maskOutputText } from "./output-mask";
import { parseTestOutput } from "./test-output";
import { buildVerifyEvent } from "./verify-result";
import { formatEditPatch, isSameBlock, isSamePath, type EditBlock, type FailedBlock } from "./aider-edits";
import { joinEntryTexts, type ToolEntry } from "./aider-lines";
import { APPLIED, listLintRuns, TEST_QUESTION } from "./aider-output";

/** Where an event comes from: its line in the file and the text there. */
export interface AiderOrigin {
  line: number;
  /** The text there, or a function that makes it when first read (see `EventOrigin.raw`). */
  raw: string | (() => string);
  /** What the history shows there: `assistant`, `search-replace`, `commit`, `lint`, `command`, … */
  sourceType: string;
}

/**
 * The session's clock. The history's only timestamp is the session start
 * (local time without a zone, read as UTC like any zone-less protocol time);
 * an event is placed `offset` milliseconds after it, where `offset` is its
 * line's distance from the header. That keeps events in file order and gives
 * the same time on every read, but says nothing about real durations.
 */
export class SessionClock {
  /** The last second `ts` placed an event in (epoch ms), and its text up to the fraction. */
  private second = Number.NaN;
  private secondText = "";

  constructor(
    readonly runId: string,
    private readonly headerLine: number,
    private readonly startMs: number,
  ) {}

  /** The event id for what happened at `line`: `<offset>:<kind>`. */
  id(line: number, kind: string): string {
    return `${line - this.headerLine}:${kind}`;
  }

  /** `formatIsoTimestamp(startMs + offset)`, the date and time of its second made once per second (a session's events share a few). */
  ts(line: number): string {
    const ms = this.startMs + (line - this.headerLine);
    const second = ms - (((ms % 1000) + 1000) % 1000);
    if (second !== this.second) {
      this.second = second;
      // `YYYY-MM-DDTHH:MM:SS.` of `…SS.sssZ`.
      this.secondText = formatIsoTimestamp(second).slice(0, -4);
    }
    const fraction = ms - second;
    return `${this.secondText}${fraction < 10 ? "00" : fraction < 100 ? "0" : ""}${fraction}Z`;
  }
}

/** Collects a session's events with their time, to hand them out in time order. */
export class EventSink {
  private readonly items: { at: number; seq: number; item: ParseItem }[] = [];

  constructor(readonly clock: SessionClock) {}

  /**
   * Adds an event stamped at `atLine` (its time), identified by `idLine` (by
   * default the same) and `kind`, which names it among that line's events.
   */
  emit(atLine: number, kind: string, fields: Record<string, unknown>, origin: AiderOrigin, idLine = atLine): void {
    const event = withDefinedFields({ v: 1, id: this.clock.id(idLine, kind), runId: this.clock.runId, ts: this.clock.ts(atLine) }, fields);
    this.push(atLine, toParseItem(event, { line: origin.line, raw: origin.raw, sourceType: origin.sourceType, format: "aider" }));
  }

  /** Adds an event built elsewhere (a `verify.result`), stamped at `atLine`. */
  emitBuilt(atLine: number, event: Record<string, unknown>, origin: AiderOrigin): void {
    this.push(atLine, toParseItem(omitUndefined(event), { line: origin.line, raw: origin.raw, sourceType: origin.sourceType, format: "aider" }));
  }

  /** The events in time order (file order of the lines that stamp them). */
  drain(): ParseItem[] {
    return this.items.sort((a, b) => a.at - b.at || a.seq - b.seq).map((entry) => entry.item);
  }

  private push(at: number, item: ParseItem): void {
    this.items.push({ at, seq: this.items.length, item });
  }
}

/**
 * An applied SEARCH/REPLACE block: a successful `edit` call (`<block offset>:edit`)
 * and the diff it made (`…:diff`), at the time of Aider's `Applied edit` line.
 */
export function emitAppliedEdit(sink: EventSink, block: EditBlock, evidence: { line: number; text: string }): void {
  const origin = { line: block.line, raw: block.raw, sourceType: "search-replace" };
  const args = { path: block.path, search: block.searchText, replace: block.replaceText };
  const edit = { node: MAIN_NODE, type: "tool.called", tool: "edit", args, ok: true, outputHash: hashToolOutput(evidence.text) };
  sink.emit(evidence.line, "edit", edit, origin, block.line);
  sink.emit(evidence.line, "diff", { node: MAIN_NODE, type: "artifact.diff", files: [block.path], patch: formatEditPatch(block) }, origin, block.line);
}

/** Lines of Aider's edit-format report that say nothing of the error itself. */
const NOT_AN_ERROR = /^(?:The LLM did not conform to the edit format\.|https?:\/\/)/;

/**
 * A block Aider could not apply: a failed `edit` call whose output is Aider's
 * report of it. Its id is the proposed block's when the report names one of
 * the reply's blocks, so one block has one `edit` call whatever its outcome.
 * A reply Aider could not read as edits at all comes with `path` empty: its
 * args are the error Aider names.
 */
export function emitFailedEdit(sink: EventSink, failed: FailedBlock, block: EditBlock | undefined): void {
  const clock = sink.clock;
  const args =
    failed.path === ""
      ? { error: failed.text.split("\n").find((line) => line.trim() !== "" && !NOT_AN_ERROR.test(line)) ?? failed.text }
      : block !== undefined
        ? { path: failed.path, search: block.searchText, replace: block.replaceText }
        : { path: failed.path, search: failed.search.join("\n"), replace: failed.replace.join("\n") };
  const event = {
    v: 1,
    id: clock.id(block?.line ?? failed.line, "edit"),
    runId: clock.runId,
    ts: clock.ts(failed.line),
    type: "tool.called",
    node: MAIN_NODE,
    tool: "edit",
    args,
    ok: false,
    outputHash: hashToolOutput(failed.text),
  };
  sink.emitBuilt(failed.line, event, { line: failed.line, raw: failed.raw, sourceType: "edit-failure" });
}

/**
 * One command run (a lint, a test, a `/run`, an auto-commit, an `/undo`) as a
 * `tool.called`. Every caller writes all its fields, in this order: objects of
 * one shape keep `emitCommand`'s reads of them fast.
 */
export interface CommandCall {
  line: number;
  tool: string;
  args: Record<string, unknown>;
  ok: boolean | undefined;
  output: string;
  raw: string;
  sourceType: string;
  /** A verification: `failed` from what the history shows; undefined lets the test-output parser decide. */
  verify: { command: string; failed?: boolean } | undefined;
}

/** A command's `tool.called` (`<offset>:<tool>`) and, for a verification, its `verify.result` (`…:verify`). */
export function emitCommand(sink: EventSink, call: CommandCall): void {
  const origin = { line: call.line, raw: call.raw, sourceType: call.sourceType };
  // Masked once: the output hash and a verification's failure signature both read it.
  const masked = maskOutputText(call.output);
  const fields = { type: "tool.called", node: MAIN_NODE, tool: call.tool, args: call.args, ok: call.ok, outputHash: hashMaskedOutput(masked) };
  sink.emit(call.line, call.tool, fields, origin);
  if (call.verify === undefined) return;
  const clock = sink.clock;
  const event = buildVerifyEvent({
    runId: clock.runId,
    id: `${clock.id(call.line, call.tool)}:verify`,
    ts: clock.ts(call.line),
    node: MAIN_NODE,
    command: call.verify.command,
    output: call.output,
    failed: call.verify.failed,
    maskedOutput: masked,
  });
  sink.emitBuilt(call.line, event, origin);
}

/**
 * The outcome of each block of a reply: failed when Aider's report names it,
 * applied when Aider says it applied edits to its file (or "the other"
 * blocks), else unknown (an interrupted reply, a refused file) and left out.
 */
export function emitEditOutcomes(
  sink: EventSink,
  call: { edits: readonly EditBlock[]; failed: readonly FailedBlock[]; applied: readonly ToolEntry[]; othersApplied?: ToolEntry },
): void {
  const edits = call.edits;
  const matched = new Set<EditBlock>();
  for (const failed of call.failed) {
    const block = edits.find((e) => !matched.has(e) && isSameBlock(e, failed));
    if (block !== undefined) matched.add(block);
    emitFailedEdit(sink, failed, block);
  }
  for (const block of edits) {
    if (matched.has(block)) continue;
    const evidence = call.applied.find((entry) => isSamePath(APPLIED.exec(entry.text)?.[1] ?? "", block.path)) ?? call.othersApplied;
    if (evidence !== undefined) emitAppliedEdit(sink, block, evidence);
  }
  // An edit Aider applied from no SEARCH/REPLACE block (the `whole` and `udiff` edit formats): the call, without a diff.
  for (const entry of call.applied) {
    const path = APPLIED.exec(entry.text)?.[1] ?? "";
    if (edits.some((block) => isSamePath(path, block.path)) || call.failed.some((failed) => isSamePath(path, failed.path))) continue;
    const fields = { type: "tool.called", node: MAIN_NODE, tool: "edit", args: { path }, ok: true, outputHash: hashToolOutput(entry.text) };
    sink.emit(entry.line, "edit", fields, { line: entry.line, raw: entry.raw, sourceType: "applied-edit" });
  }
}

/** A command the user typed (`/test`, `/run`, `/lint`, `/undo`) with the console output Aider printed for it. */
export interface UserCommand {
  line: number;
  name: string;
  /** What follows the command's name (a `/test` or `/run`'s shell command). */
  args: string;
  /** The command as typed (`/undo`, `/test pytest -x`). */
  typed: string;
  raw: string;
  entries: ToolEntry[];
  /** Aider added the command's output to the chat (`Added N lines of output`). */
  outputAdded: boolean;
}

/**
 * A user command's `tool.called` (tool = its name), and for `/test`, a clean
 * `/lint` and a `/run` whose quoted output is a test runner's, its
 * `verify.result`. `replyFollows`: the model answered without the user typing.
 */
export function emitUserCommand(sink: EventSink, command: UserCommand, replyFollows: boolean): void {
  const output = joinEntryTexts(command.entries);
  const outcome = readUserCommandOutcome(command, output, replyFollows);
  if (outcome === null) return;
  const args = { command: command.typed };
  emitCommand(sink, { line: command.line, tool: command.name, args, ok: outcome.ok, output, raw: command.raw, sourceType: "command", verify: outcome.verify });
}

/**
 * Whether a user command worked and what it verified, as far as the history
 * shows; null for a `/lint` that found errors (its lint runs are the calls).
 */
function readUserCommandOutcome(command: UserCommand, output: string, replyFollows: boolean): Pick<CommandCall, "ok" | "verify"> | null {
  if (command.name === "undo") return { ok: /^Removed: /m.test(output), verify: undefined };
  if (command.name === "test") {
    // Aider hands a test's output to the model only when it exits non-zero; a passing run prints nothing.
    const failed = command.outputAdded || replyFollows || command.entries.some((e) => TEST_QUESTION.test(e.text));
    return { ok: !failed, verify: { command: command.args || command.typed, failed } };
  }
  if (command.name === "lint") {
    return listLintRuns(command.entries).length === 0 ? { ok: true, verify: { command: `/lint ${command.args}`.trim(), failed: false } } : null;
  }
  // /run: no exit status; a verification only when its quoted output is a test runner's.
  return { ok: undefined, verify: isVerifyCommand(command.args) && parseTestOutput(output) !== null ? { command: command.args } : undefined };
}
