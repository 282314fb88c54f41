/**
 * One Aider session (one run) mapped onto protocol events: the turns the user
 * typed, the model calls, the SEARCH/REPLACE edits with their outcome, and the
 * commands Aider or the user ran (lint, tests, `/run`, commits, `/undo`).
 */
import type { ParseItem } from "./types";
import { cutTitle } from "./claude-code-records";
import { MAIN_NODE, SESSION_BUDGETS } from "./agent-budgets";
import { isSlice, joinEntryRaws, joinEntryTexts, joinLines, type AiderBlock, type SourceLine, type SourceText, type ToolEntry } from "./aider-lines";
import { listEditBlocks, listFailedBlocks, type EditBlock, type FailedBlock } from "./aider-edits";
import { emitCommand, emitEditOutcomes, emitFailedEdit, emitUserCommand, EventSink, SessionClock, type UserCommand } from "./aider-events";
import {
  ADD_FILE_QUESTION,
  APPLIED,
  FAILED_BANNER,
  KEYBOARD_INTERRUPT,
  LINT_QUESTION,
  NOT_CONFORMING,
  OTHERS_APPLIED,
  OUTPUT_ADDED,
  REFLECTIONS_EXHAUSTED,
  SHELL_RUNNING,
  TEST_QUESTION,
  endsFailureReport,
  endsReport,
  listLintRuns,
  readAnnouncement,
  readAnswer,
  readCommit,
  readReflection,
  readUsage,
  removeThinking,
  type CallUsage,
  type Reflection,
  type SessionAnnouncement,
} from "./aider-output";

export interface AiderSessionInput {
  runId: string;
  header: SourceLine;
  /** The header's time in epoch ms. */
  startMs: number;
  blocks: AiderBlock[];
  /** The whole document the lines were read from. */
  source: SourceText;
  /** Another session follows in the file: this one is over, whatever it shows last. */
  over: boolean;
}

/** One model call: a reply, closed by its `Tokens:` line. */
interface Call {
  line: number;
  lines: SourceLine[];
  turn: number;
  reflection?: Reflection;
  usage?: CallUsage;
  closedAt?: number;
  edits: EditBlock[];
  applied: ToolEntry[];
  othersApplied?: ToolEntry;
  failed: FailedBlock[];
}

const PROMPT_COMMANDS = new Set(["ask", "code", "architect", "context"]);
const EXIT_COMMANDS = new Set(["exit", "quit"]);
const TRACKED_COMMANDS = new Set(["run", "test", "lint", "undo"]);

/** Maps one session; never throws. Events come out in time order, `run.started` first. */
export function mapAiderSession(input: AiderSessionInput): ParseItem[] {
  return new AiderSession(input).map();
}

class AiderSession {
  private readonly sink: EventSink;
  private readonly announcement: SessionAnnouncement;
  private turn = 0;
  private reflection: Reflection | undefined;
  private call: Call | undefined;
  private command: UserCommand | undefined;
  private title: string | undefined;
  private fallbackTitle: string | undefined;
  private exhaustedLine: number | undefined;
  private lastHumanLine = 0;
  private end: { line: number; reason: string } | undefined;

  constructor(private readonly input: AiderSessionInput) {
    this.sink = new EventSink(new SessionClock(input.runId, input.header.line, input.startMs));
    const firstUser = input.blocks.findIndex((b) => b.kind === "user");
    const opening = input.blocks.slice(0, firstUser === -1 ? undefined : firstUser);
    this.announcement = readAnnouncement(opening.flatMap((b) => (b.kind === "tool" ? b.entries : [])));
  }

  map(): ParseItem[] {
    const blocks = this.input.blocks;
    blocks.forEach((block, at) => {
      if (block.kind === "user") this.readUser(block.lines);
      else if (block.kind === "assistant") this.readReply(block.lines);
      else this.readOutput(block.entries, blocks[at - 1]?.kind === "user");
    });
    const last = blocks.at(-1);
    const lastLine = last === undefined ? this.input.header.line : last.kind === "tool" ? last.entries[last.entries.length - 1].line : last.lines[last.lines.length - 1].line;
    // A reply or command still open at the end of the file may be completed by a longer read: left out until
    // then, unless the session is over (another follows, or it visibly ended).
    // A one-shot session whose reflections ran out is over too: Aider gives up on its one message and exits.
    const gaveUp = this.announcement.oneShot && this.exhaustedLine !== undefined && this.exhaustedLine > this.lastHumanLine;
    const over = this.input.over || this.end !== undefined || gaveUp;
    if (over) {
      this.settleCommand(false);
      this.finishCall();
      // Placed at the give-up line when nothing else ends it yet: the same place on every read of a growing file.
      const endLine = this.input.over || this.exhaustedLine === undefined ? lastLine : this.exhaustedLine;
      if (this.end === undefined && this.announcement.oneShot) this.end = { line: endLine, reason: "one-shot session (--message) ended" };
    }
    if (this.call?.closedAt !== undefined) this.settleEdits(this.call);
    // The title is the first prompt: until the file shows one, a longer read may still give it.
    if (this.title !== undefined || over) this.emitStarted();
    this.emitCompleted();
    return this.sink.drain();
  }

