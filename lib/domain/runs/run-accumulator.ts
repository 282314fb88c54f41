import cloneDeep from "lodash/cloneDeep";
import type { LoopEvent, SourceFormat } from "../protocol/types";
import type { RunFactFields } from "../formats/types";
import { RunDetector, type DetectorConfig, type Finding } from "../detector";
import type { RunStatus } from "./run-status";
import { GraphTotals } from "./graph-totals";

export type { EdgeTotals, NodeTotals } from "./graph-totals";

export interface RunSummary {
  runId: string;
  format: SourceFormat;
  title: string | null;
  ticketId: string | null;
  profile: string | null;
  status: RunStatus;
  terminalStatus: string | null;
  stopReason: string | null;
  haltReason: string | null;
  haltSignal: string | null;
  startedAt: number | null;
  endedAt: number | null;
  lastEventAt: number | null;
  durationMs: number | null;
  steps: number;
  tokens: number;
  costUsd: number;
  eventCount: number;
  findingCount: number;
  loopIterations: number | null;
  loopLimit: number | null;
}

/** A runtime's own `loop.halted`, kept beside the detector's findings. */
export interface RuntimeHalt {
  eventId: string;
  tsMs: number;
  haltReason: string;
  node: string | null;
  cycleId: string | null;
  evidence: unknown;
  suggestedActions: string[];
}

// A Map, not an object: the status is whatever string the runtime sent (`__proto__` included).
const ENDING_RUN_STATUS = new Map<string, RunStatus>([["completed", "done"], ["stopped", "stopped"], ["failed", "failed"]]);

