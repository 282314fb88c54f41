import { describe, expect, it } from "vitest";
import { sha256Hex } from "../protocol/hashes";
import { resolveDetectorConfig } from "./config";
import { computeCycleId } from "./graph";
import { RunState } from "./run-state";
import { recordResearch } from "./signals";
import { buildRun, detectBuilt, summarize } from "./test-events";

describe("identical_outputs", () => {
  it("fires when one node produces the same output hash 3 times in a row", () => {
    const run = buildRun();
    run.turn("coder", "same");
    run.turn("coder", "same\r\n");
    run.turn("coder", "same  ");
    expect(detectBuilt(run)).toEqual([
      {
        haltReason: "stalled",
        signal: "identical_outputs",
        node: "coder",
        edge: null,
        cycleId: null,
        taskId: null,
        loopType: null,
        recommendation: null,
        count: 3,
        limit: 3,
        atEventId: "e3",
        evidence: {
          outputHashes: Array(3).fill(sha256Hex("same")),
          diffHashes: [],
          failureSignatures: [],
          failingCounts: [],
          count: 3,
          limit: 3,
        },
        suggestedActions: ["switch_to_interactive", "retry_with_new_provider"],
      },
    ]);
  });

  it("is broken by a different output, but not by a turn without output or another node", () => {
    const broken = buildRun();
    broken.turn("coder", "A");
    broken.turn("coder", "A");
    broken.turn("coder", "B");
    broken.turn("coder", "A");
    expect(detectBuilt(broken)).toEqual([]);

    const skipped = buildRun();
    skipped.turn("coder", "A");
    skipped.turn("coder", null);
    skipped.turn("other", "A");
    skipped.turn("coder", "A");
    skipped.turn("coder", "A");
    expect(summarize(detectBuilt(skipped))).toEqual(["identical_outputs@e5"]);
  });

  it("keys on the given outputHash and on canonical structured output", () => {
    const run = buildRun();
    run.add("node.completed", { node: "p", outputHash: "h1", output: { final: "differs 1" } });
    run.add("node.completed", { node: "p", outputHash: "h1", output: { final: "differs 2" } });
    run.add("node.completed", { node: "p", outputHash: "h1" });
    run.add("node.completed", { node: "q", output: { structured: { a: 1, b: [1] } } });
    run.add("node.completed", { node: "q", output: { structured: { b: [1], a: 1 } } });
    run.add("node.completed", { node: "q", output: { structured: { a: 1, b: [1] } } });
    expect(detectBuilt(run)).toMatchObject([
      { node: "p", atEventId: "e3", evidence: { outputHashes: ["h1", "h1", "h1"] } },
      { node: "q", atEventId: "e6" },
    ]);
  });

  it("takes the cycle holding the node, and the node's last 5 output hashes as evidence", () => {
    const run = buildRun();
    run.hop("coder", "verifier");
    run.hop("verifier", "coder");
    for (const out of ["1", "2", "3", "x", "x", "x"]) run.turn("coder", out);
    const [finding] = detectBuilt(run);
    expect(finding.cycleId).toBe(computeCycleId(["coder", "verifier"], ["coder->verifier", "verifier->coder"]));
    expect(finding.evidence.outputHashes).toEqual(["2", "3", "x", "x", "x"].map(sha256Hex));
  });
});

describe("unchanged_diff", () => {
  const patch = (body: string, stamp = "") => `--- a/x.ts${stamp}\n+++ b/x.ts${stamp}\n@@ -1 +1 @@\n-a\n+${body}\n`;

  it("fires when 2 artifact.diff in a row (run-wide) have the same hash", () => {
    const run = buildRun();
    run.diff(patch("one", "\t2026-08-05 10:00:00"), { node: "coder" });
    run.diff(null, { node: "coder", files: ["x.ts"] }); // neither patch nor diffHash: ignored
    run.diff(patch("one", "\t2026-08-05 10:05:00"), { node: "other" });
    expect(detectBuilt(run)).toMatchObject([
      { signal: "unchanged_diff", haltReason: "stalled", node: "other", count: 2, limit: 2, atEventId: "e3" },
    ]);
  });

  it("does not fire for changing diffs, and uses diffHash as given", () => {
    const run = buildRun();
    run.diff(patch("one"));
    run.diff(patch("two"));
    run.diff(patch("three"), { diffHash: "d" });
    expect(detectBuilt(run)).toEqual([]);
    run.diff(patch("four"), { diffHash: "d" });
    expect(summarize(detectBuilt(run))).toEqual(["unchanged_diff@e4"]);
  });
});

