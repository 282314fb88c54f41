/**
 * The agents of one trace: which `invoke_agent` span each span ran under, and
 * the graph node each agent is. Parent links decide; a span whose chain of
 * parents leaves the spans at hand (ADK's intermediate spans are not dumped;
 * an OTLP batch holds only the spans that ended meanwhile) is placed under
 * the innermost agent span whose time range contains it.
 */
import { readNodeId } from "./foreign-envelope";
import { MAIN_NODE } from "./agent-budgets";
import { readOperation, readText, type GenAiOperation } from "./otel-genai-attributes";
import type { GenAiSpan } from "./otel-genai-span";

/** A span with what the mapper reads of it. */
export interface TraceSpan {
  span: GenAiSpan;
  /** The GenAI operation it records, or null for a span that is only a link in the tree. */
  kind: GenAiOperation | null;
  /** `gen_ai.operation.name` (or the span name's first word): the events' `sourceType`. */
  operation: string;
}

/** The spans of one trace (one run), indexed by span id. */
export class TraceTree {
  readonly spans: TraceSpan[] = [];
  private readonly byId = new Map<string, TraceSpan>();
  private readonly agentCache = new Map<string, TraceSpan | null>();

  constructor(readonly traceId: string) {}

  /** Adds a span; a second span with the same id is left out (its events would repeat the first's ids). */
  add(span: GenAiSpan): boolean {
    if (this.byId.has(span.spanId)) return false;
    const operation = readOperation(span);
    const entry: TraceSpan = { span, kind: operation?.kind ?? null, operation: operation?.name ?? (span.name.split(" ", 1)[0] || "span") };
    this.spans.push(entry);
    this.byId.set(span.spanId, entry);
    return true;
  }

  /** True when some span records a GenAI operation: a trace of only HTTP spans is no run. */
  hasGenAiSpans(): boolean {
    return this.spans.some((s) => s.kind !== null);
  }

  /** The agent span a span ran under (not itself), or null. */
  agentOf(entry: TraceSpan): TraceSpan | null {
    const cached = this.agentCache.get(entry.span.spanId);
    if (cached !== undefined) return cached;
    const agent = this.findAgent(entry);
    this.agentCache.set(entry.span.spanId, agent);
    return agent;
  }

  /** The graph node of a span: its own for an agent span, its agent's for the others. */
  nodeOf(entry: TraceSpan): string {
    const agent = entry.kind === "agent" ? entry : this.agentOf(entry);
    if (agent === null || this.agentOf(agent) === null) return MAIN_NODE;
    return readNodeId(readText(agent.span, "gen_ai.agent.name")) ?? `agent-${agent.span.spanId}`;
  }

  /** Agent spans that no other agent span is above: the run's main agent (usually one). */
  mainAgents(): TraceSpan[] {
    return this.spans.filter((s) => s.kind === "agent" && this.agentOf(s) === null);
  }

  /** Spans that name no parent: the trace's root (present once the whole trace has ended). */
  roots(): TraceSpan[] {
    return this.spans.filter((s) => s.span.parentSpanId === null);
  }

  private findAgent(entry: TraceSpan): TraceSpan | null {
    // The links passed, made only past the first (usually an agent, or a span not at hand).
    let seen: Set<string> | undefined;
    let parentId = entry.span.parentSpanId;
    while (parentId !== null && parentId !== entry.span.spanId && seen?.has(parentId) !== true) {
      const parent = this.byId.get(parentId);
      if (parent === undefined) return this.findEnclosingAgent(entry);
      if (parent.kind === "agent") return parent;
      (seen ??= new Set<string>()).add(parentId);
      parentId = parent.span.parentSpanId;
    }
    // The whole chain is at hand and holds no agent (or loops back on itself): nothing is above.
    return null;
  }

  /** The innermost other agent span whose time range holds `entry`'s (latest start, then earliest end). */
  private findEnclosingAgent(entry: TraceSpan): TraceSpan | null {
    const { startMs, endMs, spanId } = entry.span;
    let best: TraceSpan | null = null;
    for (const candidate of this.spans) {
      const c = candidate.span;
      if (candidate.kind !== "agent" || c.spanId === spanId || c.startMs > startMs || c.endMs < endMs) continue;
      // An agent span that is itself under `entry` cannot enclose it (equal ranges).
      if (this.isAncestor(entry, candidate)) continue;
      const b = best?.span;
      if (b === undefined || c.startMs > b.startMs || (c.startMs === b.startMs && c.endMs < b.endMs)) best = candidate;
    }
    return best;
  }

  /** True when `ancestor` is on `entry`'s chain of parents as far as the spans at hand show it. */
  private isAncestor(ancestor: TraceSpan, entry: TraceSpan): boolean {
    let seen: Set<string> | undefined;
    let parentId = entry.span.parentSpanId;
    while (parentId !== null && seen?.has(parentId) !== true) {
      if (parentId === ancestor.span.spanId) return true;
      const parent = this.byId.get(parentId);
      if (parent === undefined) return false;
      (seen ??= new Set<string>()).add(parentId);
      parentId = parent.span.parentSpanId;
    }
    return false;
  }
}
