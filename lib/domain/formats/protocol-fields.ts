/**
 * The per-type fields of the protocol table (`event-protocol.md`, "Types") as
 * data, and the hand-written checks of their JSON types. Enum values are not
 * checked (`detector.md`, "Validation"), so `status`, `haltReason` and friends
 * are plain strings here.
 */
import { describeJsonType, isJsonObject } from "./json-line";

export type FieldKind =
  | "string"
  | "number"
  | "boolean"
  | "object"
  | "string[]"
  | "any"
  | "graph"
  | "output";

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  required: boolean;
}

function req(name: string, kind: FieldKind): FieldSpec {
  return { name, kind, required: true };
}
function opt(name: string, kind: FieldKind): FieldSpec {
  return { name, kind, required: false };
}

/**
 * Fields of each known type; an optional `node` is checked with the envelope.
 * A Map, not an object literal: a type named `constructor` or `__proto__` is
 * an unknown type, not a lookup into `Object.prototype`.
 */
export const TYPE_FIELDS: ReadonlyMap<string, readonly FieldSpec[]> = new Map(Object.entries({
  "run.started": [
    opt("title", "string"),
    opt("ticketId", "string"),
    opt("profile", "string"),
    opt("graph", "graph"),
    opt("budgets", "object"),
  ],
  "node.started": [req("node", "string"), opt("turn", "number")],
  "node.completed": [
    req("node", "string"),
    opt("turn", "number"),
    opt("durationMs", "number"),
    opt("tokens", "number"),
    opt("costUsd", "number"),
    opt("output", "output"),
    opt("outputHash", "string"),
  ],
  "edge.traversed": [req("from", "string"), req("to", "string"), opt("reason", "string"), opt("payload", "any")],
  "artifact.diff": [opt("patch", "string"), opt("diffHash", "string"), opt("files", "string[]")],
  "verify.result": [
    req("command", "string"),
    req("passed", "boolean"),
    opt("exitCode", "number"),
    opt("failing", "string[]"),
    opt("stderr", "string"),
  ],
  "tool.called": [req("tool", "string"), opt("args", "any"), opt("ok", "boolean"), opt("outputHash", "string")],
  "research.result": [
    req("query", "string"),
    opt("quality", "number"),
    opt("resultsHash", "string"),
    opt("resultCount", "number"),
  ],
  "task.attempt": [
    req("taskId", "string"),
    req("status", "string"),
    req("blockers", "string[]"),
    req("completedWork", "string[]"),
    opt("sessionId", "string"),
  ],
  "loop.halted": [
    opt("cycleId", "string"),
    req("haltReason", "string"),
    opt("evidence", "any"),
    opt("suggestedActions", "string[]"),
    opt("source", "string"),
  ],
  "run.completed": [req("terminalStatus", "string"), opt("stopReason", "string")],
  "human.decision": [
    req("action", "string"),
    opt("directive", "string"),
    opt("budgetDelta", "object"),
    opt("by", "string"),
  ],
  "graph.declared": [req("graph", "graph")],
}));

/** Checks one present, non-null field; returns the problem, or null when it is fine. */
export function checkField(name: string, kind: FieldKind, value: unknown): string | null {
  switch (kind) {
    case "any":
      return null;
    case "string":
    case "number":
    case "boolean":
      return checkScalar(name, kind, value);
    case "object":
      return isJsonObject(value) ? null : mustBe(name, "an object", value);
    case "string[]":
      return checkStringArray(name, value);
    case "output":
      return checkOutput(name, value);
    case "graph":
      return checkGraph(name, value);
  }
}

/** Token counts are stored as 32-bit integers on PostgreSQL: one event's count must fit with room to add. */
export const MAX_EVENT_TOKENS = 1_000_000_000;

function checkScalar(name: string, kind: "string" | "number" | "boolean", value: unknown): string | null {
  if (kind === "number") {
    if (typeof value !== "number") return mustBe(name, "a number", value);
    // JSON's 1e309 parses to Infinity: say so rather than "must be a number (got number)".
    if (!Number.isFinite(value)) return `field "${name}" must be a finite number (got ${value})`;
    if (name === "tokens" && (!Number.isInteger(value) || value < 0 || value > MAX_EVENT_TOKENS)) {
      return `field "tokens" must be a whole number from 0 to ${MAX_EVENT_TOKENS.toLocaleString("en-US")} (got ${value})`;
    }
    return null;
  }
  if (typeof value === kind) return null;
  return mustBe(name, kind === "string" ? "a string" : "a boolean", value);
}

function checkStringArray(name: string, value: unknown): string | null {
  if (!Array.isArray(value)) return mustBe(name, "an array of strings", value);
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== "string") return mustBe(`${name}[${i}]`, "a string", value[i]);
  }
  return null;
}

function checkOutput(name: string, value: unknown): string | null {
  if (!isJsonObject(value)) return mustBe(name, "an object", value);
  const final = value.final;
  if (final !== undefined && final !== null && typeof final !== "string") {
    return mustBe(`${name}.final`, "a string", final);
  }
  return null;
}

function checkGraph(name: string, value: unknown): string | null {
  if (!isJsonObject(value)) return mustBe(name, "an object", value);
  const { nodes, edges } = value;
  if (nodes !== undefined && nodes !== null) {
    if (!Array.isArray(nodes)) return mustBe(`${name}.nodes`, "an array", nodes);
    for (let i = 0; i < nodes.length; i++) {
      const problem = checkGraphNode(`${name}.nodes[${i}]`, nodes[i]);
      if (problem) return problem;
    }
  }
  if (edges !== undefined && edges !== null) {
    if (!Array.isArray(edges)) return mustBe(`${name}.edges`, "an array", edges);
    for (let i = 0; i < edges.length; i++) {
      const problem = checkGraphEdge(`${name}.edges[${i}]`, edges[i]);
      if (problem) return problem;
    }
  }
  return null;
}

function checkGraphNode(name: string, node: unknown): string | null {
  if (!isJsonObject(node)) return mustBe(name, "an object", node);
  if (typeof node.id !== "string") return mustBe(`${name}.id`, "a string", node.id);
  for (const key of ["label", "role"] as const) {
    const v = node[key];
    if (v !== undefined && v !== null && typeof v !== "string") return mustBe(`${name}.${key}`, "a string", v);
  }
  return null;
}

function checkGraphEdge(name: string, edge: unknown): string | null {
  if (!isJsonObject(edge)) return mustBe(name, "an object", edge);
  if (typeof edge.from !== "string") return mustBe(`${name}.from`, "a string", edge.from);
  if (typeof edge.to !== "string") return mustBe(`${name}.to`, "a string", edge.to);
  return null;
}

/** `field "passed" must be a boolean (got string)` */
export function mustBe(name: string, what: string, value: unknown): string {
  return `field "${name}" must be ${what} (got ${describeJsonType(value)})`;
}