describe("repeated_failure", () => {
  it("fires at the 3rd failing result in a row with the same signature", () => {
    const run = buildRun();
    run.verify(false, { node: "verifier", stderr: "FAIL x\ntook 120ms at 0x1f3a" });
    run.verify(false, { node: "verifier", stderr: "FAIL x\r\ntook 95ms at 0xbeef" });
    run.verify(false, { node: "verifier", stderr: "FAIL x\ntook 3.5ms at 0x0" });
    const [finding] = detectBuilt(run);
    expect(finding).toMatchObject({
      haltReason: "repeated_error",
      signal: "repeated_failure",
      node: "verifier",
      count: 3,
      limit: 3,
      atEventId: "e3",
    });
    expect(new Set(finding.evidence.failureSignatures).size).toBe(1);
    expect(finding.evidence.failureSignatures).toHaveLength(3);
  });

  it("is broken by a passing result and by a different signature", () => {
    const run = buildRun();
    run.verify(false, { failing: ["t1", "t2"] });
    run.verify(false, { failing: ["t2", "t1", "t1"] });
    run.verify(true);
    run.verify(false, { failing: ["t1", "t2"] });
    run.verify(false, { failing: ["t3"] });
    run.verify(false, { failing: ["t1", "t2"] });
    run.verify(false, { failing: ["t2", "t1"] });
    expect(detectBuilt(run).filter((f) => f.signal === "repeated_failure")).toEqual([]);
    run.verify(false, { failing: ["t1", "t2"] });
    expect(summarize(detectBuilt(run).filter((f) => f.signal === "repeated_failure"))).toEqual([
      "repeated_failure@e8",
    ]);
  });
});

describe("failing_not_decreasing", () => {
  const failing = (n: number, tag: string) => ({ failing: Array.from({ length: n }, (_, i) => `${tag}${i}`) });

  it("fires after 3 failing results that do not go below the lowest count (the first only sets it)", () => {
    const run = buildRun();
    run.verify(false, failing(3, "a"));
    run.verify(false, failing(3, "b"));
    run.verify(false, failing(4, "c"));
    run.verify(false, failing(3, "d"));
    const findings = detectBuilt(run);
    expect(findings).toMatchObject([
      { signal: "failing_not_decreasing", haltReason: "stalled", count: 3, limit: 3, atEventId: "e4" },
    ]);
    expect(findings[0].evidence.failingCounts).toEqual([3, 3, 4, 3]);
  });

  it("is reset by a decreasing count and by a pass; results without failing ids are ignored", () => {
    const run = buildRun();
    run.verify(false, failing(3, "a"));
    run.verify(false, failing(3, "b"));
    run.verify(false, failing(2, "c")); // new lowest
    run.verify(false, failing(2, "d"));
    run.verify(false, { stderr: "boom" }); // ignored
    run.verify(true); // resets
    run.verify(false, failing(5, "e")); // sets the lowest afresh
    run.verify(false, failing(5, "f"));
    run.verify(false, failing(5, "g"));
    expect(detectBuilt(run).filter((f) => f.signal === "failing_not_decreasing")).toEqual([]);
    run.verify(false, { stderr: "boom" });
    run.verify(false, failing(6, "h"));
    expect(summarize(detectBuilt(run).filter((f) => f.signal === "failing_not_decreasing"))).toEqual([
      "failing_not_decreasing@e11",
    ]);
  });
});

