import { describe, expect, it } from "vitest";
import { buildRun, detectBuilt, summarize } from "./test-events";

const ON = { recurring_failure: 3, edit_undo: 3 };

describe("recurring_failure", () => {
  it("fires when one failure comes back 3 times since the last pass, other failures between", () => {
    const run = buildRun();
    run.verify(false, { failureSignature: "dialyzer" });
    run.verify(false, { failureSignature: "dialyzer" });
    run.verify(false, { failureSignature: "credo" });
    run.diff("+fix");
    run.verify(false, { failureSignature: "dialyzer" });
    const findings = detectBuilt(run, ON);
    expect(summarize(findings)).toEqual(["recurring_failure@e5"]);
    expect(findings[0]).toMatchObject({ haltReason: "repeated_error", count: 3, limit: 3 });
    // `repeated_failure` (in a row) did not fire: the credo failure broke the row.
    expect(summarize(detectBuilt(run, { ...ON, repeated_failure: 3 }))).toEqual(["recurring_failure@e5"]);
  });

  it("is reset by a pass, and off by default (the protocol's signals are the spec's)", () => {
    const run = buildRun();
    run.verify(false, { failureSignature: "s" });
    run.verify(false, { failureSignature: "s" });
    run.verify(true);
    run.verify(false, { failureSignature: "s" });
    run.verify(false, { failureSignature: "t" });
    run.verify(false, { failureSignature: "s" });
    expect(detectBuilt(run, ON)).toEqual([]);
    run.verify(false, { failureSignature: "t" });
    run.verify(false, { failureSignature: "s" });
    expect(summarize(detectBuilt(run, ON))).toEqual(["recurring_failure@e8"]);
    expect(detectBuilt(run)).toEqual([]);
  });

  it("is not reset by a passing check script: it says nothing of the suite failing the same way beside it", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) {
      run.verify(false, { command: "pytest tests/", failing: ["tests/test_frames.py::test_altaz"] });
      run.diff("+fix " + i);
      run.verify(true, { command: "python reproduce_issue.py", checkScript: "reproduce_issue.py" });
    }
    expect(summarize(detectBuilt(run, ON))).toEqual(["recurring_failure@e7"]);
  });

  it("is reset for failing tests by any test run that passes, whichever pipe or flags ran them failing", () => {
    const run = buildRun();
    const failing = ["tests/test_x.py::test_a"];
    run.verify(false, { command: "pytest tests/test_x.py -q | tail -20", failing });
    run.verify(false, { command: "pytest tests/test_x.py -q", failing });
    run.verify(true, { command: "pytest tests/ -q" });
    run.verify(false, { command: "pytest tests/test_x.py -q | tail -20", failing });
    expect(detectBuilt(run, ON)).toEqual([]);
    // A failure the command states (a commit's hooks) ends only with a pass of that command.
    const commits = buildRun();
    commits.verify(false, { command: "git commit -m a", failureSignature: "credo" });
    commits.verify(true, { command: "pytest tests/ -q" });
    commits.verify(false, { command: "git commit -m a", failureSignature: "credo" });
    commits.verify(true, { command: "pytest tests/ -q" });
    commits.verify(false, { command: "git commit -m a", failureSignature: "credo" });
    expect(summarize(detectBuilt(commits, ON))).toEqual(["recurring_failure@e5"]);
  });

  it("does not fire on a converging fix-and-retest cycle (the failing tests change)", () => {
    const run = buildRun();
    run.verify(false, { failing: ["a", "b", "c"] });
    run.verify(false, { failing: ["a", "b"] });
    run.verify(false, { failing: ["b"] });
    run.verify(true);
    expect(detectBuilt(run, ON)).toEqual([]);
  });
});

