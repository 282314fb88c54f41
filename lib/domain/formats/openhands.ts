/**
 * OpenHands event streams, mapped onto the protocol: an evaluation
 * `output.jsonl` (one benchmark instance per line, its events in `history`)
 * and a GUI trajectory export (one JSON array of events). The format as the
 * real files show it: `shared/real-traces/openhands/FORMAT.md`.
 */
import type { ParseItem } from "./types";
import type { JsonDocumentFormat } from "./document-format";
import type { LineMapper } from "./line-mapper";
import { describeJsonType, isJsonObject, parseJsonObject } from "./json-line";
import { readNumber, readObject, readString } from "./foreign-envelope";
import { MAX_ID_LENGTH } from "./protocol";
import { mustBe } from "./protocol-fields";
import { isIsoTimestamp } from "./timestamp";
import { cutTitle } from "./claude-code-records";
import { readTaskHeadline } from "./openhands-records";
import { mapOpenHandsHistory, type InstanceVerdict } from "./openhands-history";

/**
 * Maps the lines of an OpenHands evaluation `output.jsonl`. Each line is one
 * benchmark instance and one run, whose id is its `instance_id`; every event
 * of it has the instance's line as `line` and `history[<event id>]` as
 * `record`. See `mapOpenHandsHistory` for the events. The title is the
 * instance id and the first line of its issue; `metadata` gives the model,
 * agent class and iteration limit; `metrics.response_latencies` the step
 * durations. The run ends (`run.completed`) by the instance's `error`, else
 * by a benchmark verdict (`test_result.report.resolved`, written by the
 * evaluation step, absent from plain inference output), else by the agent's
 * last `finish`.
 *
 * A line that is not a JSON object, lacks `instance_id` or `history`, or
 * repeats an instance already read is an error; so is each bad history entry,
 * and the rest of the instance is still mapped.
 *
 * @example
 * const mapper = createOpenHandsMapper();
 * lines.forEach((text, i) => items.push(...mapper.map(text, i + 1)));
 */
export function createOpenHandsMapper(): LineMapper {
  const instances = new Map<string, number>();
  return {
    map(text, line): ParseItem[] {
      const parsed = parseJsonObject(text);
      if (!parsed.ok) return [{ kind: "error", line, message: parsed.message }];
      const instance = parsed.value;
      const runId = readInstanceId(instance.instance_id);
      if (runId.problem !== undefined) return [{ kind: "error", line, message: runId.problem }];
      const history = instance.history;
      if (history === undefined || history === null) return [{ kind: "error", line, message: 'missing required field "history"' }];
      if (!Array.isArray(history)) return [{ kind: "error", line, message: mustBe("history", "an array", history) }];
      const earlier = instances.get(runId.id);
      if (earlier !== undefined) return [{ kind: "error", line, message: `instance "${runId.id}" was already read at line ${earlier}` }];
      instances.set(runId.id, line);
      const metadata = readObject(instance.metadata);
      const verdict = readVerdict(instance);
      const startTime = readString(metadata.start_time);
      return mapOpenHandsHistory(history, {
        runId: runId.id,
        line,
        title: readInstanceTitle(runId.id, instance, history),
        runFields: {
          model: readString(readObject(metadata.llm_config).model),
          agentClass: readString(metadata.agent_class),
          maxIterations: readNumber(metadata.max_iterations),
        },
        latencies: readLatencies(readObject(instance.metrics).response_latencies),
        verdict,
        startTs: startTime !== undefined && isIsoTimestamp(startTime) ? startTime : undefined,
        instanceRaw: JSON.stringify({ instance_id: instance.instance_id, error: instance.error ?? null, resolved: verdict.resolved ?? null }),
      });
    },
    end: () => [],
  };
}

/**
 * True for a parsed `output.jsonl` line: an `instance_id` (string or number)
 * next to a `history` array.
 */
export function isOpenHandsInstance(obj: Record<string, unknown>): boolean {
  const id = obj.instance_id;
  return (typeof id === "string" || typeof id === "number") && Array.isArray(obj.history);
}

