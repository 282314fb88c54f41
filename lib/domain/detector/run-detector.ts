/**
 * The streaming loop detector of one run (`detector.md`): fed the run's events
 * one at a time, in `ts` order, it returns the findings each event makes.
 */
import type { LoopEvent } from "../protocol/types";
import { applyBudgetDelta, type DetectorConfig, readConfigFields, resolveDetectorConfig } from "./config";
import { checkAllCycles, checkCycleIterations, recordTurn } from "./budgets";
import { createTaskFinding, type Finding, sortFindingsAtEvent, type TaskLoopType } from "./findings";
import type { NodeRecord } from "./graph";
import { parseInstant } from "./instant";
import { rearmSetting } from "./rearm";
import { RunState } from "./run-state";
import { checkEdgeProgress, recordDiff, recordOutput, recordResearch, recordToolCall, recordVerify } from "./signals";
import { TaskAttemptTracker } from "./task-attempts";

/** A cycle as the UI shows it (`Loop <iterations>/<limit>`). */
export interface CycleState {
  cycleId: string;
  /** Node ids, sorted. */
  nodes: string[];
  /** `"from->to"`, sorted. */
  edges: string[];
  /** The node of the cycle that appeared first in the run. */
  driver: string;
  iterations: number;
  /** `maxCycleIterations` in force. */
  limit: number;
  /** Whether a finding was made against this cycle id. */
  halted: boolean;
}

/** A node with its running totals. */
export interface NodeState {
  id: string;
  role: string | null;
  label: string | null;
  turns: number;
  tokens: number;
  costUsd: number;
  runtimeMs: number;
}

/** What `feed` returns for an event that makes no finding. */
const NO_FINDINGS: Finding[] = Object.freeze([]) as unknown as Finding[];

/**
 * Streaming detector for one run. Feed it the run's events de-duplicated and
 * in order (instant of `ts`, then arrival): it keeps no list of events, so a
 * late event cannot be re-evaluated here; a caller that receives one re-runs
 * `detectRun` over the stored events.
 *
 * @example
 * const detector = new RunDetector({ maxCycleIterations: 5 });
 * for (const event of events) for (const finding of detector.feed(event)) notify(finding);
 */
export class RunDetector {
  private readonly state: RunState;
  private readonly all: Finding[] = [];
  private readonly tasks = new TaskAttemptTracker();
  /** (task, loop type) → index in `all` of the finding that later attempts update. */
  private readonly taskFindings = new Map<string, number>();
  private readonly haltedCycles = new Set<string>();
  private updates: Finding[] = [];
  /** Where the signals put the findings of the event being fed. */
  private readonly scratch: Finding[] = [];

  constructor(config: Partial<DetectorConfig> = {}) {
    this.state = new RunState(resolveDetectorConfig(config));
  }

  /** Every finding so far, in event order (task findings show their latest count and recommendation). */
  get findings(): readonly Finding[] {
    return this.all;
  }

  /**
   * Task-attempt findings that the last `feed` updated rather than made: a
   * finding carries the count and recommendation as of the task's last
   * attempt at which its loop type matched, so a consumer storing findings
   * upserts these by `atEventId` and `loopType`.
   */
  get lastUpdated(): readonly Finding[] {
    return this.updates;
  }

  /** The settings in force now (after `run.started.budgets` and budget deltas). */
  get config(): Readonly<DetectorConfig> {
    return this.state.config;
  }

  /**
   * Processes one event; returns the findings it makes, in the order of the
   * spec's tables. Most events make none: they all get one shared, frozen
   * empty array (an allocation per event is a tenth of the detector's cost),
   * so the result is to be read, not changed.
   */
  feed(event: LoopEvent): Finding[] {
    const out = this.scratch;
    // Setting `length` is a runtime call even on an empty array; most events leave it empty.
    if (out.length !== 0) out.length = 0;
    if (this.updates.length > 0) this.updates = [];
    const state = this.state;
    const node = typeof event.node === "string" ? state.graph.ensureNode(event.node) : null;
    switch (event.type) {
      case "node.completed":
        recordTurn(state, event, node, out);
        if (node !== null) recordOutput(state, event, node, out);
        break;
      case "edge.traversed":
        this.traverse(event, node, out);
        break;
      case "artifact.diff":
        recordDiff(state, event, node, out);
        break;
      case "verify.result":
        recordVerify(state, event, node, out);
        break;
      case "tool.called":
        recordToolCall(state, event, node, out);
        break;
      case "research.result":
        recordResearch(state, event, node);
        break;
      case "task.attempt":
        this.attempt(event, node, out);
        break;
      case "run.started":
      case "graph.declared":
        this.declare(event, node, out);
        break;
      case "human.decision":
        this.decide(event);
        break;
      default:
        // node.started, loop.halted (the runtime's own halt is not a finding),
        // run.completed and unknown types measure nothing.
        break;
    }
    if (out.length === 0) return NO_FINDINGS;
    const found = out.slice();
    sortFindingsAtEvent(found);
    for (const finding of found) {
      this.all.push(finding);
      if (finding.cycleId !== null) this.haltedCycles.add(finding.cycleId);
    }
    return found;
  }

