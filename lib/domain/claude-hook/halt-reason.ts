/**
 * The words a halted agent reads: which loop Loopscope stopped, its evidence,
 * and that it must stop and wait for a person.
 */
import { explainFinding } from "../graph/explain-finding";
import type { ControlHalt } from "../../client/types";
import type { LoopEvent } from "../protocol/types";

/** The halt a run waits on, as far as the hook knows it: the control state's `halt`, or what its key says. */
export type HaltDetails = ControlHalt;

/**
 * Reads a halt key of the control API: `detector:<signal>|<node>|<edge>|<taskId>|<loopType>|<atEventId>`,
 * `runtime:<event id>` or `paused:<event id>`.
 *
 * @example parseHaltKey("detector:repeated_failure|main||||e1:0:verify").signal // "repeated_failure"
 */
export function parseHaltKey(key: string, haltReason: string | null = null): HaltDetails {
  const colon = key.indexOf(":");
  const source = colon < 0 ? key : key.slice(0, colon);
  const rest = colon < 0 ? "" : key.slice(colon + 1);
  const base = { haltReason, signal: null, node: null, edge: null, count: null, limit: null, atEventId: rest || null, evidence: null };
  if (source !== "detector") return { ...base, source: source === "paused" ? "pause" : source };
  const parts = rest.split("|");
  if (parts.length < 6) return { ...base, source };
  const [signal, node, edge] = parts;
  return { ...base, source, signal: signal || null, node: node || null, edge: edge || null, atEventId: parts.slice(5).join("|") || null };
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

function readNumbers(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === "number") : [];
}

function readStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The first non-blank lines of a command's output, each cut short (a line may be a whole dependency list). */
function firstOutputLines(text: string, lines: number, max: number): string {
  const kept = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "").slice(0, lines);
  return cut(kept.map((l) => cut(l, 100)).join(" / "), max);
}

/**
 * What the evidence shows, in a sentence or two: the repeated command and
 * its failure, the repeated hash, the blockers. Uses the event the halt fired
 * at when the hook has it (it maps the same transcript).
 */
export function summarizeEvidence(halt: HaltDetails, atEvent: LoopEvent | null): string {
  const parts: string[] = [];
  const evidence = (typeof halt.evidence === "object" && halt.evidence !== null ? halt.evidence : {}) as Record<string, unknown>;
  const e = (atEvent ?? {}) as Record<string, unknown>;
  if (atEvent?.type === "verify.result") {
    const command = typeof e.command === "string" ? `\`${cut(oneLine(e.command), 100)}\`` : "a verification";
    const exit = typeof e.exitCode === "number" ? ` (exit ${e.exitCode})` : "";
    parts.push(`${command} ${e.passed === false ? "failed" : "ran"}${exit}`);
    const failing = readStrings(e.failing);
    if (failing.length > 0) parts.push(`failing: ${cut(failing.slice(0, 5).join(", "), 200)}${failing.length > 5 ? ` and ${failing.length - 5} more` : ""}`);
    if (typeof e.stderr === "string" && e.stderr.trim() !== "") parts.push(`output: ${firstOutputLines(e.stderr, 3, 240)}`);
  } else if (atEvent?.type === "tool.called" && typeof e.tool === "string") {
    parts.push(`the call: ${e.tool} ${cut(oneLine(JSON.stringify(e.args ?? {})), 160)}`);
  }
  const signatures = readStrings(evidence.failureSignatures);
  if (signatures.length > 0 && /failure/.test(halt.signal ?? "")) {
    const last = signatures[signatures.length - 1];
    const same = signatures.filter((s) => s === last).length;
    parts.push(`failure signature ${last.slice(0, 12)} is ${same} of the last ${signatures.length} failures`);
  }
  const failingCounts = readNumbers(evidence.failingCounts);
  if (failingCounts.length > 0 && halt.signal === "failing_not_decreasing") parts.push(`failing tests per run: ${failingCounts.join(", ")}`);
  const blockers = readStrings(evidence.blockers);
  if (blockers.length > 0) parts.push(`blockers: ${cut(blockers.join("; "), 200)}`);
  const queries = readStrings(evidence.queries);
  if (queries.length > 0) parts.push(`queries without new information: ${cut(queries.map((q) => `"${q}"`).join(", "), 200)}`);
  return parts.join("; ");
}

export interface HaltContext {
  /** The run page, where a person decides. */
  runUrl: string;
  atEvent: LoopEvent | null;
}

/**
 * The reason a denied tool call gives the agent: the loop (signal, node,
 * count of at most limit), its evidence, and the instruction to stop and wait.
 */
export function describeHalt(halt: HaltDetails, ctx: HaltContext): string {
  const what =
    halt.source === "pause"
      ? "A person paused this session in Loopscope."
      : `Loopscope halted this session: ${halt.signal ?? halt.haltReason ?? "a loop"}${halt.node ? ` on node ${halt.node}` : ""}${
          halt.count !== null && halt.limit !== null ? ` (${halt.count} of at most ${halt.limit})` : ""
        }${halt.signal && halt.haltReason ? `, ${halt.haltReason.replace(/_/g, " ")}` : ""}${halt.atEventId ? `, at event ${halt.atEventId}` : ""}.`;
  const sentence =
    halt.source === "detector" && halt.count !== null
      ? explainFinding({
          id: 0, source: "detector", loopType: null, haltReason: halt.haltReason ?? "", signal: halt.signal, node: halt.node, edge: halt.edge,
          cycleId: null, taskId: null, recommendation: null, count: halt.count, limit: halt.limit, atEventId: halt.atEventId ?? "",
        })
      : "";
  const evidence = summarizeEvidence(halt, ctx.atEvent);
  return [
    what,
    sentence,
    evidence ? `Evidence: ${evidence}.` : "",
    `Stop here and wait for a person: do not retry, work around or undo this. They decide in Loopscope (${ctx.runUrl}); the next tool call tells you their decision.`,
  ]
    .filter(Boolean)
    .join(" ");
}
