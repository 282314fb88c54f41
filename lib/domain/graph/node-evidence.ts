/**
 * Per-node loop evidence from a window of the node's events: its turns and
 * output hashes, diff hashes, failure signatures and failing-test counts,
 * research queries (repeats marked "no new information") and repeated tool
 * calls. Hashes come from the detector's own functions, so what the inspector
 * shows is what the detector compared. Server-side (node:crypto).
 */
import { getDiffHash, getOutputHash, summarizeFailure, toCanonicalJson } from "../protocol/hashes";
import { readFailingTests } from "./failing-tests";

/** The event types the inspector reads. */
export const EVIDENCE_EVENT_TYPES = ["node.completed", "artifact.diff", "verify.result", "research.result", "tool.called"] as const;

/** One event of the window: its id, instant and protocol fields. */
export interface EvidenceEvent {
  eventId: string;
  tsMs: number;
  type: string;
  fields: Record<string, unknown>;
}

export interface TurnItem {
  eventId: string;
  tsMs: number;
  turn: number | null;
  durationMs: number | null;
  tokens: number | null;
  costUsd: number | null;
  outputHash: string | null;
}

export interface HashItem {
  eventId: string;
  tsMs: number;
  hash: string;
}

export interface VerifyPoint {
  eventId: string;
  tsMs: number;
  command: string;
  passed: boolean;
  exitCode: number | null;
  /** Failing tests (0 when passed): the ids named, or the runner's count when it counts more; `null` with neither. */
  failingCount: number | null;
  failing: string[];
  failingSource: "failing" | "stderr" | null;
  signature: string | null;
  /** Signals the detector fired at this result. */
  fired: string[];
}

export interface ResearchItem {
  eventId: string;
  tsMs: number;
  query: string;
  quality: number | null;
  resultCount: number | null;
  resultsHash: string | null;
  /** The same (query, resultsHash) came back earlier in the window. */
  noNewInformation: boolean;
}

export interface ToolRepeat {
  tool: string;
  /** Canonical JSON of the args, cut to 200 characters. */
  args: string;
  outputHash: string | null;
  count: number;
  /** Longest run of this exact call in a row (what `repeated_tool_call` counts). */
  longestStreak: number;
  lastEventId: string;
}

export interface NodeEvidence {
  turns: TurnItem[];
  outputHashes: HashItem[];
  diffHashes: HashItem[];
  failureSignatures: HashItem[];
  verify: VerifyPoint[];
  research: ResearchItem[];
  /** Calls made more than once, most repeated first. */
  toolRepeats: ToolRepeat[];
  toolCalls: number;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/**
 * Extracts a node's evidence from its events (oldest first). `firedAt` maps
 * an event id to the signals the detector fired there, to mark the points
 * of the failing-test trend where it fired.
 *
 * @example extractNodeEvidence(events, new Map([["evt_000023", ["repeated_failure"]]])).verify.at(-1)?.fired // ["repeated_failure"]
 */
export function extractNodeEvidence(events: readonly EvidenceEvent[], firedAt: ReadonlyMap<string, readonly string[]>): NodeEvidence {
  const out: NodeEvidence = { turns: [], outputHashes: [], diffHashes: [], failureSignatures: [], verify: [], research: [], toolRepeats: [], toolCalls: 0 };
  const seenResearch = new Set<string>();
  const tools = new Map<string, ToolRepeat>();
  let lastToolKey: string | null = null;
  let streak = 0;
  for (const { eventId, tsMs, type, fields: f } of events) {
    switch (type) {
      case "node.completed": {
        const outputHash = getOutputHash(f);
        out.turns.push({ eventId, tsMs, turn: num(f.turn), durationMs: num(f.durationMs), tokens: num(f.tokens), costUsd: num(f.costUsd), outputHash });
        if (outputHash !== null) out.outputHashes.push({ eventId, tsMs, hash: outputHash });
        break;
      }
      case "artifact.diff": {
        const hash = getDiffHash(f);
        if (hash !== null) out.diffHashes.push({ eventId, tsMs, hash });
        break;
      }
      case "verify.result": {
        const passed = f.passed === true;
        const failure = summarizeFailure(f);
        const signature = failure?.signature ?? null;
        const tests = readFailingTests(f);
        // The runner's own count (a summary whose ids were cut off) counts as the detector counts it.
        const counted = failure?.failingCount ?? null;
        if (signature !== null) out.failureSignatures.push({ eventId, tsMs, hash: signature });
        out.verify.push({
          eventId, tsMs, command: str(f.command) ?? "", passed, exitCode: num(f.exitCode),
          failingCount: tests.ids === null ? counted : Math.max(tests.ids.length, counted ?? 0), failing: tests.ids ?? [], failingSource: tests.source,
          signature, fired: [...(firedAt.get(eventId) ?? [])],
        });
        break;
      }
      case "research.result": {
        const query = str(f.query) ?? "";
        const resultsHash = str(f.resultsHash);
        const key = `${query}\u0000${resultsHash ?? ""}\u0000${resultsHash === null ? "0" : "1"}`;
        out.research.push({ eventId, tsMs, query, quality: num(f.quality), resultCount: num(f.resultCount), resultsHash, noNewInformation: seenResearch.has(key) });
        seenResearch.add(key);
        break;
      }
      case "tool.called": {
        out.toolCalls++;
        const tool = str(f.tool) ?? "?";
        const args = f.args === undefined || f.args === null ? "" : toCanonicalJson(f.args);
        const outputHash = str(f.outputHash);
        const key = `${tool}\u0000${args}\u0000${outputHash ?? ""}`;
        streak = key === lastToolKey ? streak + 1 : 1;
        lastToolKey = key;
        const entry = tools.get(key) ?? { tool, args: args.length > 200 ? `${args.slice(0, 199)}…` : args, outputHash, count: 0, longestStreak: 0, lastEventId: eventId };
        entry.count++;
        entry.longestStreak = Math.max(entry.longestStreak, streak);
        entry.lastEventId = eventId;
        tools.set(key, entry);
        break;
      }
    }
  }
  out.toolRepeats = [...tools.values()].filter((t) => t.count > 1).sort((a, b) => b.count - a.count || b.longestStreak - a.longestStreak);
  return out;
}
