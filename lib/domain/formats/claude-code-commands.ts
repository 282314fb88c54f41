/**
 * What a Claude Code Bash call's text says: whether its command runs tests or
 * a commit (a verification), its exit code (only ever written as text,
 * `Exit code N`), whether it ran at all, and a hash of its output that does
 * not change with the clock.
 */
import { maskVolatileNumbers, normalizeLineEndings, sha256Hex } from "../protocol/hashes";

const SEPARATORS = /&&|\|\||[;|\n&()]/;
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Words that only launch the next one (`npx vitest`, `time pytest`). */
const LAUNCHERS = new Set(["npx", "bunx", "time", "sudo", "exec", "command", "env"]);
/** Two-word launchers (`uv run pytest`, `pnpm exec jest`, `python -m pytest`). */
const TWO_WORD_LAUNCHERS = new Set(["uv run", "poetry run", "pipenv run", "pnpm exec", "pnpm dlx", "yarn dlx", "bundle exec", "python -m", "python3 -m"]);
const TEST_BINARIES = new Set(["pytest", "vitest", "jest", "pre-commit"]);
const PACKAGE_MANAGERS = new Set(["npm", "yarn", "pnpm", "bun"]);
const SUBCOMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["mix", new Set(["test", "precommit"])],
  ["go", new Set(["test"])],
  ["cargo", new Set(["test", "nextest"])],
]);

/**
 * True when a shell command runs tests or a commit anywhere in it: pytest,
 * npm/yarn/pnpm/bun test, vitest, jest, mix test (and Phoenix's
 * `mix precommit`), go test, cargo test, `git commit`, pre-commit. Only words
 * in command position count, so `cat jest.config.js` is not a test run.
 *
 * @example isVerifyCommand("git add -A && git commit -m wip") // true
 * @example isVerifyCommand("mix test test/a_test.exs 2>&1 | tail -5") // true
 */
export function isVerifyCommand(command: string): boolean {
  return command.split(SEPARATORS).some((part) => isVerifyStep(part.trim().split(/\s+/)));
}

function isVerifyStep(words: string[]): boolean {
  let at = 0;
  for (;;) {
    const word = words[at];
    if (word === undefined) return false;
    if (ENV_ASSIGNMENT.test(word) || LAUNCHERS.has(word)) at++;
    else if (TWO_WORD_LAUNCHERS.has(`${word} ${words[at + 1] ?? ""}`)) at += 2;
    else break;
  }
  const head = baseName(words[at]);
  const next = words[at + 1];
  if (TEST_BINARIES.has(head)) return true;
  if (PACKAGE_MANAGERS.has(head) && next !== undefined) {
    if (next === "test" || TEST_BINARIES.has(next)) return true;
    return next === "run" && /^test(?::|$)/.test(words[at + 2] ?? "");
  }
  if (head === "git") return readGitSubcommand(words, at + 1) === "commit";
  return next !== undefined && (SUBCOMMANDS.get(head)?.has(next) ?? false);
}

/** The subcommand of `git [-C dir] [-c k=v] [--flag] <subcommand>`. */
function readGitSubcommand(words: string[], from: number): string | undefined {
  let at = from;
  while (at < words.length && words[at].startsWith("-")) at += words[at] === "-C" || words[at] === "-c" ? 2 : 1;
  return words[at];
}

function baseName(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash === -1 ? word : word.slice(slash + 1);
}

const EXIT_CODE = /^Exit code (\d+)/;

/** The exit code a failed Bash result states as its first line (`Exit code 2`), else undefined. */
export function readExitCode(text: string): number | undefined {
  const match = EXIT_CODE.exec(text.trimStart());
  return match === null ? undefined : Number(match[1]);
}

const NOT_RUN_PREFIXES = ["<tool_use_error>", "The user doesn't want to proceed", "Command running in background"];

/**
 * True when a Bash call's command did not run to an outcome: refused by the
 * harness (`<tool_use_error>`), rejected by the user, interrupted, or started
 * in the background (its output arrives later, through `TaskOutput`).
 */
export function isWithoutOutcome(text: string, toolUseResult: unknown): boolean {
  if (toolUseResult === "User rejected tool use") return true;
  if (typeof toolUseResult === "object" && toolUseResult !== null) {
    const result = toolUseResult as Record<string, unknown>;
    if (result.interrupted === true || typeof result.backgroundTaskId === "string") return true;
  }
  const start = text.trimStart();
  return NOT_RUN_PREFIXES.some((prefix) => start.startsWith(prefix));
}

// Volatile parts of tool output beyond what `maskVolatileNumbers` covers:
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const ISO_TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const CLOCK_TIME = /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g;
// `0m12.09s`, `1h02m03s`: the unit-glued parts `maskVolatileNumbers` cannot see.
const COMPOUND_DURATION = /\b(?:\d+h)?\d+m\d+(?:\.\d+)?s\b/g;
// Git shas, task and object ids: hex words of 7+ characters with a digit and a letter
// (checked on the match: two lookaheads at every word boundary cost more than the rest).
const HEX_WORD = /\b[0-9a-f]{7,64}\b/g;
const maskHexId = (word: string): string => (/\d/.test(word) && /[a-f]/.test(word) ? "<hex>" : word);
const SEED = /\b(seed[:=]?\s*)\d+/gi;
const PROCESS_ID = /\b(pid[:=]?\s*)\d+|<\d+\.\d+\.\d+>/gi;

/**
 * Tool output with what changes between two runs of the same command masked:
 * UUIDs, timestamps and clock times, durations (`0m12.09s`, `120ms`), `0x`
 * addresses, hex ids (git shas, background task ids), random seeds and
 * process ids. Counts (tests, failures, files) are kept: a changing count is
 * progress (`real-traces/README.md`, lesson 2).
 *
 * @example maskToolOutput("done in 0m12.09s at 15:19:35.486") // "done in # at <time>"
 */
export function maskToolOutput(text: string): string {
  // Each pass runs only when the text holds the character its pattern needs.
  let masked = text.includes("-") ? text.replace(UUID, "<uuid>") : text;
  if (masked.includes(":")) masked = masked.replace(ISO_TIMESTAMP, "<ts>").replace(CLOCK_TIME, "<time>");
  masked = masked.replace(COMPOUND_DURATION, "#").replace(HEX_WORD, maskHexId);
  if (/seed/i.test(masked)) masked = masked.replace(SEED, "$1#");
  if (/pid|<\d/i.test(masked)) {
    masked = masked.replace(PROCESS_ID, (match: string, prefix: string | undefined) => (prefix === undefined ? "<pid>" : `${prefix}#`));
  }
  return maskVolatileNumbers(masked);
}

/** The output hash of a tool result: SHA-256 of its masked text, line endings normalised, trailing space trimmed. */
export function hashToolOutput(text: string): string {
  return sha256Hex(maskToolOutput(normalizeLineEndings(text)).trimEnd());
}
