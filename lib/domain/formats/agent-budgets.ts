/**
 * What every agent-transcript mapper shares: its single-agent node and the
 * budgets it sets in `run.started` (see the README, "Budgets per agent").
 */

/**
 * The budgets every agent transcript runs under (Claude Code, Codex,
 * OpenHands, SWE-agent, mini-SWE-agent, Aider, OpenTelemetry traces). Here a `node.completed` is one
 * model call, and a healthy session makes hundreds: the defaults meant for
 * small agent graphs (6 turns per node, 100 steps) would halt nearly every
 * session. Loops in a session are what the no-progress signals find
 * (repeated and recurring failures, identical outputs, repeated tool calls,
 * oscillation, edits undone, edits that change nothing a check shows); these budgets only stop a session that runs away.
 */
export const SESSION_BUDGETS = {
  maxTurnsPerNode: 2000,
  maxSteps: 5000,
  // The signals made for real transcripts (off for the protocol): a failure
  // that comes back between other attempts, the same error whatever the
  // call's arguments, edits undone, and a check script whose output edits
  // do not change.
  recurring_failure: 3,
  repeated_tool_error: 3,
  edit_undo: 3,
  unchanged_after_edits: 3,
} as const;

/** The node of the main agent. */
export const MAIN_NODE = "main";
