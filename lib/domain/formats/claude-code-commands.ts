/**
 * What a Claude Code Bash call's text says: whether its command runs tests or
 * a commit (a verification), its exit code (only ever written as text,
 * `Exit code N`), whether it ran at all, and a hash of its output that does
 * not change with the clock.
 */
import { isSpaceCode } from "./char-codes";

const SEPARATORS = /&&|\|\||[;|\n&()]/g;
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Words that only launch the next one (`npx vitest`, `time pytest`). */
const LAUNCHERS = new Set(["npx", "bunx", "time", "sudo", "exec", "command", "env"]);
/** Two-word launchers (`uv run pytest`, `pnpm exec jest`); `python -m` is read apart, for every Python's name. */
const TWO_WORD_LAUNCHERS = new Set(["uv run", "poetry run", "pipenv run", "pnpm exec", "pnpm dlx", "yarn dlx", "bundle exec"]);
const TWO_WORD_LAUNCHER_HEADS = new Set([...TWO_WORD_LAUNCHERS].map((launcher) => launcher.split(" ")[0]));
/** `python`, `python3`, `python3.11`. */
const PYTHON = /^python(?:\d+(?:\.\d+)?)?$/;
/** Runners by name, run alone or by a Python (`python -m unittest`, Django's `python tests/runtests.py`). */
const TEST_BINARIES = new Set(["pytest", "vitest", "jest", "pre-commit", "unittest", "runtests.py"]);
/** Make targets that run checks (`make test`, `make check`, `make test-unit`); a plain `make` builds. */
const MAKE_TEST_TARGET = /^(?:test|tests|check)(?:[-_:].*)?$/;
const PACKAGE_MANAGERS = new Set(["npm", "yarn", "pnpm", "bun"]);
const SUBCOMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["mix", new Set(["test", "precommit"])],
  ["go", new Set(["test"])],
  ["cargo", new Set(["test", "nextest"])],
]);

/**
 * True when a shell command runs tests or a commit anywhere in it: pytest,
 * npm/yarn/pnpm/bun test, vitest, jest, mix test (and Phoenix's
 * `mix precommit`), go test, cargo test, unittest, Django's `runtests.py` and
 * `manage.py test`, `make test`/`make check`, `git commit`, pre-commit, and a
 * Python check script of the agent's own (`python reproduce_issue.py`). Only
 * words in command position count, so `cat jest.config.js` is not a test run.
 *
 * @example isVerifyCommand("git add -A && git commit -m wip") // true
 * @example isVerifyCommand("mix test test/a_test.exs 2>&1 | tail -5") // true
 * @example isVerifyCommand("/testbed/tests/runtests.py timezones") // true
 * @example isVerifyCommand("make -j4") // false
 */
export function isVerifyCommand(command: string): boolean {
  return someVerifyStep(command, (step) => step !== null);
}

/**
 * The file name of the agent's own check script a verification command runs,
 * when it runs such scripts and nothing else that verifies (no test runner,
 * no commit): `python reproduce_issue.py`, `cd /testbed && python
 * verify_fix.py`; else null. Such a script's output is what the agent looks
 * at to see its edits take effect. With several, the first.
 *
 * @example readCheckScript("python /testbed/reproduce_issue.py 2>&1") // "reproduce_issue.py"
 * @example readCheckScript("python reproduce_issue.py && pytest tests/") // null
 */
export function readCheckScript(command: string): string | null {
  let script: string | null = null;
  const runsMore = someVerifyStep(command, (step, words) => {
    if (step === "script") script ??= words.scriptName;
    return step === "runner";
  });
  return runsMore ? null : script;
}

/** What a step of a command verifies: a test runner or a commit (`runner`), the agent's check script (`script`), or nothing (`null`). */
type VerifyStep = "runner" | "script" | null;

/**
 * Reads a command's steps in order, each that holds a verification keyword
 * as `readVerifyStep` sees it, until `stop` says so; whether it did. Part by
 * part, word by word, as far as needed: a command may carry a heredoc of
 * thousands of words (each line a part, and only the few that hold a keyword
 * are read as a step).
 */
function someVerifyStep(command: string, stop: (step: VerifyStep, words: StepWords) => boolean): boolean {
  const keywords = new KeywordFinder(command);
  if (!keywords.occursIn(0, command.length)) return false;
  const separators = SEPARATORS;
  separators.lastIndex = 0;
  for (let from = 0; ; ) {
    const found = separators.exec(command);
    const end = found === null ? command.length : found.index;
    if (keywords.occursIn(from, end)) {
      const words = new StepWords(command, from, end);
      if (stop(readVerifyStep(words), words)) return true;
    }
    if (found === null) return false;
    from = separators.lastIndex;
  }
}

/** Every word that makes a verification holds one of these (pytest, npm test, pre-commit, git commit, jest, make check…). */
const VERIFY_KEYWORDS = ["test", "commit", "jest", "check", "verify", "repro"];

/**
 * Where the `VERIFY_KEYWORDS` occur in a command, asked of its parts in
 * order: a step holding none of them is no verification. Each keyword's next
 * occurrence is searched for only once the parts have passed the last one
 * found, so the command is read once per keyword however many parts it has.
 */
