/**
 * The lines of one Aider session (`.aider.chat.history.md`) grouped into the
 * three kinds of text Aider writes (`shared/real-traces/aider/FORMAT.md`):
 * what the user typed (`#### …`), Aider's own console output (`> …`) and
 * the model's replies (anything else).
 *
 * Aider writes a user line and a console line with a markdown line break (two
 * trailing spaces); a reply is markdown of the model's own and may hold lines
 * that start with `####` or `>` inside its code fences and SEARCH/REPLACE
 * blocks. A `####` line is the user's only when it carries Aider's line
 * break; a `>` line inside a reply's open fence or block only when it carries
 * it too (or is the `Tokens:` line), so that neither a reply's own markdown
 * nor an interrupted reply whose fence never closes is misread. In a file whose
 * trailing spaces were stripped (no `####` line ends in two spaces) every
 * `####` line is the user's and a `>` line is Aider's outside a fence.
 */

/** One line of the source: its 1-based number in the file and its text (no line ending). */
export interface SourceLine {
  line: number;
  text: string;
}

/** The document as read: its text and, when each line is its text between two `\n`, where each line starts. */
export interface SourceText {
  text: string;
  /** `starts[n - 1]` is the offset of line n; null when line endings were changed (`\r\n`). */
  starts: readonly number[] | null;
}

/**
 * The texts of `lines` joined by `\n`. A reply is most of a history, and
 * consecutive lines of the document joined are the document's own text
 * between them: a slice of it, which copies nothing.
 */
export function joinLines(source: SourceText, lines: readonly SourceLine[], from = 0, to = lines.length): string {
  if (!isSlice(source, lines, from, to)) {
    let joined = "";
    for (let at = from; at < to; at++) joined += at === from ? lines[at].text : `\n${lines[at].text}`;
    return joined;
  }
  const last = lines[to - 1];
  return source.text.slice(source.starts[lines[from].line - 1], source.starts[last.line - 1] + last.text.length);
}

/** Whether `joinLines` takes these lines as one slice of the document (copying nothing). */
export function isSlice(source: SourceText, lines: readonly SourceLine[], from = 0, to = lines.length): source is SourceText & { starts: readonly number[] } {
  return source.starts !== null && to > from && lines[to - 1].line - lines[from].line === to - 1 - from;
}

/**
 * The texts of `entries[from]` to before `entries[to]` joined by `\n`;
 * `trimBlank`: without the blank ones at either end.
 * Read from the entries in place, without an array of their texts.
 */
export function joinEntryTexts(entries: readonly ToolEntry[], from = 0, to = entries.length, trimBlank = false): string {
  let start = from;
  let end = to;
  if (trimBlank) {
    while (start < end && isBlank(entries[start].text)) start++;
    while (end > start && isBlank(entries[end - 1].text)) end--;
  }
  let joined = "";
  for (let at = start; at < end; at++) joined += at === start ? entries[at].text : `\n${entries[at].text}`;
  return joined;
}

/**
 * The raws of `entries[from]` to before `entries[to]` joined by `\n`
 * (`trimBlank`: without the blank ones at either end). Console output is
 * consecutive lines of the document, and its raws joined are the document's
 * own text between them: a slice of it, which copies nothing (as `joinLines`).
 */
export function joinEntryRaws(source: SourceText, entries: readonly ToolEntry[], from = 0, to = entries.length, trimBlank = false): string {
  let start = from;
  let end = to;
  if (trimBlank) {
    while (start < end && isBlank(entries[start].raw)) start++;
    while (end > start && isBlank(entries[end - 1].raw)) end--;
  }
  if (start >= end) return "";
  const starts = source.starts;
  if (starts !== null) {
    // An entry's raw is its lines as written, but for a blank line left out before a continuation (in an
    // announcement): each entry must end right where the next starts, and the last one, when it continues on
    // other lines, must be the document's text there.
    let at = start;
    while (at < end - 1 && starts[entries[at + 1].line - 1] === starts[entries[at].line - 1] + entries[at].raw.length + 1) at++;
    const last = entries[end - 1];
    const lastStart = starts[last.line - 1];
    if (at === end - 1 && (!last.raw.includes("\n") || source.text.startsWith(last.raw, lastStart))) {
      return source.text.slice(starts[entries[start].line - 1], lastStart + last.raw.length);
    }
  }
  let joined = "";
  for (let at = start; at < end; at++) joined += at === start ? entries[at].raw : `\n${entries[at].raw}`;
  return joined;
}

/** A document whose line offsets are not known: `joinLines` joins. */
export const UNSLICED: SourceText = { text: "", starts: null };

