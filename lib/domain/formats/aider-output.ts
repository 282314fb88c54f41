/**
 * Reading the lines of Aider's console output (`> …` in the chat history):
 * token reports, commits, questions and their answers, lint runs, failed-edit
 * reports, the messages Aider sends the model by itself, and the session's
 * announcement lines (`shared/real-traces/aider/FORMAT.md`); and
 * the reasoning block a reply may open with.
 */
import { joinEntryRaws, joinEntryTexts, UNSLICED, type SourceLine, type SourceText, type ToolEntry } from "./aider-lines";

/** Token counts of one model call as Aider reports them. */
export interface CallUsage {
  /** Input (`sent`, which includes cache writes) + cache hits + output. */
  tokens: number;
  inputTokens: number;
  cacheCreationInputTokens?: number;
  cacheReadInputTokens?: number;
  outputTokens: number;
  /** The call's own cost (`$x message`, `$x request` before v0.49). */
  costUsd?: number;
}

const TOKENS = /^Tokens: ([\d.,]+[kKmM]?) sent(?:, ([\d.,]+[kKmM]?) cache write)?(?:, ([\d.,]+[kKmM]?) cache hit)?, ([\d.,]+[kKmM]?) received\./;
const COST = /Cost: \$([\d.,]+) (?:message|request)/;

/**
 * The usage of a `Tokens: … sent, … received. Cost: $x message, $y session.`
 * line, or null. Aider rounds counts of 1,000 and more (`1.1k`, `19k`; exact
 * `26,200` before v0.50), so these are approximate. `sent` already counts cache
 * writes but not cache hits (`base_coder.calculate_and_show_tokens_and_cost`).
 *
 * @example readUsage("Tokens: 10k sent, 1.1k received. Cost: $0.0081 message, $0.0081 session.")
 * // { tokens: 11100, inputTokens: 10000, outputTokens: 1100, costUsd: 0.0081 }
 */
export function readUsage(text: string): CallUsage | null {
  if (!text.startsWith("Tokens: ")) return null;
  const match = TOKENS.exec(text);
  if (match === null) return null;
  const inputTokens = readCount(match[1]);
  const cacheWrite = match[2] === undefined ? undefined : readCount(match[2]);
  const cacheHit = match[3] === undefined ? undefined : readCount(match[3]);
  const outputTokens = readCount(match[4]);
  const cost = COST.exec(text);
  const costUsd = cost === null ? undefined : Number(cost[1].replace(/,/g, ""));
  return buildUsage(inputTokens + (cacheHit ?? 0) + outputTokens, inputTokens, cacheWrite, cacheHit, outputTokens, costUsd !== undefined && Number.isFinite(costUsd) ? costUsd : undefined);
}

/**
 * A `CallUsage` with its optional fields only when known, in the order of
 * the interface: assigned one by one, where conditional spreads would each
 * be a runtime call.
 */
function buildUsage(tokens: number, inputTokens: number, cacheWrite: number | undefined, cacheHit: number | undefined, outputTokens: number, costUsd: number | undefined): CallUsage {
  if (cacheWrite === undefined && cacheHit === undefined) {
    return costUsd === undefined ? { tokens, inputTokens, outputTokens } : { tokens, inputTokens, outputTokens, costUsd };
  }
  const usage: Record<string, number> = { tokens, inputTokens };
  if (cacheWrite !== undefined) usage.cacheCreationInputTokens = cacheWrite;
  if (cacheHit !== undefined) usage.cacheReadInputTokens = cacheHit;
  usage.outputTokens = outputTokens;
  if (costUsd !== undefined) usage.costUsd = costUsd;
  return usage as unknown as CallUsage;
}

/** A count as Aider writes it (`26,200`, `1.1k`, `2M`), without copies of the text where it has no unit or comma. */
function readCount(text: string): number {
  // `| 0x20` lowercases `K` and `M`, and leaves digits, `.` and `,` as they are.
  const unit = text.charCodeAt(text.length - 1) | 0x20;
  const scale = unit === 107 ? 1_000 : unit === 109 ? 1_000_000 : 1;
  const digits = scale === 1 ? text : text.slice(0, -1);
  return Math.round(Number(digits.includes(",") ? digits.replace(/,/g, "") : digits) * scale);
}

const COMMIT = /^Commit ([0-9a-f]{7,40}) (.*)$/;

/** The sha and message of an auto-commit line (`Commit a27fbf1 feat: …`), or null. */
export function readCommit(text: string): { sha: string; message: string } | null {
  if (!text.startsWith("Commit ")) return null;
  const match = COMMIT.exec(text);
  return match === null ? null : { sha: match[1], message: match[2].trim() };
}

