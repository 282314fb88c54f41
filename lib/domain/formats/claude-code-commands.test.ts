import { describe, expect, it } from "vitest";
import { isVerifyCommand, isWithoutOutcome, maskToolOutput, readCheckScript, readExitCode } from "./claude-code-commands";
import { buildEditDiff } from "./claude-code-tools";

describe("isVerifyCommand", () => {
  it.each([
    "pytest -x tests/",
    "python -m pytest",
    "uv run pytest -k foo",
    "npm test",
    "npm run test:unit",
    "yarn test --watch=false",
    "pnpm vitest run",
    "npx vitest run src/a.test.ts",
    "npx jest",
    "./node_modules/.bin/jest --ci",
    "mix test test/a_test.exs 2>&1 | tail -5",
    "mix compile --warnings-as-errors 2>&1 && mix test",
    "mix precommit",
    "cd api && go test ./...",
    "CI=1 cargo test",
    "git add -A && git commit -m \"feat: x\"",
    "git -C repo commit --amend --no-edit",
    "pre-commit run --all-files",
    "/testbed/tests/runtests.py timezones",
    "cd /testbed && python tests/runtests.py --settings=test_sqlite timezones 2>&1 | tail -40",
    "./runtests.py admin_views",
    "python manage.py test polls",
    "python -m unittest discover -s tests",
    "python3.11 -m unittest tests.test_a",
    "/usr/bin/python3 -m pytest -q",
    "make test",
    "make -C build check",
    "make -j4 test-unit",
    // The agent's own check scripts.
    "python reproduce_issue.py",
    "cd reproduction && python3 reproduce_issue.py",
    "python /testbed/verify_bar.py 2>&1 | head -20",
    "python3 test_walk.py",
    "python repro.py",
    "python check-fix.py",
  ])("counts %s", (command) => {
    expect(isVerifyCommand(command)).toBe(true);
  });

  it.each([
    "cat jest.config.js",
    "ls tests/ | grep pytest",
    "git status",
    "git log --grep commit",
    "npm install",
    "npm run build",
    "mix compile",
    "echo done",
    "make",
    "make -j4 all",
    "make -C tests",
    "python manage.py migrate",
    "python setup.py test_helpers.py",
    "python -m pip install pytest",
    "cat tests/runtests.py",
    "cat reproduce_issue.py",
    "python update_pylinter.py",
    "python fix_typo.py",
    "python reproducer_helper.sh",
    "",
  ])("does not count %s", (command) => {
    expect(isVerifyCommand(command)).toBe(false);
  });
});

describe("readCheckScript", () => {
  it.each([
    ["python reproduce_issue.py", "reproduce_issue.py"],
    ["cd /testbed && python3 /testbed/verify_fix.py 2>&1 | head -20", "verify_fix.py"],
    ["python test_walk.py; python check.py", "test_walk.py"],
  ])("names the agent's own script in %s", (command, script) => expect(readCheckScript(command)).toBe(script));
  it.each(["pytest tests/", "python reproduce_issue.py && pytest -x", "python tests/runtests.py", "git commit -m fix", "python fix_typo.py", ""])(
    "names none in %s",
    (command) => expect(readCheckScript(command)).toBeNull(),
  );
});

describe("reading Bash results", () => {
  it("reads the exit code only from a leading `Exit code N`", () => {
    expect(readExitCode("Exit code 2\n==> fine")).toBe(2);
    expect(readExitCode("ok\nExit code 2")).toBeUndefined();
    expect(readExitCode("")).toBeUndefined();
  });

  it("tells results without an outcome: refused, rejected, interrupted, backgrounded", () => {
    expect(isWithoutOutcome("<tool_use_error>File has not been read yet.</tool_use_error>", "Error: File has not been read yet.")).toBe(true);
    expect(isWithoutOutcome("The user doesn't want to proceed with this tool use.", "User rejected tool use")).toBe(true);
    expect(isWithoutOutcome("partial", { stdout: "partial", interrupted: true })).toBe(true);
    expect(isWithoutOutcome("Command running in background with ID: b1.", { backgroundTaskId: "b1" })).toBe(true);
    expect(isWithoutOutcome("Exit code 1\nFAIL", "Error: Exit code 1\nFAIL")).toBe(false);
    expect(isWithoutOutcome("3 tests, 0 failures", { stdout: "3 tests, 0 failures", interrupted: false })).toBe(false);
  });

  it("masks times, durations, ids, seeds and pids but keeps counts", () => {
    const text = [
      "Running ExUnit with seed: 185158, max_cases: 32",
      "15:19:35.486 [warning] at 2026-02-12T14:12:32.519Z pid 4242 #PID<0.123.0>",
      "done in 0m12.09s; Finished in 0.4 seconds (0.1s async)",
      "[spotter-gqc 99b497c] feat: x; ptr 0x7ffd3a; task 3fe1b6bc-dbd0-4320-b980-4f147befa187",
      "14 doctests, 76 tests, 2 failures",
    ].join("\n");
    expect(maskToolOutput(text)).toBe(
      [
        "Running ExUnit with seed: #, max_cases: 32",
        "<time> [warning] at <ts> pid # #PID<pid>",
        "done in #; Finished in # seconds (#s async)",
        "[spotter-gqc <hex>] feat: x; ptr 0x#; task <uuid>",
        "14 doctests, 76 tests, 2 failures",
      ].join("\n"),
    );
  });
});

describe("buildEditDiff", () => {
  it("rebuilds a unified diff from structuredPatch", () => {
    const result = {
      filePath: "/r/a.ts",
      structuredPatch: [
        { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [" keep", "-old", "+new"] },
        { oldStart: 9, oldLines: 1, newStart: 9, newLines: 0, lines: ["-gone"] },
        { lines: "malformed" },
      ],
    };
    expect(buildEditDiff(result, {})).toEqual({
      files: ["/r/a.ts"],
      patch: "--- /r/a.ts\n+++ /r/a.ts\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n@@ -9,1 +9,0 @@\n-gone\n",
    });
  });

  it("names the file without a patch when the result has no hunks, and nothing without a path", () => {
    expect(buildEditDiff({ type: "update", filePath: "/r/b.ts", structuredPatch: [] }, {})).toEqual({ files: ["/r/b.ts"] });
    expect(buildEditDiff({ structuredPatch: [] }, { file_path: "/r/c.ts" })).toEqual({ files: ["/r/c.ts"] });
    expect(buildEditDiff({}, {})).toBeNull();
  });
});
