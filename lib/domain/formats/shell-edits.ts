/**
 * The files a shell command edits or reverts, read from its text: agents that
 * edit through the shell (`sed -i`, heredocs, `git checkout <file>`) leave no
 * diff, yet an edit undone again and again is a loop (`edit_undo`). Only the
 * shapes agents use are read; anything else says nothing.
 */

/** What one command does to files, as far as its text tells. */
export interface ShellChanges {
  /** Files it writes (`sed -i`, `perl -pi`, `cat/echo/printf > f`, `tee f`), in order, de-duplicated. */
  edited: string[];
  /** Files it puts back to their committed content (`git checkout [--] f`, `git restore f`). */
  reverted: string[];
  /** It puts every changed file back (`git checkout .`, `git restore .`, `git reset --hard`, `git stash`). */
  revertsAll: boolean;
}

const SEPARATORS = /&&|\|\||[;|\n&]/;
const HEREDOC = /<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1/g;
const WRITERS = new Set(["cat", "echo", "printf"]);
/** The commands `readStep` reads anything from. */
const STEP_HEADS = new Set(["git", "sed", "perl", "tee", ...WRITERS]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The changes a command makes, from its words.
 *
 * @example readShellChanges("git checkout django/db/base.py") // { edited: [], reverted: ["django/db/base.py"], revertsAll: false }
 * @example readShellChanges("sed -i 's/a/b/' x.py && cat <<'EOF' > y.py\nprint(1)\nEOF") // edited: ["x.py", "y.py"]
 */
export function readShellChanges(command: string): ShellChanges {
  const changes: ShellChanges = { edited: [], reverted: [], revertsAll: false };
  for (const part of stripHeredocBodies(command).split(SEPARATORS)) {
    const text = part.trim();
    // Most steps run a command that edits nothing: their first words tell, without splitting the rest.
    const head = splitWords(text, true).at(-1);
    if (head !== undefined && STEP_HEADS.has(head)) readStep(splitWords(text), changes);
  }
  changes.edited = [...new Set(changes.edited)];
  changes.reverted = [...new Set(changes.reverted)];
  return changes;
}

function readStep(words: string[], changes: ShellChanges): void {
  let at = 0;
  while (at < words.length && ASSIGNMENT.test(words[at])) at++;
  const head = words[at];
  const args = words.slice(at + 1);
  if (head === undefined) return;
  if (head === "git") readGit(args, changes);
  else if (head === "sed" && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith("--in-place"))) changes.edited.push(...readSedFiles(args));
  else if (head === "perl" && args.some((a) => /^-[a-zA-Z]*i/.test(a))) changes.edited.push(...readPerlFiles(args));
  else if (head === "tee") changes.edited.push(...args.filter((a) => !a.startsWith("-")));
  if (WRITERS.has(head)) changes.edited.push(...readRedirectTargets(args));
}

function readGit(args: string[], changes: ShellChanges): void {
  let at = 0;
  while (at < args.length && args[at].startsWith("-")) at += args[at] === "-C" || args[at] === "-c" ? 2 : 1;
  const sub = args[at];
  const rest = args.slice(at + 1);
  if (sub === "stash" && (rest.length === 0 || rest[0] === "push" || rest[0] === "save")) changes.revertsAll = true;
  else if (sub === "reset" && rest.includes("--hard")) changes.revertsAll = true;
  else if (sub === "checkout" || sub === "restore") {
    if (sub === "restore" && rest.includes("--staged") && !rest.includes("--worktree")) return;
    const dash = rest.indexOf("--");
    const paths = dash >= 0 ? rest.slice(dash + 1) : rest.filter((a) => !a.startsWith("-"));
    // `git checkout main` switches branches: without `--`, only words that look like paths count.
    const files = dash >= 0 || sub === "restore" ? paths : paths.filter((p) => p === "." || p.includes("/") || /\.[A-Za-z0-9]+$/.test(p));
    if (files.includes(".")) changes.revertsAll = true;
    else changes.reverted.push(...files);
  }
}

/** `sed -i[suffix] [-e script]… [script] file…`: the file operands. */
function readSedFiles(args: string[]): string[] {
  const files: string[] = [];
  let hasScript = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-e" || arg === "-f" || arg === "--expression" || arg === "--file") {
      hasScript = true;
      i++;
    } else if (arg.startsWith("-")) {
      continue;
    } else if (!hasScript) {
      hasScript = true;
    } else {
      files.push(arg);
    }
  }
  return files;
}

/** `perl -pi -e 'script' file…`: the operands after the script. */
function readPerlFiles(args: string[]): string[] {
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-e" || args[i] === "-E") i++;
    else if (!args[i].startsWith("-")) files.push(args[i]);
  }
  return files;
}

/** `> file` and `>> file` targets (not `/dev/null`, not descriptor duplications). */
function readRedirectTargets(args: string[]): string[] {
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const match = /^\d?>>?(.*)$/.exec(args[i]);
    if (match === null) continue;
    const target = match[1] !== "" ? match[1] : args[i + 1];
    if (target !== undefined && !target.startsWith("&") && target !== "/dev/null") files.push(target);
  }
  return files;
}

/** The command with every heredoc's body removed (its lines are data, not commands). */
function stripHeredocBodies(command: string): string {
  if (!command.includes("<<")) return command;
  const lines = command.split("\n");
  const kept: string[] = [];
  let ending: string | null = null;
  for (const line of lines) {
    if (ending !== null) {
      if (line.trim() === ending) ending = null;
      continue;
    }
    kept.push(line);
    HEREDOC.lastIndex = 0;
    const match = HEREDOC.exec(line);
    if (match !== null) ending = match[2];
  }
  return kept.join("\n").replace(HEREDOC, "");
}

/**
 * Shell words with simple quoting (single and double quotes, backslash
 * escapes); with `untilHead`, only up to the first word that is not a
 * variable assignment (the step's command).
 */
function splitWords(text: string, untilHead = false): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (c === " " || c === "\t") {
      if (inWord) {
        words.push(word);
        if (untilHead && !ASSIGNMENT.test(word)) return words;
      }
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * The `artifact.diff` events of a shell command that ran: reverts first
 * (`<id>:revert`, extension field `reverts: true`), then edits (`<id>:edit`,
 * files only: there is no patch, so no diff hash). Plain objects for
 * `toParseItem`; none when the command changes no file it names.
 */
export function buildShellChangeEvents(
  base: { runId: string; id: string; ts: string; node?: string },
  command: string,
): Record<string, unknown>[] {
  const changes = readShellChanges(command);
  if (!changes.revertsAll && changes.reverted.length === 0 && changes.edited.length === 0) return [];
  const common = { v: 1, runId: base.runId, ts: base.ts, ...(base.node !== undefined ? { node: base.node } : {}) };
  const events: Record<string, unknown>[] = [];
  if (changes.revertsAll || changes.reverted.length > 0) {
    events.push({ ...common, id: `${base.id}:revert`, type: "artifact.diff", reverts: true, ...(changes.revertsAll ? {} : { files: changes.reverted }) });
  }
  if (changes.edited.length > 0) events.push({ ...common, id: `${base.id}:edit`, type: "artifact.diff", files: changes.edited });
  return events;
}
