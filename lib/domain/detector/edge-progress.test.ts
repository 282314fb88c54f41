import { describe, expect, it } from "vitest";
import { computeCycleId } from "./graph";
import { buildRun, detectBuilt, summarize } from "./test-events";

const edgeFindings = (run: ReturnType<typeof buildRun>, config = {}) =>
  detectBuilt(run, { identical_outputs: 99, oscillation: 99, ...config }).filter(
    (f) => f.signal === "edge_without_progress",
  );

describe("edge_without_progress", () => {
  it("fires when A->B is traversed more than 5 times since B's last new output", () => {
    const run = buildRun();
    run.hop("planner", "coder"); // counts from the start of the run
    run.turn("coder", "same again"); // new in the run: progress, resets the count
    for (let i = 0; i < 5; i++) {
      run.hop("planner", "coder");
      run.turn("coder", "same again");
    }
    expect(edgeFindings(run)).toEqual([]);
    run.hop("planner", "coder");
    expect(edgeFindings(run)).toMatchObject([
      {
        haltReason: "stalled",
        signal: "edge_without_progress",
        node: null,
        edge: "planner->coder",
        cycleId: null,
        count: 6,
        limit: 5,
        atEventId: "e13",
        suggestedActions: ["switch_to_interactive", "tighten_context_pack"],
      },
    ]);
  });

  it("does not fire while B keeps producing outputs new in the run", () => {
    const run = buildRun();
    for (let i = 0; i < 10; i++) {
      run.hop("planner", "coder");
      run.turn("coder", `output ${i}`);
    }
    expect(edgeFindings(run)).toEqual([]);
  });

  it("counts an output seen earlier in the run (from any node) as no progress", () => {
    const run = buildRun();
    run.turn("planner", "shared");
    for (let i = 0; i < 6; i++) {
      run.hop("planner", "coder");
      run.turn("coder", i % 2 === 0 ? "shared" : "other");
    }
    // "other" is new once (after hop 2), then hops 3..6 are 4 since progress: not more than 5.
    expect(edgeFindings(run)).toEqual([]);
    run.hop("planner", "coder");
    run.hop("planner", "coder");
    expect(summarize(edgeFindings(run))).toEqual(["edge_without_progress@e15"]);
  });

  it("uses the verifier limit (3) for edges into a node whose id or role is verifier", () => {
    const byId = buildRun();
    for (let i = 0; i < 4; i++) byId.hop("coder", "verifier");
    expect(edgeFindings(byId)).toMatchObject([{ edge: "coder->verifier", count: 4, limit: 3, atEventId: "e4" }]);

    const byRole = buildRun();
    byRole.add("run.started", { graph: { nodes: [{ id: "qa", role: "verifier" }], edges: [] } });
    for (let i = 0; i < 4; i++) byRole.hop("coder", "qa");
    expect(edgeFindings(byRole)).toMatchObject([{ edge: "coder->qa", limit: 3, atEventId: "e5" }]);

    const other = buildRun();
    for (let i = 0; i < 4; i++) other.hop("coder", "reviewer");
    expect(edgeFindings(other)).toEqual([]);
  });

  it("verify progress: the first result, a changed signature or a flipped passed", () => {
    const run = buildRun();
    const hopAndVerify = (fields: Record<string, unknown>) => {
      run.hop("coder", "verifier");
      run.verify(false, { node: "verifier", ...fields });
    };
    hopAndVerify({ failing: ["a"] }); // first: progress
    hopAndVerify({ failing: ["a"] });
    hopAndVerify({ failing: ["b"] }); // changed: progress
    hopAndVerify({ failing: ["b"] });
    hopAndVerify({ failing: ["b"] });
    run.hop("coder", "verifier");
    run.verify(true, { node: "verifier" }); // flipped: progress
    hopAndVerify({ failing: ["c"] }); // flipped back: progress
    expect(edgeFindings(run, { repeated_failure: 99 })).toEqual([]);
    hopAndVerify({ failing: ["c"] });
    hopAndVerify({ failing: ["c"] });
    hopAndVerify({ failing: ["c"] });
    expect(edgeFindings(run, { repeated_failure: 99 })).toEqual([]);
    run.hop("coder", "verifier");
    expect(edgeFindings(run, { repeated_failure: 99 })).toMatchObject([{ count: 4, limit: 3, atEventId: "e21" }]);
  });

  it("a node that produced research progresses only by new (query, resultsHash) pairs", () => {
    const run = buildRun();
    run.hop("planner", "researcher");
    run.research("researcher", "pdf library", "r1"); // new pair: progress, and the node is now a researcher
    for (let i = 0; i < 5; i++) {
      run.hop("planner", "researcher");
      run.research("researcher", "pdf library", "r1"); // no new information
      run.turn("researcher", `summary ${i}`); // new outputs, but not its kind of progress
    }
    run.hop("planner", "researcher");
    const [finding] = edgeFindings(run);
    expect(finding).toMatchObject({ edge: "planner->researcher", count: 6, atEventId: "e18" });
    expect(finding.evidence.queries).toEqual(Array(5).fill("pdf library"));

    const fresh = buildRun();
    for (let i = 0; i < 8; i++) {
      fresh.hop("planner", "researcher");
      fresh.research("researcher", "pdf library", i % 2 === 0 ? `r${i}` : undefined);
    }
    // Results without a hash key as (query, null): new once, then repeats; hashed ones are new.
    expect(edgeFindings(fresh)).toEqual([]);
  });

  it("a node that produced diffs progresses only by new diff hashes; an event without node is nobody's", () => {
    const run = buildRun();
    run.hop("planner", "coder");
    run.diff(null, { node: "coder", diffHash: "d0" });
    for (let i = 1; i <= 6; i++) {
      run.hop("planner", "coder");
      run.diff(null, { diffHash: `nodeless ${i}` });
      run.turn("coder", `new output ${i}`);
    }
    expect(summarize(edgeFindings(run, { unchanged_diff: 99 }))).toEqual(["edge_without_progress@e18"]);
  });

  it("takes the cycle holding both ends, one finding per edge", () => {
    const run = buildRun();
    run.hop("coder", "verifier");
    for (let i = 0; i < 6; i++) {
      run.hop("verifier", "coder");
      run.hop("coder", "verifier");
    }
    const findings = edgeFindings(run, { maxCycleIterations: 99 });
    const cycleId = computeCycleId(["coder", "verifier"], ["coder->verifier", "verifier->coder"]);
    expect(findings.map((f) => [f.edge, f.cycleId, f.atEventId])).toEqual([
      ["coder->verifier", cycleId, "e7"],
      ["verifier->coder", cycleId, "e12"],
    ]);
  });
});