  private traverse(event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
    const { from, to } = event;
    if (typeof from !== "string" || typeof to !== "string") return;
    const graph = this.state.graph;
    const source = graph.ensureNode(from);
    // A known edge's target exists already: one Map lookup fewer on the most frequent event.
    const known = source.out.get(to);
    const edge = known ?? graph.connect(source, graph.ensureNode(to));
    const added = known === undefined;
    edge.traversals++;
    if (added) {
      graph.recomputeCycles();
      checkAllCycles(this.state, event, node, edge, out);
    } else {
      const cycle = graph.cycleOfEdge(source, edge.to);
      if (cycle !== null && cycle.driver === edge.to) {
        cycle.iterations++;
        checkCycleIterations(this.state, event, node, edge, cycle, out);
      }
    }
    checkEdgeProgress(this.state, event, node, edge, out);
  }

  /**
   * `run.started` / `graph.declared`: `budgets` override the settings from
   * this position (invalid values are ignored field by field; `budgets` on a
   * `graph.declared` is honoured the same way), then the declared graph is
   * added.
   */
  private declare(event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
    const state = this.state;
    if (event.budgets !== undefined && event.budgets !== null) {
      Object.assign(state.config, readConfigFields(event.budgets).config);
    }
    if (state.graph.declare(event.graph)) {
      state.graph.recomputeCycles();
      checkAllCycles(state, event, node, null, out);
    }
  }

  private attempt(event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
    const taskId = event.taskId;
    if (typeof taskId !== "string") return;
    const state = this.state;
    const at = typeof event.ts === "string" ? parseInstant(event.ts) : Number.NaN;
    const match = this.tasks.record(taskId, at, event, state.config);
    if (match === null) return;
    const limit = state.config.maxAttempts;
    const key = taskKey(taskId, match.loopType);
    const index = this.taskFindings.get(key);
    const before = index === undefined ? null : this.all[index];
    // One finding per (task, loop type): later matches update its count and
    // recommendation but keep where it was made.
    const place = before === null ? state.placeFinding(event, node, null) : before;
    const placeNode = place.node === null ? null : (state.graph.nodes.get(place.node) ?? null);
    const evidence = state.buildEvidence(placeNode, match.count, limit);
    evidence.blockers = match.blockers;
    evidence.completedWork = match.completedWork;
    const finding = createTaskFinding(
      { node: place.node, edge: place.edge, cycleId: place.cycleId, atEventId: place.atEventId },
      taskId,
      match.loopType,
      match.recommendation,
      match.count,
      limit,
      evidence,
    );
    if (index === undefined) {
      // A task.attempt makes no other finding, so this one lands at all.length.
      this.taskFindings.set(key, this.all.length);
      out.push(finding);
    } else {
      this.all[index] = finding;
      this.updates.push(finding);
    }
  }

  /**
   * Loopscope's extension of `human.decision`: `budgetDelta` (setting key →
   * number) is added to the limit in force for this run from this position
   * on, and the findings of every setting raised are re-armed, so "resume
   * with +4 iterations" halts the same loop again only past the new limit.
   * Counts are not reset: a loop at 9/8 raised by 4 fires again at 13/12.
   */
  private decide(event: LoopEvent): void {
    for (const key of applyBudgetDelta(this.state.config, event.budgetDelta)) {
      // Task findings are keyed here; every other scope lives in the run state.
      if (key === "maxAttempts") this.taskFindings.clear();
      else rearmSetting(this.state, key);
    }
  }

  /** The cycles of the graph as it stands, ordered by their driver's appearance. */
  cycles(): CycleState[] {
    const limit = this.state.config.maxCycleIterations;
    return this.state.graph.cycles.map((cycle) => ({
      cycleId: cycle.id,
      nodes: cycle.nodeIds.slice(),
      edges: cycle.edgeKeys.slice(),
      driver: cycle.driver.id,
      iterations: cycle.iterations,
      limit,
      halted: this.haltedCycles.has(cycle.id),
    }));
  }

  /** Every node seen so far, in order of appearance. */
  nodes(): NodeState[] {
    return this.state.graph.order.map((node) => ({
      id: node.id,
      role: node.role,
      label: node.label,
      turns: node.turns,
      tokens: node.tokens,
      costUsd: node.costUsd,
      runtimeMs: node.runtimeMs,
    }));
  }
}

function taskKey(taskId: string, loopType: TaskLoopType): string {
  return `${loopType}\u0000${taskId}`;
}
