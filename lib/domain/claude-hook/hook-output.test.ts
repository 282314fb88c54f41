import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOOK_EVENTS, parseHookInput } from "./hook-input";
import { buildHookOutput, decisionVerdict, type DecisionInput, type HookVerdict } from "./hook-output";

const RUN_URL = "http://127.0.0.1:3000/runs/s-1";
const decision = (fields: Partial<DecisionInput>): DecisionInput => ({ action: "resume", directive: null, by: "ada", provider: null, budgetDelta: null, ...fields });

describe("the hook's input", () => {
  it("reads a PreToolUse input as Claude Code writes it", () => {
    const parsed = parseHookInput(JSON.stringify({
      session_id: "s-1", transcript_path: "/home/u/.claude/projects/p/s-1.jsonl", cwd: "/home/u/p", permission_mode: "default",
      hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git commit" }, tool_use_id: "toolu_01",
    }));
    expect(parsed).toEqual({
      ok: true,
      input: {
        event: "PreToolUse", sessionId: "s-1", transcriptPath: "/home/u/.claude/projects/p/s-1.jsonl", cwd: "/home/u/p", toolName: "Bash",
        toolUseId: "toolu_01", agentId: null, agentTranscriptPath: null, source: null,
      },
    });
  });

  it("reads SubagentStop's agent transcript", () => {
    const parsed = parseHookInput('{"hook_event_name":"SubagentStop","session_id":"s","transcript_path":"/t/s.jsonl","agent_id":"a1","agent_transcript_path":"/t/s/subagents/agent-a1.jsonl"}');
    expect(parsed).toMatchObject({ ok: true, input: { agentId: "a1", agentTranscriptPath: "/t/s/subagents/agent-a1.jsonl" } });
  });

  it("names the field that is wrong", () => {
    expect(parseHookInput("nope")).toMatchObject({ ok: false, message: expect.stringContaining("not JSON") });
    expect(parseHookInput("[]")).toMatchObject({ ok: false, message: expect.stringContaining("JSON object") });
    expect(parseHookInput('{"hook_event_name":"Notification","session_id":"s","transcript_path":"/t"}')).toMatchObject({ ok: false, message: expect.stringContaining('"hook_event_name"') });
    expect(parseHookInput('{"hook_event_name":"Stop","transcript_path":"/t"}')).toEqual({ ok: false, message: 'missing required field "session_id"' });
    expect(parseHookInput('{"hook_event_name":"Stop","session_id":"s","transcript_path":""}')).toEqual({ ok: false, message: 'missing required field "transcript_path"' });
  });

  it("never throws on junk", () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
      expect(typeof parseHookInput(text).ok).toBe("boolean");
    }));
  });
});

describe("the hook's output", () => {
  const halted: HookVerdict = { kind: "halted", reason: "Loopscope halted this session: repeated_failure …", notice: "Loopscope halted this session" };

  it("denies a tool call while the run waits for a person, with the reason Claude reads", () => {
    expect(buildHookOutput("PreToolUse", halted)).toEqual({
      systemMessage: "Loopscope halted this session",
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: halted.kind === "halted" ? halted.reason : "" },
    });
    // The tool already ran: its result is followed by the reason.
    expect(buildHookOutput("PostToolUse", halted)).toMatchObject({ decision: "block", reason: expect.stringContaining("repeated_failure") });
    expect(buildHookOutput("SessionStart", halted)).toMatchObject({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: expect.stringContaining("repeated_failure") } });
    // Stopping is what it was asked to do: a Stop hook does not keep it going.
    expect(buildHookOutput("Stop", halted)).toEqual({ systemMessage: "Loopscope halted this session" });
  });

  it("lets the agent go on with the directive, without overriding the person's permission rules", () => {
    const verdict = decisionVerdict(decision({ directive: "amend the commit message instead of retrying", budgetDelta: { repeated_failure: 2 } }), RUN_URL);
    expect(verdict.kind).toBe("resume");
    const pre = buildHookOutput("PreToolUse", verdict) as { hookSpecificOutput: Record<string, unknown> };
    expect(pre.hookSpecificOutput).not.toHaveProperty("permissionDecision");
    expect(pre.hookSpecificOutput.additionalContext).toBe(
      "Loopscope: ada resumed this session (limits raised: repeated_failure +2). Their directive, which comes before your own plan: amend the commit message instead of retrying",
    );
    // At Stop, blocking the stop is how Claude goes on with it.
    expect(buildHookOutput("Stop", verdict)).toMatchObject({ decision: "block", reason: expect.stringContaining("amend the commit message") });
    expect(buildHookOutput("PostToolUse", verdict)).toMatchObject({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: expect.stringContaining("amend") } });
  });

  it("stops the agent when a person stops the run, accepts it as partial or takes over", () => {
    for (const action of ["stop", "accept_partial", "switch_to_interactive"]) {
      const verdict = decisionVerdict(decision({ action, directive: "the test itself is wrong" }), RUN_URL);
      expect(verdict.kind).toBe("stop");
      const out = buildHookOutput("PreToolUse", verdict) as Record<string, unknown>;
      expect(out).toMatchObject({ continue: false, stopReason: expect.stringContaining("the test itself is wrong"), hookSpecificOutput: { permissionDecision: "deny" } });
      expect(buildHookOutput("Stop", verdict)).toMatchObject({ continue: false });
    }
    expect(decisionVerdict(decision({ action: "accept_partial" }), RUN_URL)).toMatchObject({ message: expect.stringContaining("accepted the work so far as partial") });
  });

  it("passes a reviewer or another model on as what to do next", () => {
    expect(decisionVerdict(decision({ action: "spawn_reviewer" }), RUN_URL)).toMatchObject({ kind: "resume", message: expect.stringContaining("review") });
    expect(decisionVerdict(decision({ action: "retry_with_new_provider", provider: "claude-sonnet-4-5" }), RUN_URL)).toMatchObject({
      kind: "resume", notice: expect.stringContaining("Switch the model to claude-sonnet-4-5"),
    });
  });

  it("says nothing when there is nothing to say, and tells the person when Loopscope was not asked", () => {
    for (const event of HOOK_EVENTS) {
      expect(buildHookOutput(event, { kind: "go" })).toBeNull();
      expect(buildHookOutput(event, { kind: "unchecked", notice: "Loopscope (http://x) could not be reached" })).toEqual({ systemMessage: "Loopscope (http://x) could not be reached" });
    }
  });
});
