/**
 * Lines of a document that are not text: a report in Latin-1, a NUL pasted
 * into a log. Documents are read whole, so these are named line by line and
 * the document is still read (with U+FFFD in their place).
 */
import type { ParseError } from "./types";

/** Lines of a document named one by one; past these, one error counts the rest. */
const MAX_NAMED_BAD_LINES = 10;

/** An error for each line of `bytes` that is not valid UTF-8 or holds a NUL (none for clean text, the usual case). */
export function listNonTextLines(bytes: Uint8Array): ParseError[] {
  const strict = new TextDecoder("utf-8", { fatal: true });
  const isText = (b: Uint8Array): boolean => {
    if (b.indexOf(0) !== -1) return false;
    try {
      strict.decode(b);
      return true;
    } catch {
      return false;
    }
  };
  if (isText(bytes)) return [];
  const problems: ParseError[] = [];
  let more = 0;
  let firstMore = 0;
  for (let start = 0, line = 1; start < bytes.length; line++) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    const piece = bytes.subarray(start, end);
    if (!isText(piece)) {
      if (problems.length < MAX_NAMED_BAD_LINES) {
        const why = piece.indexOf(0) !== -1 ? "holds a NUL byte" : "is not valid UTF-8";
        problems.push({ kind: "error", line, message: `line ${why}: read with U+FFFD in place of the bad bytes` });
      } else if (more++ === 0) {
        firstMore = line;
      }
    }
    start = end + 1;
  }
  if (more > 0) {
    problems.push({ kind: "error", line: firstMore, message: `${more} more lines from this one on are not text (invalid UTF-8 or NUL bytes): read with U+FFFD` });
  }
  return problems;
}
