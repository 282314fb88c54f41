import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { detectRun } from "../detector/batch";
import { DETECTOR_PRESETS } from "../detector/config";
import type { LoopEvent } from "../protocol/types";
import { describeHalt, parseHaltKey, summarizeEvidence } from "./halt-reason";
import { mapTranscriptEvents } from "./transcript-events";

const FILE = fileURLToPath(new URL("../../../../shared/real-traces/claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl", import.meta.url));
const RUN_URL = "http://127.0.0.1:3000/runs/ae4a77f8-aedd-4bc1-888f-c94edc91af04";

describe("the halt key", () => {
  it("names the signal, node and event of a detector halt", () => {
    expect(parseHaltKey("detector:repeated_failure|main||||e1:0:verify", "repeated_error")).toEqual({
      source: "detector", haltReason: "repeated_error", signal: "repeated_failure", node: "main", edge: null,
      count: null, limit: null, atEventId: "e1:0:verify", evidence: null,
    });
    expect(parseHaltKey("detector:edge_without_progress||planner->researcher|||ev|7")).toMatchObject({ edge: "planner->researcher", atEventId: "ev|7" });
    expect(parseHaltKey("runtime:halt-3", "stalled")).toMatchObject({ source: "runtime", signal: null, atEventId: "halt-3", haltReason: "stalled" });
    expect(parseHaltKey("paused:ev-9", "paused")).toMatchObject({ source: "pause", atEventId: "ev-9" });
  });
});

describe("the reason a halted agent reads", () => {
  it("names the loop, its count against the limit, the failing command and its output", () => {
    const at = {
      v: 1, id: "u1:0:verify", runId: "r", ts: "2026-02-12T14:32:25.277Z", type: "verify.result", node: "main",
      command: "git add -A && git commit -m \"feat: instrument hook controllers\"", passed: false, exitCode: 1,
      failing: ["test/a_test.exs:12"], stderr: "Pre-commit validation failed:\n\n[DIALYZER]\nFinding suitable PLTs\n",
    } as LoopEvent;
    const halt = {
      ...parseHaltKey("detector:repeated_failure|main||||u1:0:verify", "repeated_error"),
      count: 3, limit: 3, evidence: { failureSignatures: ["aa11", "bb22", "bb22", "bb22"], failingCounts: [1, 1, 1] },
    };
    expect(describeHalt(halt, { runUrl: RUN_URL, atEvent: at })).toBe(
      "Loopscope halted this session: repeated_failure on node main (3 of at most 3), repeated error, at event u1:0:verify. " +
        "The same failure 3 times in a row (limit 3). " +
        "Evidence: `git add -A && git commit -m \"feat: instrument hook controllers\"` failed (exit 1); failing: test/a_test.exs:12; " +
        "output: Pre-commit validation failed: / [DIALYZER] / Finding suitable PLTs; failure signature bb22 is 3 of the last 4 failures. " +
        `Stop here and wait for a person: do not retry, work around or undo this. They decide in Loopscope (${RUN_URL}); the next tool call tells you their decision.`,
    );
  });

  it("still tells the agent to stop and wait when only the halt key is known", () => {
    const text = describeHalt(parseHaltKey("runtime:h1", "stalled"), { runUrl: RUN_URL, atEvent: null });
    expect(text).toContain("Loopscope halted this session: stalled, at event h1.");
    expect(text).toContain("Stop here and wait for a person");
    expect(describeHalt(parseHaltKey("paused:p1", "paused"), { runUrl: RUN_URL, atEvent: null })).toMatch(/^A person paused this session in Loopscope\./);
  });

  it("summarises a repeated tool call by the call itself", () => {
    const at = { v: 1, id: "t", runId: "r", ts: "2026-01-01T00:00:00Z", type: "tool.called", tool: "Read", args: { file_path: "/a.ts" } } as LoopEvent;
    expect(summarizeEvidence({ ...parseHaltKey("detector:repeated_tool_call|main||||t"), count: 4, limit: 4 }, at)).toBe('the call: Read {"file_path":"/a.ts"}');
  });

  it("explains the real session's halt at its repeated failing commit, when the detector halts it", () => {
    const events = mapTranscriptEvents(readFileSync(FILE, "utf8"), { final: true }).events;
    const findings = detectRun(events, DETECTOR_PRESETS.recommended).filter((f) => /failure/.test(f.signal));
    expect(findings.length).toBeGreaterThan(0);
    const f = findings[0];
    const at = events.find((e) => e.id === f.atEventId) ?? null;
    expect(at).toMatchObject({ type: "verify.result", passed: false, command: expect.stringMatching(/^git add -A && git commit/) });
    const text = describeHalt({ ...parseHaltKey(`detector:${f.signal}|${f.node ?? ""}||||${f.atEventId}`, f.haltReason), count: f.count, limit: f.limit, evidence: f.evidence }, { runUrl: RUN_URL, atEvent: at });
    expect(text).toContain(`${f.signal} on node main (${f.count} of at most ${f.limit})`);
    expect(text).toContain("`git add -A && git commit -m \"feat: instrument hook controllers with trace correlation");
    expect(text).toContain("output: Pre-commit validation failed:");
  });
});