describe("edit_undo", () => {
  it("fires when a file's edits are reverted 3 times (shell edits, git checkout)", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) {
      run.diff(null, { files: ["base.py"] });
      run.diff(null, { files: ["base.py"], reverts: true });
    }
    const findings = detectBuilt(run, ON);
    expect(summarize(findings)).toEqual(["edit_undo@e6"]);
    expect(findings[0]).toMatchObject({ haltReason: "oscillating", count: 3, limit: 3 });
    expect(findings[0].evidence.files).toEqual(["base.py"]);
  });

  it("counts an inverse patch of the same file as an undo", () => {
    const run = buildRun();
    const add = "--- a.ts\n+++ a.ts\n@@ -1,1 +1,2 @@\n x\n+debug()\n";
    const remove = "--- a.ts\n+++ a.ts\n@@ -1,2 +1,1 @@\n x\n-debug()\n";
    for (let i = 0; i < 3; i++) {
      run.diff(add, { files: ["a.ts"] });
      run.diff(remove, { files: ["a.ts"] });
    }
    expect(summarize(detectBuilt(run, ON))).toContain("edit_undo@e6");
  });

  it("does not count a revert of a file not edited since, nor a revert of other files", () => {
    const run = buildRun();
    run.diff(null, { files: ["a.py"] });
    run.diff(null, { files: ["a.py"], reverts: true });
    run.diff(null, { files: ["a.py"], reverts: true });
    run.diff(null, { files: ["a.py"], reverts: true });
    run.diff(null, { files: ["b.py"] });
    run.diff(null, { files: ["c.py"], reverts: true });
    expect(detectBuilt(run, ON)).toEqual([]);
  });

  it("treats a revert without files (git stash, reset --hard) as undoing every edited file", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) {
      run.diff(null, { files: ["a.py", "b.py"] });
      run.diff(null, { reverts: true });
    }
    expect(detectBuilt(run, ON)[0].evidence.files).toEqual(["a.py", "b.py"]);
  });
});

describe("polling", () => {
  it("a poll of a running process neither extends nor breaks a run of repeated calls", () => {
    const run = buildRun();
    for (let i = 0; i < 5; i++) run.add("tool.called", { node: "main", tool: "BashOutput", args: { id: "b1" }, outputHash: "running", polling: true });
    expect(detectBuilt(run)).toEqual([]);
    run.tool("main", "Bash", { command: "ls" }, "h");
    run.add("tool.called", { node: "main", tool: "BashOutput", args: { id: "b1" }, outputHash: "running", polling: true });
    run.tool("main", "Bash", { command: "ls" }, "h");
    run.tool("main", "Bash", { command: "ls" }, "h");
    expect(summarize(detectBuilt(run))).toEqual(["repeated_tool_call@e9"]);
  });
});

describe("repeated_tool_error", () => {
  const ERRORS = { repeated_tool_error: 3 };
  const failed = (run: ReturnType<typeof buildRun>, tool: string, args: unknown, error = "refused") => run.add("tool.called", { node: "main", tool, args, ok: false, outputHash: error });

  it("fires at the third failed call in a row on a node with the same error, whatever the tool and arguments", () => {
    const run = buildRun();
    failed(run, "Edit", { file: "types/index.ts", old: "a" });
    failed(run, "MultiEdit", { file: "types/index.ts", edits: ["a"] });
    failed(run, "Write", { file: "types/index.ts", content: "b" });
    const findings = detectBuilt(run, ERRORS);
    expect(summarize(findings)).toEqual(["repeated_tool_error@e3"]);
    expect(findings[0]).toMatchObject({ haltReason: "repeated_error", node: "main", count: 3, limit: 3 });
  });

  it("is broken by a call that succeeds or fails otherwise, not by polls; and is off by default (the protocol's signals are the spec's)", () => {
    const run = buildRun();
    failed(run, "Edit", { n: 1 });
    failed(run, "Edit", { n: 2 });
    run.add("tool.called", { node: "main", tool: "Read", args: { n: 1 }, ok: true, outputHash: "file" });
    failed(run, "Edit", { n: 3 });
    failed(run, "Edit", { n: 4 }, "other error");
    failed(run, "Edit", { n: 5 });
    run.add("tool.called", { node: "main", tool: "BashOutput", polling: true });
    failed(run, "Edit", { n: 6 });
    expect(detectBuilt(run, ERRORS)).toEqual([]);
    failed(run, "Edit", { n: 7 });
    expect(summarize(detectBuilt(run, ERRORS))).toEqual(["repeated_tool_error@e9"]);
    expect(detectBuilt(run)).toEqual([]);
  });

  it("leaves identical failing calls to repeated_tool_call: one loop, one finding", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) failed(run, "Bash", { command: "npm run build" });
    expect(summarize(detectBuilt(run, ERRORS))).toEqual(["repeated_tool_call@e3"]);
  });
});