class KeywordFinder {
  /** Per keyword, the start of an occurrence at or after the last part asked about (-1: none left); -2 before the first search. */
  private readonly next = VERIFY_KEYWORDS.map(() => -2);

  constructor(private readonly text: string) {}

  /** Whether a keyword lies wholly within `text[from, end)`; `from` never decreases between calls. */
  occursIn(from: number, end: number): boolean {
    for (let k = 0; k < VERIFY_KEYWORDS.length; k++) {
      let at = this.next[k];
      if (at === -1) continue;
      if (at < from) this.next[k] = at = this.text.indexOf(VERIFY_KEYWORDS[k], from);
      if (at !== -1 && at + VERIFY_KEYWORDS[k].length <= end) return true;
    }
    return false;
  }
}

/** The words of `text[from, end)` as `trim().split(/\s+/)` gives them, read on demand. */
class StepWords {
  private readonly words: string[] = [];
  /** The check script's file name, once `readVerifyStep` found the step runs one. */
  scriptName: string | null = null;
  private at: number;

  constructor(
    private readonly text: string,
    from: number,
    private readonly end: number,
  ) {
    this.at = from;
  }

  get(index: number): string | undefined {
    while (this.words.length <= index && this.readNext());
    return this.words[index];
  }

  private readNext(): boolean {
    const text = this.text;
    let start = this.at;
    while (start < this.end && isSpaceCode(text.charCodeAt(start))) start++;
    if (start >= this.end) {
      // A blank part splits into one empty word.
      if (this.words.length === 0) this.words.push("");
      this.at = this.end;
      return false;
    }
    let stop = start + 1;
    while (stop < this.end && !isSpaceCode(text.charCodeAt(stop))) stop++;
    this.words.push(text.slice(start, stop));
    this.at = stop;
    return true;
  }
}

/** What one step of a command verifies (`VerifyStep`). */
function readVerifyStep(words: StepWords): VerifyStep {
  let at = 0;
  for (;;) {
    const word = words.get(at);
    if (word === undefined) return null;
    if (ENV_ASSIGNMENT.test(word) || LAUNCHERS.has(word)) at++;
    else if (TWO_WORD_LAUNCHER_HEADS.has(word) && TWO_WORD_LAUNCHERS.has(`${word} ${words.get(at + 1) ?? ""}`)) at += 2;
    else if (PYTHON.test(baseName(word)) && words.get(at + 1) === "-m") at += 2;
    else break;
  }
  const head = baseName(words.get(at) as string);
  if (TEST_BINARIES.has(head)) return "runner";
  if (PYTHON.test(head)) return readPythonScript(words, at + 1);
  if (head === "make") return hasMakeTestTarget(words, at + 1) ? "runner" : null;
  if (!PACKAGE_MANAGERS.has(head) && head !== "git" && !SUBCOMMANDS.has(head)) return null;
  const next = words.get(at + 1);
  let verifies: boolean;
  if (PACKAGE_MANAGERS.has(head) && next !== undefined) {
    verifies = next === "test" || TEST_BINARIES.has(next) || (next === "run" && /^test(?::|$)/.test(words.get(at + 2) ?? ""));
  } else if (head === "git") verifies = readGitSubcommand(words, at + 1) === "commit";
  else verifies = next !== undefined && (SUBCOMMANDS.get(head)?.has(next) ?? false);
  return verifies ? "runner" : null;
}

/** `python tests/runtests.py …` (Django's runner) and `python manage.py test …` run tests; `python reproduce_issue.py` a check script. */
function readPythonScript(words: StepWords, at: number): VerifyStep {
  const script = baseName(words.get(at) ?? "");
  if (TEST_BINARIES.has(script) || (script === "manage.py" && words.get(at + 1) === "test")) return "runner";
  if (!CHECK_SCRIPT.test(script)) return null;
  words.scriptName = script;
  return "script";
}

/**
 * A script an agent writes to check its fix (`reproduce_issue.py`,
 * `verify_bar.py`, `test_walk.py`, `check.py`): run again and again while it
 * works, it is the session's test, and its failure repeating is the loop.
 */
const CHECK_SCRIPT = /^(?:test|tests|verify|check|repro|reproduce)(?:[_-][\w-]*)?\.py$/;

/** Whether `make [-C dir] [-f file] [-jN] [VAR=x] <target>…` names a test target among its targets. */
function hasMakeTestTarget(words: StepWords, from: number): boolean {
  for (let at = from, word = words.get(at); word !== undefined; word = words.get(at)) {
    if (MAKE_TEST_TARGET.test(word)) return true;
    at += word === "-C" || word === "-f" ? 2 : 1;
  }
  return false;
}

/** The subcommand of `git [-C dir] [-c k=v] [--flag] <subcommand>`. */
function readGitSubcommand(words: StepWords, from: number): string | undefined {
  let at = from;
  for (let word = words.get(at); word !== undefined && word.startsWith("-"); word = words.get(at)) at += word === "-C" || word === "-c" ? 2 : 1;
  return words.get(at);
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

export { hashToolOutput, maskToolOutput } from "./output-mask";
