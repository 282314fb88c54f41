/**
 * `isVerifyCommand` reads a command part by part and word by word only as far
 * as it needs: it must decide as splitting the whole command would.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isVerifyCommand } from "./claude-code-commands";

/** The whole-command reading: every part split into all its words. */
function isVerifyCommandBySplitting(command: string): boolean {
  const launchers = new Set(["npx", "bunx", "time", "sudo", "exec", "command", "env"]);
  const twoWord = new Set(["uv run", "poetry run", "pipenv run", "pnpm exec", "pnpm dlx", "yarn dlx", "bundle exec"]);
  const binaries = new Set(["pytest", "vitest", "jest", "pre-commit", "unittest", "runtests.py"]);
  const baseName = (word: string) => word.slice(word.lastIndexOf("/") + 1);
  const isPython = (word: string) => /^python(\d+(\.\d+)?)?$/.test(baseName(word));
  const managers = new Set(["npm", "yarn", "pnpm", "bun"]);
  const subcommands = new Map([["mix", new Set(["test", "precommit"])], ["go", new Set(["test"])], ["cargo", new Set(["test", "nextest"])]]);
  const isStep = (words: string[]): boolean => {
    let at = 0;
    for (;;) {
      const word = words[at];
      if (word === undefined) return false;
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || launchers.has(word)) at++;
      else if (twoWord.has(`${word} ${words[at + 1] ?? ""}`)) at += 2;
      else if (isPython(word) && words[at + 1] === "-m") at += 2;
      else break;
    }
    const head = baseName(words[at]);
    const next = words[at + 1];
    if (binaries.has(head)) return true;
    if (isPython(head)) return binaries.has(baseName(next ?? "")) || (baseName(next ?? "") === "manage.py" && words[at + 2] === "test");
    if (head === "make") {
      for (let target = at + 1; target < words.length; target += words[target] === "-C" || words[target] === "-f" ? 2 : 1) {
        if (/^(test|tests|check)([-_:].*)?$/.test(words[target])) return true;
      }
      return false;
    }
    if (managers.has(head) && next !== undefined) {
      if (next === "test" || binaries.has(next)) return true;
      return next === "run" && /^test(?::|$)/.test(words[at + 2] ?? "");
    }
    if (head === "git") {
      let sub = at + 1;
      while (sub < words.length && words[sub].startsWith("-")) sub += words[sub] === "-C" || words[sub] === "-c" ? 2 : 1;
      return words[sub] === "commit";
    }
    return next !== undefined && (subcommands.get(head)?.has(next) ?? false);
  };
  return command.split(/&&|\|\||[;|\n&()]/).some((part) => isStep(part.trim().split(/\s+/)));
}

const word = fc.constantFrom(
  "pytest", "/usr/bin/pytest", "jest", "vitest", "pre-commit", "bun", "npm", "yarn", "test", "run", "test:unit", "testing", "git", "commit", "add", "-C", "dir", "-c", "k=v", "--no-verify",
  "FOO=1", "npx", "time", "uv", "poetry", "python", "python3", "/usr/bin/python3.11", "-m", "unittest", "tests/runtests.py", "manage.py", "make", "-f", "check", "test-unit", "mix", "precommit", "go", "cargo", "nextest", "cat", "jest.config.js", "echo", "x",
);
const gap = fc.constantFrom(" ", " ", "  ", "\t", "\u00a0", "\u2028", "&&", "||", ";", "|", "\n", "&", "(", ")", " && ", "; ");
const command = fc.array(fc.oneof({ weight: 3, arbitrary: word }, { weight: 2, arbitrary: gap }), { maxLength: 14, size: "max" }).map((parts) => parts.join(""));

describe("isVerifyCommand", () => {
  it("decides as splitting every part into all its words does", () => {
    fc.assert(fc.property(command, (text) => isVerifyCommand(text) === isVerifyCommandBySplitting(text)), { seed: 20_261_124, numRuns: 5000 });
  });

  it("reads blank parts and launchers alone", () => {
    for (const text of ["", " ", "&&", "npx", "FOO=1 npx", "git -C", "uv run", "a; ;pytest"]) expect(isVerifyCommand(text)).toBe(isVerifyCommandBySplitting(text));
  });
});