/**
 * The answer to one of Aider's questions (`Attempt to fix lint errors? (Y)es/(N)o [Yes]: y`),
 * or null when the line is not that question. Only the answer's first letter counts.
 */
export function readAnswer(text: string, question: RegExp): "yes" | "no" | "other" | null {
  if (!question.test(text)) return null;
  // The answer ends the line: only its tail is searched (the pattern backtracks on long runs).
  const answer = /[?:\]]\s*(\S+)\s*$/.exec(text.trimEnd().slice(-200))?.[1]?.toLowerCase() ?? "";
  return answer.startsWith("y") || answer.startsWith("a") ? "yes" : answer.startsWith("n") ? "no" : "other";
}

/** Aider applied a reply's edits to a file. */
export const APPLIED = /^Applied edit to (\S(?:.*\S)?)/;
export const LINT_QUESTION = /^(?:Attempt to fix lint errors\?|Fix lint errors in )/;
export const TEST_QUESTION = /^Attempt to fix test errors\?/;
export const ADD_FILE_QUESTION = /^Add (?:file|these files) to the chat\?/;
export const FIX_ERRORS_HEADING = /^# Fix any errors below, if possible\./;
const LINT_RUNNING = /^## Running: (.+)$/;
/** Lines Aider writes after an edit's lint report ends; they are not the linter's. */
const AFTER_LINT = /^(?:Only \d+ reflections? allowed|Commit [0-9a-f]{7,40} |Applied edit to |Tokens: |You can use \/undo|Added \d+ lines? of output|Attempt to fix test errors\?)/;

/** One lint run Aider reports after an edit (`## Running: <cmd>` under `# Fix any errors below`). */
export interface LintRun {
  line: number;
  command: string;
  /** What the linter printed, with Aider's excerpt of the lines it names. */
  output: string;
  raw: string;
}

/**
 * The lint runs in a run of console entries. Aider prints a report only when
 * the linter found errors, so every run listed here failed. `source`: the
 * document the entries are from, when known (see `joinEntryRaws`).
 */
export function listLintRuns(entries: readonly ToolEntry[], source: SourceText = UNSLICED): LintRun[] {
  const runs: LintRun[] = [];
  // Most console output holds no lint report: what comes before the first `## Running:` line belongs to none.
  let first = 0;
  while (first < entries.length && !entries[first].text.startsWith("## Running: ")) first++;
  let current: OpenLintRun | undefined;
  for (let at = first; at < entries.length; at++) {
    const entry = entries[at];
    const running = entry.text.startsWith("## Running: ") ? LINT_RUNNING.exec(entry.text) : null;
    if (running !== null) {
      closeLintRun(runs, current, entries, at, source);
      current = { at, command: running[1].trim() };
      continue;
    }
    if (mayEndLintRun(entry.text) && (FIX_ERRORS_HEADING.test(entry.text) || LINT_QUESTION.test(entry.text) || AFTER_LINT.test(entry.text))) {
      closeLintRun(runs, current, entries, at, source);
      current = undefined;
    }
  }
  closeLintRun(runs, current, entries, entries.length, source);
  return runs;
}

/** A lint report being read: the index of its `## Running:` entry, and the command run. */
interface OpenLintRun {
  at: number;
  command: string;
}

/** Adds the report being read, if any, to `runs`: the entries after its `## Running:` line up to before `end`. */
function closeLintRun(runs: LintRun[], current: OpenLintRun | undefined, entries: readonly ToolEntry[], end: number, source: SourceText): void {
  if (current === undefined) return;
  const line = entries[current.at].line;
  runs.push({ line, command: current.command, output: joinEntryTexts(entries, current.at + 1, end, true), raw: joinEntryRaws(source, entries, current.at, end, true) });
}

/** Whether a line may end a lint report (a pattern is tried per console line only when its first character fits). */
function mayEndLintRun(text: string): boolean {
  // The first characters the patterns that end a lint report start with: `# A F O C T Y`.
  switch (text.charCodeAt(0)) {
    case 35:
    case 65:
    case 70:
    case 79:
    case 67:
    case 84:
    case 89:
      return true;
    default:
      return false;
  }
}

/** What the announcement lines at a session's start say. */
export interface SessionAnnouncement {
  version?: string;
  model?: string;
  /** The `--test-cmd` of the echoed command line (`--auto-test` runs it after each edit). */
  testCommand?: string;
  /** The session runs one message and exits (`--message`, `--message-file`). */
  oneShot: boolean;
}

