/**
 * Aider chat histories (`.aider.chat.history.md`, or the file
 * `--chat-history-file` names) mapped onto the protocol. The format as the
 * real files show it: `shared/real-traces/aider/FORMAT.md`.
 */
import type { ParseItem } from "./types";
import type { DocumentSource } from "./document-format";
import { MAX_ID_LENGTH } from "./protocol";
import { parseIsoTimestamp } from "./timestamp";
import { groupSessionLines, isBlank, isMarkedUserLine, type SourceLine, type SourceText } from "./aider-lines";
import { mapAiderSession } from "./aider-session";

/**
 * The line that starts a session (`io.py` writes it when Aider starts), with
 * its local start time, the history's only timestamp, in group 1. Detection
 * tests it against the first non-blank line of a markdown file.
 *
 * @example AIDER_HEADING.exec("# aider chat started at 2024-08-09 18:12:18")?.[1] // "2024-08-09 18:12:18"
 */
export const AIDER_HEADING = /^# aider chat started at (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*$/;
const HEADING_OPENING = "# aider chat started at ";

/**
 * Maps a whole chat history. Each session (from one start header to the next)
 * is a run, `<sourceKey>:<start as YYYY-MM-DDTHH:MM:SS>` (`#2`, `#3` for
 * later sessions started in the same second), with node `main`:
 *
 * - `run.started` at the header, titled by the first prompt, with the model
 *   and Aider version the session announced;
 * - `node.completed` per model call (`<offset>:call`): the reply up to its
 *   `> Tokens:` line, with the (rounded) tokens and cost Aider reports, the
 *   user turn it answers, and `reflection` (`lint`, `test`, `edit`, `files`)
 *   when Aider sent something back to the model on its own;
 * - per SEARCH/REPLACE block: `tool.called` `edit` (`<offset>:edit`), ok when
 *   Aider applied it, with `artifact.diff` (`…:diff`); failed, with Aider's
 *   report as output, when it did not match;
 * - `tool.called` for auto-commits (`commit`), lint runs (`lint`, with a
 *   failing `verify.result`), `--auto-test` failures and `/test`, `/lint`,
 *   `/run`, `/undo` and model-suggested shell commands;
 * - `run.completed` only when the session visibly ended (`/exit`, `/quit`,
 *   `^C KeyboardInterrupt`, a one-shot `--message` session followed by another).
 *
 * `line` is the line in the file where an event's record starts. Text before
 * the first header, and a header whose time is not a date, are errors; the
 * other sessions are still mapped. Never throws.
 *
 * @example parseAiderHistory({ text: readFileSync(path, "utf8"), sourceKey: basename(path) })
 */
export function parseAiderHistory(source: DocumentSource): ParseItem[] {
  const { lines, document } = splitSourceLines(source.text);
  const { headers, firstText, lineBreakMarks } = scanDocument(lines);
  const items: ParseItem[] = [];
  if (firstText !== undefined && (headers.length === 0 || firstText.line < headers[0].line)) {
    items.push({ kind: "error", line: firstText.line, message: 'text before the first session header "# aider chat started at <YYYY-MM-DD HH:MM:SS>" is not in a session' });
  }
  const seen = new Map<string, number>();
  headers.forEach((header, index) => {
    const started = AIDER_HEADING.exec(header.text)?.[1] ?? "";
    const startMs = parseIsoTimestamp(started);
    if (Number.isNaN(startMs)) {
      items.push({ kind: "error", line: header.line, message: `session header time must be a date and time (got ${JSON.stringify(started)})` });
      return;
    }
    const count = (seen.get(started) ?? 0) + 1;
    seen.set(started, count);
    const next = headers[index + 1];
    // Line n sits at index n - 1: the session's body runs from after its header to before the next one.
    const blocks = groupSessionLines(lines, lineBreakMarks, header.line, next === undefined ? lines.length : next.line - 1);
    items.push(...mapAiderSession({ runId: formatRunId(source.sourceKey, started, count), header, startMs, blocks, source: document, over: next !== undefined }));
  });
  return items;
}

/** What the whole document must be read for before any session is mapped. */
interface DocumentScan {
  /** The session header lines, in order. */
  headers: SourceLine[];
  /** The first line that is not blank. */
  firstText: SourceLine | undefined;
  /** Some user line ends with Aider's markdown line break: the file kept its trailing spaces (see `groupSessionLines`). */
  lineBreakMarks: boolean;
}

/**
 * The headers, the first text and whether Aider's line breaks were kept, in
 * one pass: only a line that starts with `#` can be a header or a user line,
 * and a regular expression call per line of the history costs more than the
 * rest of the line's reading.
 */
function scanDocument(lines: readonly SourceLine[]): DocumentScan {
  const headers: SourceLine[] = [];
  let firstText: SourceLine | undefined;
  let lineBreakMarks = false;
  for (const line of lines) {
    const text = line.text;
    if (firstText === undefined && !isBlank(text)) firstText = line;
    if (text.charCodeAt(0) !== 35) continue;
    if (text.startsWith(HEADING_OPENING) && AIDER_HEADING.test(text)) headers.push(line);
    else if (!lineBreakMarks && isMarkedUserLine(text)) lineBreakMarks = true;
  }
  return { headers, firstText, lineBreakMarks };
}

/** The run id of a session: the source's name, its start time and, from the second session started in that second, `#n`. */
function formatRunId(sourceKey: string, started: string, count: number): string {
  const suffix = `:${started.replace(" ", "T")}${count > 1 ? `#${count}` : ""}`;
  const key = sourceKey.length + suffix.length > MAX_ID_LENGTH ? sourceKey.slice(sourceKey.length + suffix.length - MAX_ID_LENGTH) : sourceKey;
  return `${key}${suffix}`;
}

/**
 * The document's lines, numbered from 1, line endings (`\n`, `\r\n`) removed,
 * and, when no `\r` was removed, where each starts in the text.
 */
function splitSourceLines(text: string): { lines: SourceLine[]; document: SourceText } {
  const parts = text.split("\n");
  const crlf = text.includes("\r");
  const lines: SourceLine[] = new Array(parts.length);
  const starts = crlf ? null : new Int32Array(parts.length);
  let start = 0;
  for (let i = 0; i < parts.length; i++) {
    const line = parts[i];
    lines[i] = { line: i + 1, text: crlf && line.endsWith("\r") ? line.slice(0, -1) : line };
    if (starts !== null) starts[i] = start;
    start += line.length + 1;
  }
  return { lines, document: { text, starts } };
}