  private readUser(lines: SourceLine[]): void {
    this.settleCommand(false);
    this.finishCall();
    const text = lines.map((l) => l.text).join("\n").trim();
    const reflection = readReflection(text);
    // Aider writes `<blank>` for an empty input: nothing was asked.
    if (text === "<blank>") return;
    if (reflection !== undefined) {
      this.reflection = reflection;
      return;
    }
    this.turn++;
    this.reflection = undefined;
    this.lastHumanLine = lines[0].line;
    const command = /^(?:\/(\S+)|!)\s*([\s\S]*)$/.exec(text);
    if (command === null) {
      this.title ??= text;
      return;
    }
    const name = command[1]?.toLowerCase() ?? "run";
    const args = command[2].trim();
    if (PROMPT_COMMANDS.has(name) && args !== "") this.title ??= args;
    this.fallbackTitle ??= text;
    if (EXIT_COMMANDS.has(name)) this.end ??= { line: lines[0].line, reason: `user typed ${text}` };
    if (TRACKED_COMMANDS.has(name)) {
      const raw = lines.map((l) => `#### ${l.text}`).join("\n");
      this.command = { line: lines[0].line, name, args, typed: text, raw, entries: [], outputAdded: false };
    }
  }

  private readReply(lines: SourceLine[]): void {
    // A reply that comes right after a failing /test: Aider sent the output on its own.
    this.settleCommand(true);
    if (this.call !== undefined && this.call.closedAt === undefined) {
      this.call.lines.push(...lines);
      return;
    }
    this.finishCall();
    this.call = this.openCall(lines[0].line, [...lines]);
  }

  private readOutput(entries: ToolEntry[], afterUser: boolean): void {
    if (afterUser && this.command !== undefined) this.command.entries.push(...entries);
    for (let at = 0; at < entries.length; at++) at = this.readOutputLine(entries, at, afterUser);
    for (const run of listLintRuns(entries, this.input.source)) {
      const verify = { command: run.command, failed: true };
      emitCommand(this.sink, { line: run.line, tool: "lint", args: { command: run.command }, ok: false, output: run.output, raw: run.raw, sourceType: "lint", verify });
    }
  }

  /**
   * Reads the console line at `at`; returns the index of the last line it
   * read. Each pattern is tried only on a line whose first character is the
   * pattern's (most console lines are a linter's), in the order that settles
   * a line two patterns could read.
   */
  private readOutputLine(entries: ToolEntry[], at: number, afterUser: boolean): number {
    const entry = entries[at];
    const text = entry.text;
    switch (text.charCodeAt(0)) {
      case 84: {
        // `T`okens, `T`he LLM
        const usage = readUsage(text);
        if (usage !== null) this.closeCall(entry, usage);
        else if (text.startsWith("The LLM ") && NOT_CONFORMING.test(text)) return this.readFormatError(entries, at);
        return at;
      }
      case 35:
        // `# The other N blocks were applied`, `# N blocks failed to match!`
        if (!text.startsWith("# ")) return at;
        if (OTHERS_APPLIED.test(text) && this.call !== undefined) this.call.othersApplied = entry;
        else if (FAILED_BANNER.test(text)) return this.readFailureReport(entries, at);
        return at;
      case 65:
        // `A`pplied edit, and the questions `readQuestionOrEnd` reads
        if (text.startsWith("Applied edit to ") && APPLIED.test(text)) this.call?.applied.push(entry);
        else this.readQuestionOrEnd(entries, at, afterUser);
        return at;
      case 67: {
        const commit = readCommit(text);
        if (commit !== null) this.emitCommit(entry, commit.message);
        return at;
      }
      case 82:
        if (text.startsWith("Running ") && SHELL_RUNNING.test(text)) this.emitShell(entries, at);
        return at;
      case 70: // `F`ix lint errors
      case 79: // `O`nly N reflections
      case 94: // `^`C
        this.readQuestionOrEnd(entries, at, afterUser);
        return at;
      default:
        return at;
    }
  }