function firstLine(text: string, max: number): string {
  const line = text.trim().split("\n", 1)[0];
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/**
 * Folds one run's events (in order: ts instant, then arrival) and report facts
 * into what the history and the graph need: the run's summary, node and edge
 * totals, the detector's findings (live, through the streaming detector) and
 * the runtime's own halts. Pure: the ingest path keeps one per run and writes
 * what changed.
 */
export class RunAccumulator {
  readonly runId: string;
  private readonly s: RunSummary;
  private readonly detector: RunDetector;
  /** The run's nodes and edges with their totals. */
  readonly graph = new GraphTotals();
  private readonly halts: RuntimeHalt[] = [];
  private runtimeStatus: string | null = null;
  private decidedAfterHalt = false;
  /** A person decided after the runtime's last status report (a decision answers a pause too). */
  private decidedAfterStatus = false;
  private nodeCompleted = 0;
  private factSteps: number | null = null;
  private factDuration: number | null = null;
  private factTokens = 0;
  private eventTokens = 0;
  private lastTs = -Infinity;
  private factsApplied = false;
  /** The run's events carry made-up times (`run.started.syntheticClock`): their span is no duration. */
  private clockless = false;

  constructor(runId: string, format: SourceFormat, config?: Partial<DetectorConfig>) {
    this.runId = runId;
    this.detector = new RunDetector(config);
    this.s = {
      runId, format, title: null, ticketId: null, profile: null, status: "running", terminalStatus: null,
      stopReason: null, haltReason: null, haltSignal: null, startedAt: null, endedAt: null, lastEventAt: null,
      durationMs: null, steps: 0, tokens: 0, costUsd: 0, eventCount: 0, findingCount: 0,
      loopIterations: null, loopLimit: null,
    };
  }

  /** The ts instant of the last event applied: a later event older than this needs a rebuild. */
  get lastTsMs(): number {
    return this.lastTs;
  }

  /** Events applied so far. */
  get eventCount(): number {
    return this.s.eventCount;
  }

  /** Whether report facts were merged in: such a state is no longer a function of the events alone. */
  get hasFacts(): boolean {
    return this.factsApplied;
  }

  /**
   * An independent deep copy (detector state, graph totals, findings): a
   * checkpoint that a late event can restart from instead of replaying the run.
   */
  snapshot(): RunAccumulator {
    return cloneDeep(this);
  }

  /** Applies the next event of the run; returns the detector findings it triggered. */
  applyEvent(event: LoopEvent, tsMs: number): Finding[] {
    const s = this.s;
    s.eventCount++;
    if (tsMs > this.lastTs) this.lastTs = tsMs;
    if (s.startedAt === null || tsMs < s.startedAt) s.startedAt = tsMs;
    if (s.lastEventAt === null || tsMs > s.lastEventAt) s.lastEventAt = tsMs;
    if (typeof event.node === "string") this.graph.touchNode(event.node);
    this.applyTyped(event, tsMs);
    const found = this.detector.feed(event);
    if (found.length > 0) {
      s.findingCount = this.detector.findings.length + this.halts.length;
      // The latest halt is the one a person answers (and the one the page explains).
      s.haltReason = found[0].haltReason;
      s.haltSignal = found[0].signal;
      this.decidedAfterHalt = false;
    }
    this.refreshLoopBadge();
    this.refreshStatus();
    return found;
  }

  private applyTyped(event: LoopEvent, tsMs: number): void {
    const s = this.s;
    const e = event as Record<string, unknown>;
    switch (event.type) {
      case "run.started": {
        // A transcript without times (SWE-agent) or with one (Aider's session start): events are placed, not timed.
        if (e.syntheticClock === true) this.clockless = true;
        s.title = str(e.title) ?? s.title;
        s.ticketId = str(e.ticketId) ?? s.ticketId;
        s.profile = str(e.profile) ?? s.profile;
        this.graph.declare(e.graph);
        break;
      }
      case "graph.declared":
        this.graph.declare(e.graph);
        break;
      case "message.user": {
        // A graph-workflow run has no title; its first user message says what it is for.
        const content = (e.message as { content?: unknown } | undefined)?.content;
        if (s.title === null && typeof content === "string" && content.trim()) s.title = firstLine(content, 120);
        break;
      }
      case "node.completed": {
        this.nodeCompleted++;
        const n = this.graph.touchNode(event.node as string);
        n.turns++;
        n.tokens += num(e.tokens);
        n.costUsd += num(e.costUsd);
        n.runtimeMs += num(e.durationMs);
        this.eventTokens += num(e.tokens);
        s.costUsd += num(e.costUsd);
        break;
      }
      case "llm.completed":
        this.eventTokens += num(e.tokens);
        break;
      case "edge.traversed": {
        const edge = this.graph.touchEdge(e.from as string, e.to as string, false);
        edge.traversals++;
        break;
      }
      case "loop.halted": {
        this.halts.push({
          eventId: event.id,
          tsMs,
          haltReason: String(e.haltReason),
          node: str(e.node),
          cycleId: str(e.cycleId),
          evidence: e.evidence ?? null,
          suggestedActions: Array.isArray(e.suggestedActions) ? e.suggestedActions.map(String) : [],
        });
        s.findingCount = this.detector.findings.length + this.halts.length;
        s.haltReason = String(e.haltReason);
        s.haltSignal = "runtime";
        this.decidedAfterHalt = false;
        break;
      }
      case "human.decision":
        this.decidedAfterHalt = true;
        this.decidedAfterStatus = true;
        break;
      case "run.completed":
        s.terminalStatus = str(e.terminalStatus);
        s.stopReason = str(e.stopReason) ?? s.stopReason;
        s.endedAt = tsMs;
        break;
      case "run.status": {
        this.runtimeStatus = str(e.status);
        this.decidedAfterStatus = false;
        if (typeof e.continuedIn === "string") s.stopReason ??= `Resumed after approval as run ${e.continuedIn}`;
        if (this.runtimeStatus && ENDING_RUN_STATUS.has(this.runtimeStatus)) s.endedAt = tsMs;
        break;
      }
    }
    s.steps = this.factSteps ?? this.nodeCompleted;
    s.tokens = Math.max(this.eventTokens, this.factTokens);
    this.refreshDuration();
  }

  /** Merges facts a report states about the run (SDD run reports, retrospectives). */
  applyFacts(facts: RunFactFields): void {
    this.factsApplied = true;
    const s = this.s;
    s.title = facts.title ?? s.title;
    s.ticketId = facts.ticketId ?? s.ticketId;
    s.profile = facts.profile ?? s.profile;
    if (facts.terminalStatus) s.terminalStatus = facts.terminalStatus;
    s.stopReason = facts.stopReason ?? s.stopReason;
    if (facts.steps !== undefined) this.factSteps = facts.steps;
    if (facts.durationMs !== undefined) this.factDuration = facts.durationMs;
    if (facts.tokens !== undefined) this.factTokens = facts.tokens;
    const ended = facts.endedAt ? Date.parse(facts.endedAt) : NaN;
    if (Number.isFinite(ended)) {
      s.endedAt = ended;
      const started = facts.durationMs !== undefined ? ended - facts.durationMs : NaN;
      if (Number.isFinite(started) && (s.startedAt === null || started < s.startedAt)) s.startedAt = started;
    }
    s.steps = this.factSteps ?? this.nodeCompleted;
    s.tokens = Math.max(this.eventTokens, this.factTokens);
    this.refreshDuration();
    this.refreshStatus();
  }

  private refreshDuration(): void {
    const s = this.s;
    if (this.factDuration !== null) s.durationMs = this.factDuration;
    else if (this.clockless) s.durationMs = null;
    else if (s.startedAt !== null) s.durationMs = Math.max(0, (s.endedAt ?? s.lastEventAt ?? s.startedAt) - s.startedAt);
  }

  private refreshStatus(): void {
    const s = this.s;
    const ending = this.runtimeStatus ? ENDING_RUN_STATUS.get(this.runtimeStatus) : undefined;
    if (s.terminalStatus) s.status = "done";
    else if (ending) s.status = ending;
    else if (s.findingCount > 0 && !this.decidedAfterHalt) s.status = "halted";
    else if (this.runtimeStatus === "paused" && !this.decidedAfterStatus) s.status = "paused";
    else s.status = "running";
  }

  private refreshLoopBadge(): void {
    let worst: { iterations: number; limit: number } | null = null;
    for (const c of this.detector.cycles()) {
      if (!worst || c.iterations / Math.max(1, c.limit) > worst.iterations / Math.max(1, worst.limit)) worst = c;
    }
    this.s.loopIterations = worst ? worst.iterations : null;
    this.s.loopLimit = worst ? worst.limit : null;
  }

  summary(): RunSummary {
    return { ...this.s };
  }
  findings(): readonly Finding[] {
    return this.detector.findings;
  }
  /** Task-attempt findings the last event updated (their count and recommendation move on). */
  updatedFindings(): readonly Finding[] {
    return this.detector.lastUpdated;
  }
  runtimeHalts(): readonly RuntimeHalt[] {
    return this.halts;
  }
}