describe("unchanged_after_edits", () => {
  const CHECKS = { unchanged_after_edits: 3 };
  const SCRIPT = "reproduce_issue.py";
  type Run = ReturnType<typeof buildRun>;
  const check = (run: Run, output: string) =>
    run.verify(true, { command: `python ${SCRIPT}`, exitCode: 0, stderr: output, checkScript: SCRIPT });
  const edit = (run: Run, file = "astropy/coordinates/transforms.py") => run.diff(null, { files: [file] });
  /** The script written, then run once before any other file is edited: it shows the bug. */
  const reproduce = (run: Run, output = "Alt: 86.3 deg\n") => {
    edit(run, SCRIPT);
    check(run, output);
  };

  it("fires when the check script shows its first output again after each of 3 rounds of edits to other files", () => {
    const run = buildRun();
    reproduce(run);
    edit(run);
    check(run, "Alt: 86.3 deg\n");
    edit(run, "astropy/__init__.py");
    edit(run);
    check(run, "Alt: 86.3 deg\n");
    expect(detectBuilt(run, CHECKS)).toEqual([]);
    edit(run);
    check(run, "Alt: 86.3 deg\n");
    const findings = detectBuilt(run, CHECKS);
    expect(summarize(findings)).toEqual(["unchanged_after_edits@e9"]);
    expect(findings[0]).toMatchObject({ haltReason: "stalled", count: 3, limit: 3 });
    expect(findings[0].evidence.command).toBe(`python ${SCRIPT}`);
    // Off by default: the protocol's signals are the spec's.
    expect(detectBuilt(run)).toEqual([]);
  });

  it("counts again once the fix is undone and the first output is back (astropy-13398)", () => {
    const run = buildRun();
    reproduce(run, "Alt: 86.3 deg\n");
    edit(run);
    check(run, "Alt: 90.0 deg\n");
    for (let i = 0; i < 3; i++) {
      edit(run);
      check(run, "Alt: 86.3 deg\n");
    }
    expect(summarize(detectBuilt(run, CHECKS))).toEqual(["unchanged_after_edits@e10"]);
  });

  it("masks addresses and durations in the output", () => {
    const run = buildRun();
    reproduce(run, "checked in 5ms at 0x7f01\n");
    for (const ms of [12, 340, 7]) {
      edit(run);
      check(run, `checked in ${ms}ms at 0x7f${ms}\n`);
    }
    expect(summarize(detectBuilt(run, CHECKS))).toEqual(["unchanged_after_edits@e8"]);
  });

  it("stays quiet while a fix holds: the same output after edits, but not the one the script first showed", () => {
    const run = buildRun();
    reproduce(run, "wrong\n");
    for (let i = 0; i < 4; i++) {
      edit(run);
      check(run, "right\n");
    }
    expect(detectBuilt(run, CHECKS)).toEqual([]);
  });

  it("never counts a script first run after other files were edited (a check written after the fix)", () => {
    const run = buildRun();
    edit(run);
    reproduce(run, "All good\n");
    for (let i = 0; i < 4; i++) {
      edit(run);
      check(run, "All good\n");
    }
    expect(detectBuilt(run, CHECKS)).toEqual([]);
  });

  it("is broken by another output or a failing run; runs after no edit, or after edits of the script alone, neither count nor break", () => {
    const run = buildRun();
    reproduce(run, "wrong\n");
    edit(run);
    check(run, "wrong\n");
    check(run, "wrong\n");
    edit(run, SCRIPT);
    check(run, "wrong\n");
    edit(run);
    run.verify(false, { command: `python ${SCRIPT}`, exitCode: 1, stderr: "Traceback\n", checkScript: SCRIPT });
    edit(run);
    check(run, "wrong\n");
    edit(run);
    check(run, "other\n");
    edit(run);
    check(run, "wrong\n");
    edit(run);
    check(run, "wrong\n");
    expect(detectBuilt(run, CHECKS)).toEqual([]);
    edit(run);
    check(run, "wrong\n");
    expect(summarize(detectBuilt(run, CHECKS))).toEqual(["unchanged_after_edits@e19"]);
  });

  it("needs the mapper's checkScript mark: results of a test runner (unmarked) never count", () => {
    const run = buildRun();
    run.verify(true, { command: "pytest tests/", exitCode: 0, stderr: "5 passed in 0.31s\n" });
    for (let i = 0; i < 5; i++) {
      edit(run);
      run.verify(true, { command: "pytest tests/", exitCode: 0, stderr: "5 passed in 0.31s\n" });
    }
    expect(detectBuilt(run, CHECKS)).toEqual([]);
  });

  it("leaves a failing check to the failure signals", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) {
      edit(run);
      run.verify(false, { command: `python ${SCRIPT}`, exitCode: 1, stderr: "AssertionError\n", checkScript: SCRIPT });
    }
    expect(summarize(detectBuilt(run, { ...CHECKS, recurring_failure: 3 }))).toEqual(["repeated_failure@e6", "recurring_failure@e6"]);
  });
});