  /** Aider's questions and the ends of a session: lines that start with `A`ttempt, `A`dd, `F`ix, `O`nly or `^`C. */
  private readQuestionOrEnd(entries: ToolEntry[], at: number, afterUser: boolean): void {
    const entry = entries[at];
    const text = entry.text;
    if (readAnswer(text, LINT_QUESTION) === "yes") this.reflection = "lint";
    else if (readAnswer(text, ADD_FILE_QUESTION) === "yes") this.reflection = "files";
    else if (OUTPUT_ADDED.test(text) && afterUser && this.command !== undefined) {
      this.command.outputAdded = true;
      if (this.command.name === "test") this.reflection = "test";
    } else if (TEST_QUESTION.test(text)) {
      if (readAnswer(text, TEST_QUESTION) === "yes") this.reflection = "test";
      if (!(afterUser && this.command?.name === "test")) this.emitAutoTest(entries, at);
    } else if (REFLECTIONS_EXHAUSTED.test(text)) {
      this.reflection = undefined;
      this.exhaustedLine = entry.line;
    } else if (KEYBOARD_INTERRUPT.test(text)) this.end ??= { line: entry.line, reason: "user interrupted Aider (^C)" };
  }

  /** The blocks Aider reports as failed; returns the index of the report's last entry. */
  private readFailureReport(entries: ToolEntry[], at: number): number {
    let end = at + 1;
    while (end < entries.length && !endsFailureReport(entries[end].text)) end++;
    const failed = listFailedBlocks(entries, this.input.source, at + 1, end);
    if (this.call !== undefined) this.call.failed.push(...failed);
    else for (const report of failed) emitFailedEdit(this.sink, report, undefined);
    this.reflection = "edit";
    return end - 1;
  }

