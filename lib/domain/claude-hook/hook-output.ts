/**
 * What the hook prints for Claude Code: the JSON of its hooks reference
 * (common fields `continue`, `stopReason`, `systemMessage`; PreToolUse's
 * `hookSpecificOutput.permissionDecision` / `permissionDecisionReason` /
 * `additionalContext`; PostToolUse's and Stop's `decision: "block"` with
 * `reason`, which Claude reads; `additionalContext` of PostToolUse and
 * SessionStart). Printing nothing lets the call go on as if there were no hook.
 */
import type { HookEventName } from "./hook-input";

/** What Loopscope says about the session at this hook call. */
export type HookVerdict =
  /** Nothing to say: the call goes on. */
  | { kind: "go" }
  /** The run waits for a person: `reason` tells the agent the loop and to stop and wait. */
  | { kind: "halted"; reason: string; notice: string }
  /** A person let the agent go on: `message` carries their directive. */
  | { kind: "resume"; message: string; notice: string }
  /** A person stopped the agent (stop, accept as partial, or taking over). */
  | { kind: "stop"; message: string }
  /** Loopscope could not be asked: the call goes on, and the person is told. */
  | { kind: "unchecked"; notice: string };

export type HookOutput = Record<string, unknown>;

/**
 * The output for one hook event, or null for none (exit 0, empty stdout).
 * A go-on never answers `permissionDecision: "allow"`: that would skip the
 * person's own permission rules; no decision keeps them.
 *
 * @example buildHookOutput("PreToolUse", { kind: "halted", reason: "…", notice: "…" }).hookSpecificOutput.permissionDecision // "deny"
 */
export function buildHookOutput(event: HookEventName, verdict: HookVerdict): HookOutput | null {
  switch (verdict.kind) {
    case "go":
      return null;
    case "unchecked":
      return { systemMessage: verdict.notice };
    case "halted":
      if (event === "PreToolUse") return { systemMessage: verdict.notice, hookSpecificOutput: { hookEventName: event, permissionDecision: "deny", permissionDecisionReason: verdict.reason } };
      if (event === "PostToolUse") return { systemMessage: verdict.notice, decision: "block", reason: verdict.reason };
      if (event === "SessionStart") return { systemMessage: verdict.notice, hookSpecificOutput: { hookEventName: event, additionalContext: verdict.reason } };
      // The agent is stopping anyway: that is what it was asked to do.
      return { systemMessage: verdict.notice };
    case "resume":
      if (event === "PreToolUse" || event === "PostToolUse" || event === "SessionStart") {
        return { systemMessage: verdict.notice, hookSpecificOutput: { hookEventName: event, additionalContext: verdict.message } };
      }
      if (event === "Stop") return { systemMessage: verdict.notice, decision: "block", reason: verdict.message };
      return { systemMessage: verdict.notice };
    case "stop":
      if (event === "PreToolUse") {
        return {
          continue: false, stopReason: verdict.message, systemMessage: verdict.message,
          hookSpecificOutput: { hookEventName: event, permissionDecision: "deny", permissionDecisionReason: verdict.message },
        };
      }
      return { continue: false, stopReason: verdict.message, systemMessage: verdict.message };
  }
}

/** A person's decision, as the control API delivers it (`ControlDecision`). */
export interface DecisionInput {
  action: string;
  directive: string | null;
  by: string;
  provider: string | null;
  budgetDelta: Record<string, number> | null;
}

/** Decisions after which the agent stops (the run is over, or a person takes over). */
const STOPPING = new Set(["stop", "accept_partial", "switch_to_interactive"]);

/**
 * The verdict a decision gives: the agent goes on with the person's directive,
 * or stops.
 *
 * @example decisionVerdict({ action: "resume", directive: "fix the test first", by: "ada", provider: null, budgetDelta: null }, url).kind // "resume"
 */
export function decisionVerdict(d: DecisionInput, runUrl: string): HookVerdict {
  const directive = d.directive?.trim() ? d.directive.trim() : null;
  if (STOPPING.has(d.action)) {
    const why =
      d.action === "accept_partial" ? "accepted the work so far as partial and ended the run"
      : d.action === "switch_to_interactive" ? "is taking over this session themselves"
      : "stopped this session";
    return { kind: "stop", message: `Loopscope: ${d.by} ${why}${directive ? `: ${directive}` : "."} Stop now; do not go on. (${runUrl})` };
  }
  const raised = d.budgetDelta ? Object.entries(d.budgetDelta).map(([k, v]) => `${k} +${v}`).join(", ") : "";
  const how =
    d.action === "spawn_reviewer" ? "asks for a review before you go on (have a sub-agent review the failing change)"
    : d.action === "retry_with_new_provider" ? `asks to retry with another model${d.provider ? ` (${d.provider})` : ""}`
    : "resumed this session";
  const message = [
    `Loopscope: ${d.by} ${how}${raised ? ` (limits raised: ${raised})` : ""}.`,
    directive ? `Their directive, which comes before your own plan: ${directive}` : "Go on, and do not repeat what did not work.",
  ].join(" ");
  const provider = d.action === "retry_with_new_provider" && d.provider ? ` Switch the model to ${d.provider} (/model).` : "";
  return { kind: "resume", message, notice: `Loopscope: ${d.by} decided ${d.action.replace(/_/g, " ")}${directive ? `: "${directive}"` : ""}.${provider}` };
}