const VERSION = /^Aider v(\S+)/;
const MODEL = /^(?:Main model|Models|Model): (\S+)/;
const COMMAND_LINE = /(?:^|\/)aider(?:\s|$)/;
const FIRST_WORD = /^\S*/;

/** Reads the version, model and command-line options from a session's first console lines. */
export function readAnnouncement(entries: readonly ToolEntry[]): SessionAnnouncement {
  const result: SessionAnnouncement = { oneShot: false };
  for (const entry of entries) {
    const text = entry.text;
    result.version ??= VERSION.exec(text)?.[1];
    result.model ??= MODEL.exec(text)?.[1];
    // The first word (`text.split(/\s/)[0]`) names the program.
    if (!COMMAND_LINE.test(FIRST_WORD.exec(text)?.[0] ?? "")) continue;
    // The echo does not quote arguments: a value runs to the next option.
    result.testCommand ??= /\s--test-cmd\s+([^\n]+?)(?=\s--[a-z]|\n|$)/.exec(text)?.[1]?.trim();
    if (/\s(?:--message|-m|--msg|--message-file|-f)\s/.test(`${text} `)) result.oneShot = true;
  }
  return result;
}

const THINKING_OPEN = /^<(thinking-content-[0-9a-f]+|think)>\s*$/;

/**
 * A reply's lines without its reasoning block (DeepSeek-R1's
 * `<thinking-content-…>`, or `<think>`), up to the reply's end when it never
 * closes: Aider reads edits only from the answer (`remove_reasoning_content`),
 * and the answer is what `node.completed` keeps, like Claude's thinking.
 */
export function removeThinking(lines: SourceLine[]): SourceLine[] {
  let open = 0;
  while (open < lines.length && !(lines[open].text.charCodeAt(0) === 60 && THINKING_OPEN.test(lines[open].text))) open++;
  if (open === lines.length) return lines;
  const tag = THINKING_OPEN.exec(lines[open].text)?.[1] ?? "";
  const close = lines.findIndex((l, i) => i > open && l.text.trim() === `</${tag}>`);
  return close === -1 ? lines.slice(0, open) : [...lines.slice(0, open), ...lines.slice(close + 1)];
}

/** Why the model was called again without the user typing: Aider sent something back on its own. */
export type Reflection = "lint" | "test" | "edit" | "files";

// The lines Aider writes around a reply: failed edits, reflections, shell runs, the end of a report.
export const FAILED_BANNER = /^# \d+ SEARCH\/REPLACE blocks? failed to match!/;
export const NOT_CONFORMING = /^The LLM did not conform to the edit format\./;
export const OTHERS_APPLIED = /^# The other \d+ SEARCH\/REPLACE blocks? (?:were|was) applied successfully/;
const REPORT_END = /^(?:Only \d+ reflections? allowed|Tokens: |Commit [0-9a-f]{7,40} |Applied edit to |Committing )/;
export const OUTPUT_ADDED = /^Added \d+ lines? of output to the chat/;
export const REFLECTIONS_EXHAUSTED = /^Only \d+ reflections? allowed, stopping/;
export const KEYBOARD_INTERRUPT = /^\^C KeyboardInterrupt/;
export const SHELL_RUNNING = /^Running (.+)$/;
const REFLECTION_MESSAGES: readonly (readonly [RegExp, Reflection])[] = [
  [/^# Fix any errors below/, "lint"],
  [FAILED_BANNER, "edit"],
  [NOT_CONFORMING, "edit"],
  [/^I ran this command:/, "test"],
  [/^I added these files to the chat/, "files"],
];

/** What a message Aider sent the model by itself says it is (a lint or test report, a failed edit, files added); `undefined` for one the user typed. */
export function readReflection(text: string): Reflection | undefined {
  return REFLECTION_MESSAGES.find(([pattern]) => pattern.test(text))?.[1];
}

/** `REPORT_END.test(text)`, tried only on a line whose first character fits (a report quotes whole blocks of code). */
export function endsReport(text: string): boolean {
  // The first characters of the lines `REPORT_END` matches: `O`nly, `T`okens, `C`ommit, `A`pplied.
  const first = text.charCodeAt(0);
  return (first === 79 || first === 84 || first === 67 || first === 65) && REPORT_END.test(text);
}

/** A line after a failed block's report: `# The other N blocks were applied`, or what ends any report. */
export function endsFailureReport(text: string): boolean {
  return (text.startsWith("# ") && OTHERS_APPLIED.test(text)) || endsReport(text);
}