/** One line of Aider's console output, with the unprefixed lines that continue it. */
export interface ToolEntry {
  line: number;
  /** The text without the `> ` prefix and Aider's trailing line break; continuation lines joined by `\n`. */
  text: string;
  /** The lines as written. */
  raw: string;
}

export type AiderBlock =
  | { kind: "user"; line: number; lines: SourceLine[] }
  | { kind: "tool"; line: number; entries: ToolEntry[] }
  | { kind: "assistant"; line: number; lines: SourceLine[] };

const USER_LINE = /^####(?:\s|$)/;
/** A line without it is blank (`trim()` removes exactly the characters of `\s`), found without copying the line. */
const NOT_SPACE = /\S/;
const TOOL_LINE = /^>(?:\s|$)/;
/** Printed after a reply even when it ends inside an unclosed fence (v0.51 writes it without the line break). */
const TOKENS_LINE = /^> Tokens: /;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** Aider's SEARCH/REPLACE markers (`editblock_coder.py`: 5 to 9 marker characters). */
export const SEARCH_MARKER = /^<{5,9} SEARCH>?\s*$/;
export const DIVIDER_MARKER = /^={5,9}\s*$/;
export const REPLACE_MARKER = /^>{5,9} REPLACE\s*$/;

/** A user line that ends with Aider's markdown line break: a document with one kept its trailing spaces. */
export function isMarkedUserLine(text: string): boolean {
  return isUserLine(text) && text.endsWith("  ");
}

/**
 * `text.trim() === ""` without copying the line. Blank lines are empty and
 * indented ones start with ASCII spaces: only a line with a character past
 * ASCII before its first other one needs the pattern (`\s` is what `trim()` removes).
 */
export function isBlank(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    return c < 128 ? false : !NOT_SPACE.test(text);
  }
  return true;
}

// Each pattern below is tried only on lines that start as it must: a regular expression call per line costs
// more than the rest of reading the line, and most lines are the model's prose.

function isUserLine(text: string): boolean {
  return text.startsWith("####") && USER_LINE.test(text);
}

/** `TOOL_LINE.test(text)`: the pattern is tried only when the character after `>` is past ASCII. */
function isToolLine(text: string): boolean {
  if (text.charCodeAt(0) !== 62) return false;
  if (text.length === 1) return true;
  const c = text.charCodeAt(1);
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c >= 128 && TOOL_LINE.test(text);
}

/** `SEARCH_MARKER.test(text)`, tried only on a line that starts with `<`. */
export function isSearchMarker(text: string): boolean {
  return text.charCodeAt(0) === 60 && SEARCH_MARKER.test(text);
}

/** `REPLACE_MARKER.test(text)`, tried only on a line that starts with `>`. */
export function isReplaceMarker(text: string): boolean {
  return text.charCodeAt(0) === 62 && REPLACE_MARKER.test(text);
}

/** `DIVIDER_MARKER.test(text)`, tried only on a line that starts with `=`. */
export function isDividerMarker(text: string): boolean {
  return text.charCodeAt(0) === 61 && DIVIDER_MARKER.test(text);
}

/** `FENCE.exec(text)`, tried only when a backtick or tilde follows at most 3 spaces. */
function readFence(text: string): RegExpExecArray | null {
  let at = 0;
  while (at < 3 && text.charCodeAt(at) === 32) at++;
  const c = text.charCodeAt(at);
  return c === 96 || c === 126 ? FENCE.exec(text) : null;
}

/** Where the reply being read stands: inside a code fence, inside a SEARCH/REPLACE block. */
interface ReplyState {
  fence: { char: string; length: number } | null;
  inBlock: boolean;
}

/**
 * Groups the lines of one session (header excluded; `lines[from]` to before
 * `lines[to]`) into blocks, in order (see `SessionGrouper`).
 */
export function groupSessionLines(lines: readonly SourceLine[], lineBreakMarks: boolean, from = 0, to = lines.length): AiderBlock[] {
  const grouper = new SessionGrouper(lineBreakMarks);
  for (let at = from; at < to; at++) grouper.add(lines[at].line, lines[at].text);
  return grouper.finish();
}

/**
 * The blocks of one session, read line by line as the document is read.
 * Consecutive `####` lines are one user message; `>` lines (and the
 * unprefixed lines Aider writes right after one, such as the second line of a
 * multi-line message) are console output; blank lines end a user message and
 * belong to a reply only inside it. No reply comes before the first user
 * message: text there continues the announcement above it.
 *
 * Lines come one at a time, so that the document is read in one pass with no
 * array of all its lines: a line is kept (as a `SourceLine`) only where a
 * block holds it.
 */