  /** A reply Aider could not read as edits at all (no file name, a broken block): one failed `edit`. */
  private readFormatError(entries: ToolEntry[], at: number): number {
    let end = at + 1;
    while (end < entries.length && /^https?:\/\//.test(entries[end].text)) end++;
    if (end < entries.length && FAILED_BANNER.test(entries[end].text)) return end - 1;
    while (end < entries.length && !endsReport(entries[end].text)) end++;
    const text = joinEntryTexts(entries, at, end);
    const failure = { line: entries[at].line, path: "", search: [], replace: [], text, raw: joinEntryRaws(this.input.source, entries, at, end) };
    emitFailedEdit(this.sink, failure, undefined);
    if (this.call !== undefined) this.call.edits = [];
    this.reflection = "edit";
    return end - 1;
  }

  private emitCommit(entry: ToolEntry, message: string): void {
    emitCommand(this.sink, { line: entry.line, tool: "commit", args: { message }, ok: true, output: entry.text, raw: entry.raw, sourceType: "commit", verify: undefined });
  }

  /** A shell command the model suggested and Aider ran (v0.6x+): its output is not in the history. */
  private emitShell(entries: ToolEntry[], at: number): void {
    const command = SHELL_RUNNING.exec(entries[at].text)?.[1]?.trim() ?? "";
    let end = at + 1;
    while (end < entries.length && /^(?:Add command output|Added \d+ lines? of output)/.test(entries[end].text)) end++;
    const output = joinEntryTexts(entries, at + 1, end);
    emitCommand(this.sink, { line: entries[at].line, tool: "shell", args: { command }, ok: undefined, output, raw: entries[at].raw, sourceType: "command", verify: undefined });
  }

  /** `--auto-test` after an edit: Aider asks to fix test errors only when the tests failed. */
  private emitAutoTest(entries: ToolEntry[], at: number): void {
    const start = at > 0 && OUTPUT_ADDED.test(entries[at - 1].text) ? at - 1 : at;
    const command = this.announcement.testCommand ?? "auto-test";
    const output = joinEntryTexts(entries, start, at + 1);
    const raw = joinEntryRaws(this.input.source, entries, start, at + 1);
    emitCommand(this.sink, { line: entries[start].line, tool: "test", args: { command }, ok: false, output, raw, sourceType: "auto-test", verify: { command, failed: true } });
  }

  /** Ends the command the user typed last, once what follows it shows its outcome. */
  private settleCommand(replyFollows: boolean): void {
    if (this.command !== undefined) emitUserCommand(this.sink, this.command, replyFollows);
    this.command = undefined;
  }

  private closeCall(entry?: ToolEntry, usage?: CallUsage): void {
    let call = this.call;
    if (call === undefined || call.closedAt !== undefined) {
      if (entry === undefined) return;
      this.finishCall();
      // A Tokens line without a reply: the model answered nothing.
      call = this.openCall(entry.line, []);
      this.call = call;
    }
    call.usage = usage;
    call.closedAt = entry?.line ?? call.lines.at(-1)?.line ?? call.line;
    const answer = removeThinking(call.lines);
    call.edits = listEditBlocks(answer, this.input.source);
    this.emitCall(call, entry, answer);
  }

  /**
   * A model call starting at `line`, answering the turn and reflection now
   * open (the reflection is used up). Every field is written here, so that all
   * calls share one shape whatever is filled in later.
   */
  private openCall(line: number, lines: SourceLine[]): Call {
    const call: Call = { line, lines, turn: this.turn, reflection: this.reflection, usage: undefined, closedAt: undefined, edits: [], applied: [], othersApplied: undefined, failed: [] };
    this.reflection = undefined;
    return call;
  }

  /** Settles the edits of the last call before another call or turn starts (an open reply is interrupted). */
  private finishCall(): void {
    const call = this.call;
    if (call === undefined) return;
    if (call.closedAt === undefined) this.closeCall();
    this.settleEdits(call);
    this.call = undefined;
  }

  private emitCall(call: Call, entry: ToolEntry | undefined, answerLines: SourceLine[]): void {
    const source = this.input.source;
    const answer = joinLines(source, answerLines).trim();
    // The reply as written is most of the history: made now only when it is a slice of the document (no copy),
    // else when something reads it (storing does, detecting does not). A deferred text costs more than a slice.
    const lines = call.lines;
    const raw = lines.length === 0 || isSlice(source, lines) ? joinReplyRaw(source, lines, entry) : deferReplyRaw(source, lines, entry);
    const usage = call.usage;
    // The usage's fields by name (those it lacks are undefined, left out by `emit`), in its order: a spread of it would be a runtime call per field.
    const fields = {
      type: "node.completed",
      node: MAIN_NODE,
      turn: call.turn > 0 ? call.turn : undefined,
      tokens: usage?.tokens,
      inputTokens: usage?.inputTokens,
      cacheCreationInputTokens: usage?.cacheCreationInputTokens,
      cacheReadInputTokens: usage?.cacheReadInputTokens,
      outputTokens: usage?.outputTokens,
      costUsd: usage?.costUsd,
      output: answer === "" ? undefined : { final: answer },
      reflection: call.reflection,
    };
    this.sink.emit(call.closedAt ?? call.line, "call", fields, { line: call.line, raw, sourceType: "assistant" });
  }

  private settleEdits(call: Call): void {
    emitEditOutcomes(this.sink, call);
    call.edits = [];
    call.failed = [];
  }

  private emitStarted(): void {
    const header = this.input.header;
    const title = this.title ?? this.fallbackTitle;
    const fields = {
      type: "run.started",
      title: title === undefined ? undefined : cutTitle(title),
      graph: { nodes: [{ id: MAIN_NODE, label: "main agent" }] },
      budgets: SESSION_BUDGETS,
      // The history's one real time is the session's start; the events' are placed by line (SessionClock).
      syntheticClock: true,
      model: this.announcement.model,
      aiderVersion: this.announcement.version,
    };
    this.sink.emit(header.line, "run.started", fields, { line: header.line, raw: header.text, sourceType: "session-start" });
  }

  /**
   * `run.completed` only where the history shows the session ended: the user
   * typed `/exit` or `/quit`, interrupted Aider, or a one-shot session is
   * followed by the next. Stuck when Aider gave up its reflections (`Only 3
   * reflections allowed`) and the user typed nothing after; otherwise the
   * history says nothing of success: partial.
   */
  private emitCompleted(): void {
    const end = this.end;
    if (end === undefined) return;
    const stuck = this.exhaustedLine !== undefined && this.exhaustedLine > this.lastHumanLine && this.exhaustedLine <= end.line;
    const fields = { type: "run.completed", terminalStatus: stuck ? "aborted_stuck" : "done_partial", stopReason: stuck ? `Aider stopped its reflections; ${end.reason}` : end.reason };
    this.sink.emit(end.line, "run.completed", fields, { line: end.line, raw: end.reason, sourceType: "session-end" });
  }
}

/** A reply's raw text: its lines as written, then the `Tokens:` line that closed it, if any. */
function joinReplyRaw(source: SourceText, lines: readonly SourceLine[], entry: ToolEntry | undefined): string {
  const reply = joinLines(source, lines);
  return entry === undefined ? reply : lines.length === 0 ? entry.raw : `${reply}\n${entry.raw}`;
}

/** `joinReplyRaw` made when first read (a function returned, not a named one: no name to set on each). */
function deferReplyRaw(source: SourceText, lines: readonly SourceLine[], entry: ToolEntry | undefined): () => string {
  return () => joinReplyRaw(source, lines, entry);
}
