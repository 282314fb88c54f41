import { describe, expect, it } from "vitest";
import { detectRun } from "../detector";
import type { LoopEvent } from "../protocol/types";
import { summarizeFailure } from "../protocol/hashes";
import { buildVerifyEvent } from "./verify-result";
import { maskOutputText } from "./output-mask";

/** The end of `mix test … | tail` as Claude Code spotter's runs show it: ids cut off, the summary kept. */
const MIX_TAIL = "       test/hooks_controller_test.exs:202: (test)\n\n....\nFinished in 1.9 seconds (0.4s async, 1.5s sync)\n14 doctests, 297 tests, 11 failures";
/** Four failures counted, three named (the first scrolled out of the kept output). */
const MIX_FOUR_OF_THREE = [
  "  2) test shows annotations (SpotterWeb.ProjectReviewLiveTest)",
  "     test/spotter_web/live/project_review_live_test.exs:40",
  "  3) test lists sessions (SpotterWeb.ProjectReviewLiveTest)",
  "     test/spotter_web/live/project_review_live_test.exs:70",
  "  4) test project not found (SpotterWeb.ProjectReviewLiveTest)",
  "     test/spotter_web/live/project_review_live_test.exs:99",
  "",
  "Finished in 1.2 seconds (0.00s async, 1.2s sync)",
  "5 tests, 4 failures",
].join("\n");

function verify(id: string, output: string, exitCode?: number): Record<string, unknown> {
  return buildVerifyEvent({ runId: "r", id, ts: `2026-01-01T00:00:0${id}Z`, node: "main", command: "mix test 2>&1 | tail -30", output, exitCode });
}

describe("buildVerifyEvent", () => {
  it("marks a run of the agent's own check script, not a test runner's", () => {
    const run = (command: string) => buildVerifyEvent({ runId: "r", id: "1", ts: "2026-01-01T00:00:01Z", command, output: "Alt: 86.3 deg", exitCode: 0 });
    expect(run("python reproduce_issue.py").checkScript).toBe("reproduce_issue.py");
    expect(run("pytest tests/test_frames.py").checkScript).toBeUndefined();
    // A script that runs unittest is a test run: its passing output is meant to stay the same.
    const unittest = buildVerifyEvent({ runId: "r", id: "2", ts: "2026-01-01T00:00:02Z", command: "python test_dates.py", output: "....\n----------------------------------------------------------------------\nRan 4 tests in 0.002s\n\nOK\n", exitCode: 0 });
    expect(unittest.checkScript).toBeUndefined();
  });

  it("counts the failures the runner's summary states when its output names none of them", () => {
    const event = verify("1", MIX_TAIL);
    expect(event.passed).toBe(false);
    expect(event.failing).toBeUndefined();
    expect(event.failingCount).toBe(11);
    expect(summarizeFailure(event)?.failingCount).toBe(11);
  });

  it("counts the summary's failures beside the ids it names when it names fewer", () => {
    const event = verify("1", MIX_FOUR_OF_THREE, 2);
    expect((event.failing as string[]).length).toBe(3);
    expect(event.failingCount).toBe(4);
    expect(summarizeFailure(event)?.failingCount).toBe(4);
  });

  it("states no count when the ids are all the summary counts, nor on a pass", () => {
    expect(verify("1", "FAILED tests/test_a.py::test_x - assert 1 == 2\n==== 1 failed, 3 passed in 0.12s ====", 1).failingCount).toBeUndefined();
    expect(verify("1", "14 doctests, 297 tests, 0 failures", 0).failingCount).toBeUndefined();
  });

  it("lets failing_not_decreasing see results whose failures are only counted", () => {
    const events = ["1", "2", "3", "4"].map((id) => verify(id, MIX_TAIL) as unknown as LoopEvent);
    expect(detectRun(events, { failing_not_decreasing: 3 }).map((f) => f.signal)).toContain("failing_not_decreasing");
  });

  it("gives the same failure signature from the caller's masked output as from masking the lines itself", () => {
    const lines = Array.from({ length: 25 }, (_, i) => `line ${i} at 12:00:0${i % 10} took 15ms id 3fa85f64-5717-4562-b3fc-2c963f66afa6 sha a1b2c3d4e`);
    // A seed whose digits are on the line after the 20th: masking the whole output changes that line only.
    lines[19] = "Randomized with seed:";
    lines[20] = "  4242";
    const outputs = [lines.join("\n"), lines.join("\r\n"), lines.slice(0, 5).join("\n"), "x".repeat(70 * 1024) + "\n1 failed"];
    for (const output of outputs) {
      const input = { runId: "r", id: "1", ts: "2026-01-01T00:00:01Z", command: "pytest", output, failed: true };
      expect(buildVerifyEvent({ ...input, maskedOutput: maskOutputText(output) }).failureSignature).toBe(buildVerifyEvent(input).failureSignature);
    }
  });
});
