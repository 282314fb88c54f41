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

  it("is reset only by a pass of the command that failed: a passing check script says nothing of the suite", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) {
      run.verify(false, { command: "pytest tests/", failureSignature: "test_frames" });
      run.diff("+fix " + i);
      run.verify(true, { command: "python reproduce_issue.py" });
    }
    expect(summarize(detectBuilt(run, ON))).toEqual(["recurring_failure@e7"]);
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
  const check = (run: ReturnType<typeof buildRun>, output: string, fields: Record<string, unknown> = {}) =>
    run.verify(true, { command: "python reproduce_issue.py", exitCode: 0, stderr: output, checkScript: true, ...fields });
  const edit = (run: ReturnType<typeof buildRun>, file = "transforms.py") => run.diff(null, { files: [file] });

  it("fires when the agent's check script passes with the same output 3 times in a row, each run after edits", () => {
    const run = buildRun();
    check(run, "Alt: 86.3 deg\n");
    edit(run);
    check(run, "Alt: 86.3 deg\n");
    edit(run, "__init__.py");
    edit(run);
    check(run, "Alt: 86.3 deg\n");
    const findings = detectBuilt(run, CHECKS);
    expect(summarize(findings)).toEqual(["unchanged_after_edits@e6"]);
    expect(findings[0]).toMatchObject({ haltReason: "stalled", count: 3, limit: 3 });
    expect(findings[0].evidence.command).toBe("python reproduce_issue.py");
    // Off by default: the protocol's signals are the spec's.
    expect(detectBuilt(run)).toEqual([]);
  });

  it("masks what changes with the clock, as a failure signature does", () => {
    const run = buildRun();
    for (const ms of [12, 340, 7]) {
      edit(run);
      check(run, `checked in ${ms}ms at 0x7f${ms}\n`);
    }
    expect(summarize(detectBuilt(run, CHECKS))).toEqual(["unchanged_after_edits@e6"]);
  });

  it("is broken by a changed output; a run without an edit since the last neither counts nor breaks the row", () => {
    const run = buildRun();
    check(run, "wrong\n");
    edit(run);
    check(run, "wrong\n");
    check(run, "wrong\n");
    edit(run);
    check(run, "right\n");
    edit(run);
    check(run, "wrong\n");
    edit(run);
    check(run, "wrong\n");
    expect(detectBuilt(run, CHECKS)).toEqual([]);
    edit(run);
    check(run, "wrong\n");
    expect(summarize(detectBuilt(run, CHECKS))).toEqual(["unchanged_after_edits@e12"]);
  });

  it("leaves test runners alone: a refactoring's tests pass with the same output after every edit", () => {
    const run = buildRun();
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
      run.verify(false, { command: "python reproduce_issue.py", exitCode: 1, stderr: "AssertionError\n", checkScript: true });
    }
    expect(summarize(detectBuilt(run, { ...CHECKS, recurring_failure: 3 }))).toEqual(["repeated_failure@e6", "recurring_failure@e6"]);
  });
});
