/**
 * Aider's SEARCH/REPLACE edit blocks, as a reply proposes them and as Aider
 * quotes back the ones that failed to match (`shared/real-traces/aider/FORMAT.md`),
 * and the unified diff text a block stands for.
 */
import { isDividerMarker, isReplaceMarker, isSearchMarker, joinEntryRaws, joinEntryTexts, joinLines, UNSLICED, type SourceLine, type SourceText, type ToolEntry } from "./aider-lines";

/** One SEARCH/REPLACE block of a reply. */
export interface EditBlock {
  /** Line where the block starts (its file-name line, else its `<<<<<<< SEARCH` marker): its stable position. */
  line: number;
  path: string;
  search: string[];
  replace: string[];
  /** `search` and `replace` joined by `\n`: the texts an edit's args hold. */
  searchText: string;
  replaceText: string;
  /** The block as written, from its file-name line to its `>>>>>>> REPLACE` marker. */
  raw: string;
}

const FENCE_START = /^(`{3,}|~{3,})/;

/**
 * The complete SEARCH/REPLACE blocks of a reply, in order. A block's file is
 * named on the line before it (or before its opening fence), else it is the
 * previous block's file, as Aider reads them (`editblock_coder.find_filename`).
 * A block without a file, a divider or a closing marker is left out: Aider
 * rejects it as not conforming to the edit format, and says so in its output.
 * `source`: the document the lines are from, when known (see `joinLines`).
 */
export function listEditBlocks(lines: readonly SourceLine[], source: SourceText = UNSLICED): EditBlock[] {
  const blocks: EditBlock[] = [];
  let currentPath: string | undefined;
  let floor = 0;
  for (let at = 0; at < lines.length; at++) {
    if (!isSearchMarker(lines[at].text)) continue;
    const named = findFileName(lines, at, floor);
    const path = named?.path ?? currentPath;
    const divider = findMarker(lines, at + 1, isDividerMarker);
    const end = divider < 0 ? divider : findMarker(lines, divider + 1, isReplaceMarker);
    if (end < 0) {
      // Unterminated: read on from the next block's marker, if there is one.
      if (end === END_OF_REPLY) break;
      at = -end - 3;
      continue;
    }
    const start = named?.at ?? at;
    if (path !== undefined) {
      const search = readTexts(lines, at + 1, divider);
      const replace = readTexts(lines, divider + 1, end);
      const searchText = joinLines(source, lines, at + 1, divider);
      const replaceText = joinLines(source, lines, divider + 1, end);
      blocks.push({ line: lines[start].line, path, search, replace, searchText, replaceText, raw: joinLines(source, lines, start, end + 1) });
      currentPath = path;
    }
    at = end;
    floor = end + 1;
  }
  return blocks;
}

/** The texts of `lines[from]` to before `lines[to]`. */
function readTexts(lines: readonly SourceLine[], from: number, to: number): string[] {
  const texts: string[] = [];
  for (let at = from; at < to; at++) texts.push(lines[at].text);
  return texts;
}

const END_OF_REPLY = -1;

/**
 * The index of the next line matching `pattern`; else `END_OF_REPLY`, or
 * `-(i + 2)` when the SEARCH marker of another block at `i` comes first.
 */
function findMarker(lines: readonly SourceLine[], from: number, isMarker: (text: string) => boolean): number {
  for (let at = from; at < lines.length; at++) {
    if (isMarker(lines[at].text)) return at;
    if (isSearchMarker(lines[at].text)) return -(at + 2);
  }
  return END_OF_REPLY;
}

/**
 * The file named in the (up to) 3 lines before a SEARCH marker, after the
 * previous block (`floor`): fences are looked past, the first other line decides.
 */
function findFileName(lines: readonly SourceLine[], at: number, floor: number): { path: string; at: number } | undefined {
  for (let back = at - 1; back >= Math.max(floor, at - 3); back--) {
    const text = lines[back].text.trim();
    const fence = FENCE_START.exec(text);
    if (fence !== null) {
      const rest = text.slice(fence[1].length).trim();
      if (rest !== "" && (rest.includes(".") || rest.includes("/"))) return { path: rest, at: back };
      continue;
    }
    const path = readFileName(text);
    return path === undefined ? undefined : { path, at: back };
  }
  return undefined;
}

/** A file-name line as Aider strips it: `### path:`, `` `path` `` and `**path**` name `path`. */
function readFileName(text: string): string | undefined {
  if (text === "" || text === "...") return undefined;
  const path = stripRuns(stripRuns(text.replace(/:$/, "").replace(/^#+/, "").trim(), "`"), "*").trim();
  return path === "" ? undefined : path;
}

/**
 * A block as unified diff text. Aider finds the SEARCH text by its content, so
 * the file position is unknown: the hunk says line 1 (0 for an empty side).
 * Lines the two sides share at the start and end are context, the rest is
 * removed and added, so the same block always gives the same patch.
 *
 * @example formatEditPatch({ path: "a.py", search: ["x = 1", "y = 2"], replace: ["x = 1", "y = 3"] })
 * // "--- a.py\n+++ a.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n"
 */
export function formatEditPatch(block: Pick<EditBlock, "path" | "search" | "replace">): string {
  const { search, replace } = block;
  let head = 0;
  while (head < search.length && head < replace.length && search[head] === replace[head]) head++;
  let tail = 0;
  while (tail < search.length - head && tail < replace.length - head && search[search.length - 1 - tail] === replace[replace.length - 1 - tail]) tail++;
  const from = search.length === 0 ? "/dev/null" : block.path;
  let patch = `--- ${from}\n+++ ${block.path}\n@@ -${formatHunkRange(search.length)} +${formatHunkRange(replace.length)} @@\n`;
  patch = appendPatchLines(patch, " ", search, 0, head);
  patch = appendPatchLines(patch, "-", search, head, search.length - tail);
  patch = appendPatchLines(patch, "+", replace, head, replace.length - tail);
  return appendPatchLines(patch, " ", search, search.length - tail, search.length);
}

/** A hunk's side: it starts at line 1 unless it is empty. */
function formatHunkRange(count: number): string {
  return `${count === 0 ? 0 : 1},${count}`;
}

/** `patch` with `lines[from]` to before `lines[to]`, each prefixed with `mark` and ended with a line break. */
function appendPatchLines(patch: string, mark: string, lines: readonly string[], from: number, to: number): string {
  let out = patch;
  for (let at = from; at < to; at++) out += `${mark}${lines[at]}\n`;
  return out;
}

/** One block Aider reports as failed (`## SearchReplaceNoExactMatch: … in <path>`), with its quoted text. */
export interface FailedBlock {
  line: number;
  path: string;
  search: string[];
  replace: string[];
  /** The report of this block as Aider printed it (the tool output of the failed edit). */
  text: string;
  raw: string;
}

const FAILED_BLOCK = /^## (\w+): This SEARCH block failed to exactly match lines in (\S(?:.*\S)?)/;

/**
 * Splits the text after a `# N SEARCH/REPLACE blocks failed to match!` banner
 * into the reports of the blocks it names. `entries[from]` to before
 * `entries[to]` are the console lines after the banner, up to the end of the
 * report; `source`: the document they are from, when known (see `joinEntryRaws`).
 */
export function listFailedBlocks(entries: readonly ToolEntry[], source: SourceText = UNSLICED, from = 0, to = entries.length): FailedBlock[] {
  const failed: FailedBlock[] = [];
  let current: OpenFailedBlock | undefined;
  for (let at = from; at < to; at++) {
    const text = entries[at].text;
    // Only a `## ` line can start a block's report.
    const match = text.startsWith("## ") ? FAILED_BLOCK.exec(text) : null;
    if (match === null) continue;
    closeFailedBlock(failed, current, entries, at, source);
    current = { at, path: match[2] };
  }
  closeFailedBlock(failed, current, entries, to, source);
  return failed;
}

/** A failed block's report being read: the index of its `## …` entry, and the file it names. */
interface OpenFailedBlock {
  at: number;
  path: string;
}

/** Adds the report being read, if any, to `failed`: its entries up to before `end`. */
function closeFailedBlock(failed: FailedBlock[], current: OpenFailedBlock | undefined, entries: readonly ToolEntry[], end: number, source: SourceText): void {
  if (current === undefined) return;
  const { search, replace } = readQuotedBlock(entries, current.at, end);
  const text = joinEntryTexts(entries, current.at, end, true);
  failed.push({ line: entries[current.at].line, path: current.path, search, replace, text, raw: joinEntryRaws(source, entries, current.at, end, true) });
}

/** The SEARCH and REPLACE texts of the block quoted in `entries[from]` to before `entries[to]`; empty when it is not whole. */
function readQuotedBlock(entries: readonly ToolEntry[], from: number, to: number): { search: string[]; replace: string[] } {
  let start = from;
  while (start < to && !isSearchMarker(entries[start].text)) start++;
  let divider = start + 1;
  while (divider < to && !isDividerMarker(entries[divider].text)) divider++;
  let end = divider + 1;
  while (end < to && !isReplaceMarker(entries[end].text)) end++;
  if (end >= to) return { search: [], replace: [] };
  return { search: readEntryTexts(entries, start + 1, divider), replace: readEntryTexts(entries, divider + 1, end) };
}

/** The texts of `entries[from]` to before `entries[to]`. */
function readEntryTexts(entries: readonly ToolEntry[], from: number, to: number): string[] {
  const texts: string[] = [];
  for (let at = from; at < to; at++) texts.push(entries[at].text);
  return texts;
}

/** True when a reported failure is this block: same file, same SEARCH text (trailing spaces aside). */
export function isSameBlock(block: Pick<EditBlock, "path" | "search">, failed: Pick<FailedBlock, "path" | "search">): boolean {
  if (!isSamePath(block.path, failed.path)) return false;
  const a = block.search.map((l) => l.trimEnd());
  const b = failed.search.map((l) => l.trimEnd());
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/** Paths as a reply and Aider's output write them: equal, or one a suffix of the other at a `/`. */
export function isSamePath(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

/** The text without runs of `char` at either end (a loop: `/x+$/` backtracks on long runs inside the text). */
function stripRuns(text: string, char: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === char) start++;
  while (end > start && text[end - 1] === char) end--;
  return text.slice(start, end);
}
