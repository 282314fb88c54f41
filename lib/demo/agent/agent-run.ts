import { ENDING_DECISION_ACTIONS, type ControlDecision, type HaltOptions, type LoopscopeClient } from "loopscope/client";

/** One line of the agent's log (JSON with `--json`, for tests that assert what the agent received). */
export type AgentLogEntry =
  | { agent: "started"; runId: string; scenario: string }
  | { agent: "halted"; runId: string; by: "detector" | "runtime"; haltReason: string | null }
  | { agent: "decision"; runId: string; decision: ControlDecision }
  | { agent: "finished"; runId: string; outcome: string };

export interface AgentRunOptions {
  /** Pause between steps, so that a person watching sees the run move. */
  paceMs: number;
  log: (entry: AgentLogEntry) => void;
  signal?: AbortSignal;
}

/** The agent's graph: a planner↔researcher loop, a coder↔verifier loop, and the snitch that reports. */
export const SDD_GRAPH = {
  nodes: [
    { id: "planner", label: "Planner", role: "planner" },
    { id: "researcher", label: "Researcher", role: "researcher" },
    { id: "coder", label: "Coder", role: "coder" },
    { id: "verifier", label: "Verifier", role: "verifier" },
    { id: "snitch", label: "Snitch", role: "reporter" },
  ],
  edges: [
    { from: "planner", to: "researcher" },
    { from: "researcher", to: "planner" },
    { from: "planner", to: "coder" },
    { from: "coder", to: "verifier" },
    { from: "verifier", to: "coder" },
    { from: "verifier", to: "snitch" },
  ],
};

/**
 * One run of the simulated SDD agent, talking to Loopscope only through
 * `loopscope/client`, as a real runtime would: it reports each step, and
 * between steps asks whether the run was halted (by the detector, or by
 * itself through `halt`); then it waits for a person's decision, applies it
 * and acknowledges it.
 */
export class AgentRun {
  /** The directive of the last decision, handed to the next turns. */
  directive: string | null = null;
  provider: string | null = null;
  private turnNo = 0;

  constructor(
    readonly client: LoopscopeClient,
    readonly runId: string,
    private readonly opts: AgentRunOptions,
  ) {}

  /** One node turn: `node.started`, then `node.completed` with its output. */
  turn(node: string, final: string, extra: Record<string, unknown> = {}): void {
    const n = ++this.turnNo;
    const tokens = 1500 + ((n * 7919) % 9000);
    const context = { ...(this.directive ? { directive: this.directive } : {}), ...(this.provider ? { provider: this.provider } : {}) };
    this.client.emit(this.runId, { type: "node.started", node, turn: n, ...context });
    this.client.emit(this.runId, {
      type: "node.completed", node, turn: n, durationMs: 4000 + ((n * 104_729) % 20_000), tokens,
      costUsd: Math.round(tokens * 0.0031) / 1000, output: { final }, ...extra,
    });
  }

  hop(from: string, to: string, reason?: string): void {
    this.client.emit(this.runId, { type: "edge.traversed", from, to, ...(reason ? { reason } : {}) });
  }

  research(query: string, resultsHash: string, quality: number): void {
    this.client.emit(this.runId, { type: "research.result", node: "researcher", query, resultsHash, quality, resultCount: 4 });
  }

  diff(body: string): void {
    this.client.emit(this.runId, {
      type: "artifact.diff", node: "coder", files: ["src/app.ts"],
      patch: `--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,1 +1,1 @@\n-old\n+${body}\n`,
    });
  }

  verify(passed: boolean, fields: { failing?: string[]; stderr?: string } = {}): void {
    this.client.emit(this.runId, { type: "verify.result", node: "verifier", command: "npm test", passed, exitCode: passed ? 0 : 1, ...fields });
  }

  /**
   * After a step: once the events are stored, is the run waiting for a
   * person (the detector halted it)? Then waits for the decision and applies
   * it. Null when the run may go on untouched.
   */
  async checkpoint(): Promise<ControlDecision | null> {
    await this.pace();
    await this.client.flush();
    const state = await this.client.getRunState(this.runId, this.opts.signal);
    if (!state?.waiting) return null;
    this.opts.log({ agent: "halted", runId: this.runId, by: "detector", haltReason: state.haltReason });
    return this.awaitDecision();
  }

  /** The runtime's own halt (its own budget ran out): reports it and waits for the decision. */
  async halt(opts: HaltOptions): Promise<ControlDecision> {
    await this.client.halt(this.runId, opts);
    this.opts.log({ agent: "halted", runId: this.runId, by: "runtime", haltReason: opts.haltReason });
    return this.awaitDecision();
  }

  /** Waits for the decision, takes its directive and provider, and acknowledges it. */
  async awaitDecision(): Promise<ControlDecision> {
    const decision = await this.client.waitForDecision(this.runId, { signal: this.opts.signal });
    if (!decision) throw new Error(`stopped waiting for a decision on ${this.runId}`);
    this.opts.log({ agent: "decision", runId: this.runId, decision });
    this.directive = decision.directive ?? this.directive;
    this.provider = decision.provider ?? this.provider;
    await this.client.ack(this.runId, decision.id);
    return decision;
  }

  /** Ends the run itself (stop and accept-as-partial are ended by Loopscope). */
  async complete(terminalStatus: string, stopReason: string): Promise<void> {
    this.client.emit(this.runId, { type: "run.completed", terminalStatus, stopReason });
    await this.client.flush();
    this.opts.log({ agent: "finished", runId: this.runId, outcome: terminalStatus });
  }

  /** Logs the end of a run that a person stopped or accepted as partial. */
  endedByPerson(decision: ControlDecision): boolean {
    if (!ENDING_DECISION_ACTIONS.includes(decision.action)) return false;
    this.opts.log({ agent: "finished", runId: this.runId, outcome: decision.action });
    return true;
  }

  private pace(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.opts.paceMs));
  }
}