export class SessionGrouper {
  private readonly blocks: AiderBlock[] = [];
  private readonly reply: ReplyState = { fence: null, inBlock: false };
  /** What the last line read was (`BLANK` for a blank one): a user message continues only on the next line. */
  private previous = BLANK;
  private seenUser = false;
  /** What the last block is (`BLANK` before the first), and its lines or entries: kept apart, so that every read of them is of one shape. */
  private lastKind = BLANK;
  private userLines: SourceLine[] = [];
  private toolEntries: ToolEntry[] = [];
  private replyLines: SourceLine[] = [];

  /** `lineBreakMarks`: the document kept Aider's markdown line breaks (see the module's comment). */
  constructor(private readonly lineBreakMarks: boolean) {}

  /** Reads line `line` of the document, whose text (no line ending) is `text`. */
  add(line: number, text: string): void {
    const first = text.charCodeAt(0);
    if (first === 35 && isUserLine(text) && (!this.lineBreakMarks || text.endsWith("  "))) {
      const source = { line, text: readUserText(text) };
      if (this.lastKind === USER && this.previous === USER) this.userLines.push(source);
      else {
        this.userLines = [source];
        this.blocks.push({ kind: "user", line, lines: this.userLines });
        this.lastKind = USER;
      }
      this.previous = USER;
      this.seenUser = true;
    } else if (first === 62 && isToolLine(text) && (!this.isInProtectedReply() || (this.lineBreakMarks && text.endsWith("  ")) || TOKENS_LINE.test(text))) {
      const entry = { line, text: readToolText(text), raw: text };
      if (this.lastKind === TOOL) this.toolEntries.push(entry);
      else {
        this.toolEntries = [entry];
        this.blocks.push({ kind: "tool", line, entries: this.toolEntries });
        this.lastKind = TOOL;
      }
      this.previous = TOOL;
    } else if (isBlank(text)) {
      if (this.lastKind === ASSISTANT) this.replyLines.push({ line, text });
      this.previous = BLANK;
    } else if (this.lastKind === TOOL && (this.previous === TOOL || !this.seenUser)) {
      // Before the first prompt no model has answered: the text continues an announcement (a multi-line --message).
      const entry = this.toolEntries[this.toolEntries.length - 1];
      entry.text += `\n${text.trimEnd()}`;
      entry.raw += `\n${text}`;
    } else if (this.seenUser) {
      if (this.lastKind === ASSISTANT) this.replyLines.push({ line, text });
      else {
        this.replyLines = [{ line, text }];
        this.blocks.push({ kind: "assistant", line, lines: this.replyLines });
        this.lastKind = ASSISTANT;
        this.reply.fence = null;
        this.reply.inBlock = false;
      }
      trackReply(this.reply, text);
      this.previous = ASSISTANT;
    }
  }

  /** The session's blocks, once its last line was read. */
  finish(): AiderBlock[] {
    for (const block of this.blocks) if (block.kind === "assistant") trimTrailingBlanks(block.lines);
    return this.blocks;
  }

  /** Inside a reply's open fence or SEARCH/REPLACE block, where a `>` line may be the reply's own. */
  private isInProtectedReply(): boolean {
    return this.lastKind === ASSISTANT && (this.reply.fence !== null || this.reply.inBlock);
  }
}

// What a line or block is, for `SessionGrouper` (small integers: compared per line).
const BLANK = 0;
const USER = 1;
const TOOL = 2;
const ASSISTANT = 3;

function trackReply(reply: ReplyState, text: string): void {
  if (reply.inBlock) {
    if (isReplaceMarker(text)) reply.inBlock = false;
    return;
  }
  if (isSearchMarker(text)) {
    reply.inBlock = true;
    return;
  }
  const fence = readFence(text);
  if (fence === null) return;
  const marker = fence[1];
  if (reply.fence === null) reply.fence = { char: marker[0], length: marker.length };
  else if (marker[0] === reply.fence.char && marker.length >= reply.fence.length && fence[2].trim() === "") reply.fence = null;
}

/** A user line's text: `#### ` and Aider's line break removed. */
function readUserText(text: string): string {
  return text.replace(/^####\s?/, "").trimEnd();
}

/**
 * A console line's text: `> ` and Aider's two-space line break removed, the
 * rest (the indentation of a quoted SEARCH block) kept.
 */
function readToolText(text: string): string {
  // `text.replace(/^> ?/, "")` for a line that starts with `>` (only console lines come here), cut once.
  const start = text.charCodeAt(1) === 32 ? 2 : 1;
  return text.length - start >= 2 && text.endsWith("  ") ? text.slice(start, -2) : text.slice(start).trimEnd();
}

function trimTrailingBlanks(lines: SourceLine[]): void {
  while (lines.length > 0 && isBlank(lines[lines.length - 1].text)) lines.pop();
}