describe("oscillation", () => {
  it("fires when a node's last 4 outputs alternate A,B,A,B", () => {
    const run = buildRun();
    for (const out of ["A", "B", "A", "B"]) run.turn("coder", out);
    expect(detectBuilt(run)).toMatchObject([
      {
        haltReason: "oscillating",
        signal: "oscillation",
        node: "coder",
        count: 4,
        limit: 4,
        atEventId: "e4",
        suggestedActions: ["spawn_reviewer", "switch_to_interactive"],
      },
    ]);
  });

  it("is broken by a third value or a repeat, and skips turns without output", () => {
    const third = buildRun();
    for (const out of ["A", "B", "A", "C", "A"]) third.turn("coder", out);
    for (const out of ["A", "B", "B", "A", "B"]) third.turn("other", out);
    expect(detectBuilt(third)).toEqual([]);

    const skipped = buildRun();
    for (const out of ["A", null, "B", "A", null, "B"]) skipped.turn("coder", out);
    expect(summarize(detectBuilt(skipped))).toEqual(["oscillation@e6"]);
  });

  it("watches the run's diff hashes too, as a separate scope", () => {
    const run = buildRun();
    for (const hash of ["d1", "d2", "d1", "d2"]) run.diff(null, { diffHash: hash, node: "coder" });
    for (const out of ["A", "B", "A", "B"]) run.turn("coder", out);
    expect(detectBuilt(run)).toMatchObject([
      { signal: "oscillation", node: "coder", atEventId: "e4", evidence: { diffHashes: ["d1", "d2", "d1", "d2"] } },
      { signal: "oscillation", node: "coder", atEventId: "e8" },
    ]);
  });

  it("uses the configured length: with 2, any change of output alternates", () => {
    const run = buildRun();
    run.turn("coder", "A");
    run.turn("coder", "B");
    expect(summarize(detectBuilt(run, { oscillation: 2 }))).toEqual(["oscillation@e2"]);
    expect(detectBuilt(run, { oscillation: 3 })).toEqual([]);
  });
});

describe("repeated_tool_call", () => {
  it("fires when a node calls the same tool with the same canonical args 3 times in a row", () => {
    const run = buildRun();
    run.tool("coder", "read_file", { path: "a.ts", opts: { x: 1, y: 2 } });
    run.tool("other", "grep", { q: "x" }); // another node does not break it
    run.tool("coder", "read_file", { opts: { y: 2, x: 1 }, path: "a.ts" });
    run.tool("coder", "read_file", { path: "a.ts", opts: { x: 1, y: 2 } });
    expect(detectBuilt(run)).toMatchObject([
      { signal: "repeated_tool_call", haltReason: "stalled", node: "coder", count: 3, limit: 3, atEventId: "e4" },
    ]);
  });

  it("is broken by other args or another result hash; absent and given result hashes differ", () => {
    const run = buildRun();
    run.tool("coder", "read_file", { path: "a.ts" }, "r1");
    run.tool("coder", "read_file", { path: "a.ts" }, "r2");
    run.tool("coder", "read_file", { path: "a.ts" }, "r2");
    run.tool("coder", "read_file", { path: "a.ts" });
    run.tool("coder", "read_file", { path: "b.ts" });
    run.tool("coder", "read_file", { path: "b.ts" });
    run.tool("coder", "read_file", { path: "c.ts" });
    expect(detectBuilt(run)).toEqual([]);
  });

  it("treats calls without a node as one caller, and null args as absent", () => {
    const run = buildRun();
    run.tool(null, "ls");
    run.tool(null, "ls", null);
    run.tool(null, "ls");
    expect(detectBuilt(run)).toMatchObject([{ signal: "repeated_tool_call", node: null, atEventId: "e3" }]);
  });
});

describe("research results", () => {
  it("are new once per (query, resultsHash), null included, however many hashes one query gets", () => {
    const state = new RunState(resolveDetectorConfig());
    const node = state.graph.ensureNode("researcher");
    const pairs: [string, string | undefined][] = [
      ["q", "r1"],
      ["q", "r1"],
      ["q", undefined],
      ["q", undefined],
      ["q", "r2"],
      ["q", "r1"],
      ["p", undefined],
      ["p", undefined],
      ["p", "r1"],
      ["q", "r3"],
      ["q", "r2"],
    ];
    const progress: boolean[] = [];
    for (const [query, resultsHash] of pairs) {
      const before = node.progressEpoch;
      recordResearch(state, { v: 1, id: "e", runId: "r", ts: "", type: "research.result", node: "researcher", query, resultsHash }, node);
      progress.push(node.progressEpoch !== before);
    }
    expect(progress).toEqual([true, false, true, false, true, false, true, false, true, true, false]);
    expect(state.repeatedQueries.toArray()).toEqual(["q", "q", "q", "p", "q"]);
  });
});