// A key of the line's objects, not the same words inside a string value (where quotes are escaped).
const INSTANCE_ID_KEY = /(?<!\\)"instance_id"\s*:/;
const INSTANCE_KEYS = [/(?<!\\)"history"\s*:\s*\[/, /(?<!\\)"test_result"\s*:/, /(?<!\\)"agent_class"\s*:/];

/**
 * True for the start of an `output.jsonl` line cut short (by the 64 KiB
 * detection window; a line holds a whole instance and runs to megabytes): an
 * object with the `instance_id` key and one of `history`, `test_result` or
 * `metadata.agent_class`. `test_result` (with the final `git_patch`) comes
 * before `history`, and a large patch can push `history` past the cut.
 */
export function sniffOpenHandsLine(line: string): boolean {
  if (!line.trimStart().startsWith("{") || !INSTANCE_ID_KEY.test(line)) return false;
  return INSTANCE_KEYS.some((key) => key.test(line));
}

/**
 * A GUI trajectory export (the UI's download button, `save_trajectory_path`):
 * one JSON array of events. The export holds no conversation id, so the run
 * id is the source key (the file's base name). Events have `line: null` and
 * `record: history[<event id>]`.
 */
export const OPENHANDS_EXPORT: JsonDocumentFormat = {
  format: "openhands",
  matches(value: unknown): boolean {
    return Array.isArray(value) && value.length > 0 && looksLikeEvent(value[0]);
  },
  parse(value: unknown, source): ParseItem[] {
    if (!Array.isArray(value)) {
      return [{ kind: "error", line: null, message: `an OpenHands trajectory must be a JSON array of events (got ${describeJsonType(value)})` }];
    }
    // The export holds no id: the file's base name is the run (`basic.json` → `basic`).
    const runId = source.sourceKey.replace(/^.*[\\/]/, "").replace(/\.json$/i, "");
    if (runId === "") return [{ kind: "error", line: null, message: "the source key (the run id of a trajectory export) must not be empty" }];
    if (runId.length > MAX_ID_LENGTH) {
      return [{ kind: "error", line: null, message: `the source key (the run id of a trajectory export) must be at most ${MAX_ID_LENGTH} characters (got ${runId.length})` }];
    }
    return mapOpenHandsHistory(value, { runId, line: null, instanceRaw: JSON.stringify({ sourceKey: runId }) });
  },
};

/** The first element of an export: an event with its envelope (`id`, `timestamp`, `action` or `observation`). */
function looksLikeEvent(value: unknown): boolean {
  if (!isJsonObject(value) || typeof value.id !== "number" || typeof value.timestamp !== "string") return false;
  return typeof value.action === "string" || typeof value.observation === "string";
}

function readInstanceId(value: unknown): { id: string; problem?: undefined } | { id?: undefined; problem: string } {
  if (value === undefined || value === null) return { problem: 'missing required field "instance_id"' };
  if (typeof value === "number" && Number.isSafeInteger(value)) return { id: String(value) };
  if (typeof value !== "string") return { problem: mustBe("instance_id", "a string", value) };
  if (value === "") return { problem: 'field "instance_id" must not be empty' };
  if (value.length > MAX_ID_LENGTH) return { problem: `field "instance_id" must be at most ${MAX_ID_LENGTH} characters (got ${value.length})` };
  return { id: value };
}

/**
 * `<instance id>: <first line of the issue>`, from the benchmark row's
 * `problem_statement`, else the `instruction`, else the first user message.
 */
function readInstanceTitle(id: string, instance: Record<string, unknown>, history: unknown[]): string {
  const statement =
    readString(readObject(instance.instance).problem_statement) ?? readString(instance.instruction) ?? readFirstUserMessage(history);
  const headline = statement === undefined ? undefined : readTaskHeadline(statement);
  return cutTitle(headline === undefined ? id : `${id}: ${headline}`);
}

function readFirstUserMessage(history: unknown[]): string | undefined {
  for (const event of history) {
    const fields = readObject(event);
    if (fields.source === "user" && fields.action === "message") return readString(readObject(fields.args).content);
  }
  return undefined;
}

/**
 * What the instance says about its end: `error`, and the benchmark verdict
 * when an evaluation step wrote one (`test_result.report.resolved`, or a
 * top-level `report.resolved`). Plain inference output has neither verdict:
 * its `test_result` holds only `git_patch`.
 */
function readVerdict(instance: Record<string, unknown>): InstanceVerdict {
  const nested = readObject(readObject(instance.test_result).report).resolved;
  const topLevel = readObject(instance.report).resolved;
  const resolved = typeof nested === "boolean" ? nested : typeof topLevel === "boolean" ? topLevel : undefined;
  return { error: readString(instance.error)?.trim() || undefined, resolved };
}

/** `metrics.response_latencies[]` (`{latency: seconds, response_id}`) as ms by response id. */
function readLatencies(value: unknown): Map<string, number> {
  const latencies = new Map<string, number>();
  if (!Array.isArray(value)) return latencies;
  for (const entry of value) {
    const fields = readObject(entry);
    const id = readString(fields.response_id);
    const seconds = readNumber(fields.latency);
    if (id !== undefined && seconds !== undefined && seconds >= 0 && !latencies.has(id)) latencies.set(id, Math.round(seconds * 1000));
  }
  return latencies;
}
