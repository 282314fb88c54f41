/**
 * Aider chat histories (`.aider.chat.history.md`, or the file
 * `--chat-history-file` names) mapped onto the protocol. The format as the
 * real files show it: `shared/real-traces/aider/FORMAT.md`.
 */
import type { ParseItem } from "./types";
import type { DocumentSource } from "./document-format";
import { MAX_ID_LENGTH } from "./protocol";
import { parseIsoTimestamp } from "./timestamp";
import { isBlank, isMarkedUserLine, SessionGrouper, type SourceLine, type SourceText } from "./aider-lines";
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
  return new HistoryReader(source).read();
}

/** A session whose header was read, and whose lines are being grouped. */
interface OpenSession {
  runId: string;
  header: SourceLine;
  startMs: number;
  grouper: SessionGrouper;
}

/**
 * Reads the history in one pass over its text, line by line (`indexOf`, no
 * `split`: an array of every line, and an object per line, cost more than the
 * rest of the reading), mapping each session when the next header, or the
 * end, closes it.
 */
class HistoryReader {
  private readonly text: string;
  private readonly document: SourceText;
  /** Some user line ends with Aider's markdown line break: the file kept its trailing spaces (see `SessionGrouper`). */
  private readonly lineBreakMarks: boolean;
  private readonly items: ParseItem[] = [];
  private readonly seen = new Map<string, number>();
  private session: OpenSession | undefined;
  private firstText: SourceLine | undefined;
  private headerSeen = false;

  constructor(private readonly source: DocumentSource) {
    const text = source.text;
    this.text = text;
    // Line offsets let a reply be a slice of the text; with `\r\n` endings removed, its lines are not one.
    this.document = { text, starts: text.includes("\r") ? null : [] };
    this.lineBreakMarks = hasMarkedUserLine(text, this.document.starts === null);
  }

  read(): ParseItem[] {
    const text = this.text;
    const starts = this.document.starts as number[] | null;
    const crlf = starts === null;
    let line = 0;
    for (let start = 0; ; ) {
      const found = text.indexOf("\n", start);
      const end = found === -1 ? text.length : found;
      line++;
      const lineText = crlf && end > start && text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
      if (starts !== null) starts.push(start);
      this.readLine(line, lineText);
      if (found === -1) break;
      start = found + 1;
    }
    this.closeSession(false);
    if (!this.headerSeen) this.reportTextBeforeHeader();
    return this.items;
  }

  /**
   * One line: a session header closes the open session and opens the next;
   * another line goes to the open session, if any (a session whose header
   * has no date, and text before the first header, are not mapped).
   */
  private readLine(line: number, text: string): void {
    // Only a line that starts with `#` can be a header, and a regular expression call per line costs more than the rest of its reading.
    if (text.charCodeAt(0) === 35 && text.startsWith(HEADING_OPENING) && AIDER_HEADING.test(text)) {
      this.openSession({ line, text });
      return;
    }
    if (!this.headerSeen && this.firstText === undefined && !isBlank(text)) this.firstText = { line, text };
    this.session?.grouper.add(line, text);
  }

  private openSession(header: SourceLine): void {
    this.closeSession(true);
    if (!this.headerSeen) {
      this.headerSeen = true;
      this.reportTextBeforeHeader();
    }
    this.session = undefined;
    const started = AIDER_HEADING.exec(header.text)?.[1] ?? "";
    const startMs = parseIsoTimestamp(started);
    if (Number.isNaN(startMs)) {
      this.items.push({ kind: "error", line: header.line, message: `session header time must be a date and time (got ${JSON.stringify(started)})` });
      return;
    }
    const count = (this.seen.get(started) ?? 0) + 1;
    this.seen.set(started, count);
    this.session = { runId: formatRunId(this.source.sourceKey, started, count), header, startMs, grouper: new SessionGrouper(this.lineBreakMarks) };
  }

  /** Maps the open session; `over`: another session follows in the file. */
  private closeSession(over: boolean): void {
    const session = this.session;
    if (session === undefined) return;
    this.session = undefined;
    const { runId, header, startMs } = session;
    const blocks = session.grouper.finish();
    for (const item of mapAiderSession({ runId, header, startMs, blocks, source: this.document, over })) this.items.push(item);
  }

  /** The error for text before the first header (or in a file with none), once the first header or the end is read. */
  private reportTextBeforeHeader(): void {
    const first = this.firstText;
    if (first === undefined) return;
    this.items.push({ kind: "error", line: first.line, message: 'text before the first session header "# aider chat started at <YYYY-MM-DD HH:MM:SS>" is not in a session' });
  }
}

/**
 * Whether some user line (`####`) ends with Aider's markdown line break (two
 * spaces): found from the `####` runs of the text, without reading its lines.
 * `crlf`: line endings are `\r\n` (the `\r` is no part of a line's text).
 */
function hasMarkedUserLine(text: string, crlf: boolean): boolean {
  let at = text.indexOf("####");
  while (at !== -1) {
    const found = text.indexOf("\n", at);
    if (at === 0 || text.charCodeAt(at - 1) === 10) {
      let end = found === -1 ? text.length : found;
      if (crlf && end > at && text.charCodeAt(end - 1) === 13) end--;
      if (isMarkedUserLine(text.slice(at, end))) return true;
    }
    // The next line that may be a user line starts after this one.
    if (found === -1) return false;
    at = text.indexOf("####", found + 1);
  }
  return false;
}

/** The run id of a session: the source's name, its start time and, from the second session started in that second, `#n`. */
function formatRunId(sourceKey: string, started: string, count: number): string {
  const suffix = `:${started.replace(" ", "T")}${count > 1 ? `#${count}` : ""}`;
  const key = sourceKey.length + suffix.length > MAX_ID_LENGTH ? sourceKey.slice(sourceKey.length + suffix.length - MAX_ID_LENGTH) : sourceKey;
  return `${key}${suffix}`;
}
