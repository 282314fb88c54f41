/**
 * Readers of the parts of a run export (`loopscope-export.ts`) that are not
 * events: the run's facts and the people's decisions. Each checks types
 * field by field; a wrong field is reported with its path
 * (`run.facts.budgets[2].used`) and left out, and the rest is kept.
 */
import type { ImportedDecision, RunFactFields } from "./types";
import { describeJsonType, isJsonObject } from "./json-line";

/** Collects the problems of one document, each naming its path. */
export type Problems = string[];

const STRING_FACTS = [
  "title", "ticketId", "ticketPath", "ticketStatus", "commitHash", "profile", "reportStatus", "terminalStatus",
  "stopReason", "error", "startedAt", "endedAt", "markdown",
] as const;
const NUMBER_FACTS = ["durationMs", "tokens", "steps", "toolCalls", "llmCalls"] as const;

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isOptionalString = (v: unknown) => v === undefined || typeof v === "string";

/** A wrong value's message: `run.facts.steps must be a number (got string)`. */
export function mustBe(path: string, what: string, value: unknown): string {
  return `${path} must be ${what} (got ${describeJsonType(value)})`;
}

/**
 * Facts as stored with the run (`RunFactFields`). Keys this Loopscope does not
 * know are kept as they are (a newer Loopscope's facts); known keys of the
 * wrong type are dropped.
 */
export function readRunFacts(value: unknown, path: string, problems: Problems): RunFactFields | null {
  if (value === null || value === undefined) return null;
  if (!isJsonObject(value)) {
    problems.push(mustBe(path, "an object or null", value));
    return null;
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const problem = checkFact(key, v, `${path}.${key}`);
    if (problem === null) out[key] = v;
    else problems.push(problem);
  }
  return out as RunFactFields;
}

function checkFact(key: string, v: unknown, path: string): string | null {
  if (key === "__proto__" || key === "constructor") return `${path} is not a field of run facts`;
  if ((STRING_FACTS as readonly string[]).includes(key)) return typeof v === "string" ? null : mustBe(path, "a string", v);
  if ((NUMBER_FACTS as readonly string[]).includes(key)) return isNumber(v) ? null : mustBe(path, "a number", v);
  if (key === "document") return v === "report" || v === "retrospective" ? null : `${path} must be "report" or "retrospective"`;
  if (key === "phases" || key === "filesChanged") return checkList(v, path, (x) => typeof x === "string", "a string");
  if (key === "budgets") {
    return checkList(v, path, (b) => isJsonObject(b) && typeof b.name === "string" && isNumber(b.used) && (b.max === null || isNumber(b.max)),
      "{ name, used, max }");
  }
  if (key === "repeatedCommands") return checkList(v, path, (c) => isJsonObject(c) && typeof c.command === "string" && isNumber(c.count), "{ command, count }");
  if (key === "diagnostics") {
    return checkList(v, path, (d) => isJsonObject(d) && typeof d.source === "string" && typeof d.location === "string" && isNumber(d.count)
      && isOptionalString(d.lastSeen) && isOptionalString(d.message), "{ source, location, count }");
  }
  if (key === "extra") {
    if (!isJsonObject(v)) return mustBe(path, "an object", v);
    const bad = Object.entries(v).find(([, x]) => typeof x !== "string");
    return bad ? mustBe(`${path}.${bad[0]}`, "a string", bad[1]) : null;
  }
  return null;
}

function checkList(v: unknown, path: string, ok: (item: unknown) => boolean, what: string): string | null {
  if (!Array.isArray(v)) return mustBe(path, "an array", v);
  const bad = v.findIndex((item) => !ok(item));
  return bad === -1 ? null : `${path}[${bad}] must be ${what}`;
}

/** One decision; null (with the problem) when a field is wrong: a decision is stored whole or not at all. */
export function readDecision(value: unknown, path: string, problems: Problems): ImportedDecision | null {
  if (!isJsonObject(value)) {
    problems.push(mustBe(path, "an object", value));
    return null;
  }
  const text = (key: string, max: number) => typeof value[key] === "string" && value[key] !== "" && (value[key] as string).length <= max;
  const nullableText = (key: string) => value[key] === null || value[key] === undefined || typeof value[key] === "string";
  const nullableInstant = (key: string) => value[key] === null || value[key] === undefined || isNumber(value[key]);
  const checks: [boolean, string][] = [
    [text("id", 200), "id must be a text of 1–200 characters"],
    [text("haltKey", 1000), "haltKey must be a text of 1–1000 characters"],
    [text("action", 100), "action must be a text of 1–100 characters"],
    [text("by", 1000), "by must be a text of 1–1000 characters"],
    [text("eventId", 400), "eventId must be a text of 1–400 characters"],
    [isNumber(value.createdAt), "createdAt must be a number (epoch ms)"],
    [nullableText("directive"), "directive must be a string or null"],
    [nullableText("provider"), "provider must be a string or null"],
    [value.budgetDelta === null || value.budgetDelta === undefined || isJsonObject(value.budgetDelta), "budgetDelta must be an object or null"],
    [nullableInstant("deliveredAt"), "deliveredAt must be a number or null"],
    [nullableInstant("ackedAt"), "ackedAt must be a number or null"],
  ];
  const failed = checks.find(([ok]) => !ok);
  if (failed) {
    problems.push(`${path}.${failed[1]}`);
    return null;
  }
  const orNull = <T>(v: unknown) => (v === undefined ? null : (v as T));
  return {
    id: value.id as string, haltKey: value.haltKey as string, action: value.action as string, by: value.by as string,
    eventId: value.eventId as string, createdAt: value.createdAt as number,
    directive: orNull<string | null>(value.directive), provider: orNull<string | null>(value.provider),
    budgetDelta: orNull<Record<string, unknown> | null>(value.budgetDelta),
    deliveredAt: orNull<number | null>(value.deliveredAt), ackedAt: orNull<number | null>(value.ackedAt),
  };
}
