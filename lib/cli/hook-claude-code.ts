import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { createLoopscopeClient, LoopscopeClientError, type LoopscopeClient, type RunControlState } from "@/lib/client";
import { DETECTOR_PRESETS, detectRun } from "@/lib/domain/detector";
import { describeHalt, parseHaltKey, type HaltDetails } from "@/lib/domain/claude-hook/halt-reason";
import { parseHookInput, type HookInput } from "@/lib/domain/claude-hook/hook-input";
import { buildHookOutput, decisionVerdict, type HookVerdict } from "@/lib/domain/claude-hook/hook-output";
import { mapTranscriptEvents } from "@/lib/domain/claude-hook/transcript-events";
import type { LoopEvent } from "@/lib/domain/protocol/types";
import { hookStateDir, hookStatePath, readHookState, writeHookState, type HookEnv, type HookState } from "./hook-state";

/** What one hook call prints and returns. */
export interface HookRun {
  stdout: string;
  stderr: string[];
  exitCode: number;
}

/** Default for `LOOPSCOPE_HOOK_TIMEOUT_MS`: all network calls of one hook call, far below Claude Code's hook timeout. */
export const DEFAULT_HOOK_DEADLINE_MS = 5000;

/** Events per request, each remembered once stored: a long backlog (a session that had no hook yet) moves on even when the deadline cuts it. */
const SEND_BATCH = 200;

/**
 * Network failures (refused, reset, unknown host) one call takes before it
 * stops trying: a restarting server gets a retry, a server that is down costs
 * a round trip, not the whole deadline.
 */
const NETWORK_FAILURES_TOLERATED = 2;

/** After Loopscope could not be reached or did not answer, the session's hook calls go on unchecked without trying, for this long. */
export const UNREACHABLE_PAUSE_MS = 30_000;

class DeadlineError extends Error {}

/**
 * One Claude Code hook call: sends the session's new events to Loopscope,
 * then (except SubagentStop) asks whether the run waits for a person or a
 * person has decided, and answers Claude Code accordingly. Never blocks past
 * its deadline; when Loopscope cannot be asked the call goes on and the
 * person is told so. Exit status 1 only for input that is not a hook's.
 */
export async function runClaudeCodeHook(stdin: string, env: HookEnv, fetchImpl: typeof fetch = globalThis.fetch): Promise<HookRun> {
  const parsed = parseHookInput(stdin);
  if (!parsed.ok) return { stdout: "", stderr: [`loopscope hook: ${parsed.message}`], exitCode: 1 };
  const input = parsed.input;
  const url = (env.LOOPSCOPE_URL ?? "").replace(/\/+$/, "");
  const key = env.LOOPSCOPE_KEY || env.LOOPSCOPE_API_KEY || "";
  const stderr: string[] = [];
  const answer = (verdict: HookVerdict): HookRun => {
    const out = buildHookOutput(input.event, verdict);
    if (verdict.kind === "unchecked") stderr.push(verdict.notice);
    return { stdout: out ? `${JSON.stringify(out)}\n` : "", stderr, exitCode: 0 };
  };
  if (!url || !key) return answer({ kind: "unchecked", notice: "Loopscope hook: LOOPSCOPE_URL and LOOPSCOPE_KEY are not set, so nothing was sent and nothing checked (loopscope hook install claude-code sets them)." });

  const ms = Number(env.LOOPSCOPE_HOOK_TIMEOUT_MS);
  const deadlineMs = Number.isFinite(ms) && ms > 0 ? Math.min(ms, 60_000) : DEFAULT_HOOK_DEADLINE_MS;
  const what = input.event === "PreToolUse" ? "this tool call goes on unchecked" : "this step goes on unchecked";
  const statePath = hookStatePath(hookStateDir(env), url, input.sessionId);
  const state = await readHookState(statePath);
  const keepState = () => writeHookState(statePath, state).catch((e: unknown) => stderr.push(`loopscope hook: could not keep its state in ${statePath}: ${String(e)}`));
  if (state.unreachableUntil > Date.now()) {
    return answer({ kind: "unchecked", notice: `Loopscope (${url}) could not be reached a moment ago; the hook tries again after ${clockTime(state.unreachableUntil)}: ${what}.` });
  }

  const deadline = AbortSignal.timeout(deadlineMs);
  const unreachable = new AbortController();
  const stop = AbortSignal.any([deadline, unreachable.signal]);
  let networkFailures = 0;
  const client = createLoopscopeClient({
    url, apiKey: key, batchSize: SEND_BATCH, flushIntervalMs: 0, backoff: { initialMs: 100, maxMs: 1000 },
    onError: (e) => stderr.push(`loopscope hook: ${e.message}`),
    fetch: async (resource, init) => {
      try {
        return await fetchImpl(resource, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, stop]) : stop });
      } catch (error) {
        if (!stop.aborted && ++networkFailures >= NETWORK_FAILURES_TOLERATED) unreachable.abort(error);
        throw error;
      }
    },
  });
  const events = await readSessionEvents(input);
  try {
    try {
      await sendNewEvents(client, events, state, stop);
    } finally {
      await keepState();
    }
    if (input.event === "SubagentStop") return answer({ kind: "go" });
    // The run is the session the transcript's records name (the same as session_id, unless a resumed
    // session still writes under its first id): the run its events went to.
    const runId = events.findLast((e) => e.node === "main")?.runId ?? input.sessionId;
    const verdict = await askLoopscope(client, runId, { url, events, state, deadline: stop, stderr });
    await keepState();
    return answer(verdict);
  } catch (error) {
    // Only a server that cannot be reached pauses the checks: a slow one still takes each call's backlog.
    if (unreachable.signal.aborted) {
      state.unreachableUntil = Date.now() + UNREACHABLE_PAUSE_MS;
      await keepState();
      return answer({ kind: "unchecked", notice: `Loopscope (${url}) could not be reached (${describeNetworkError(unreachable.signal.reason)}): ${what}.` });
    }
    const why =
      error instanceof DeadlineError || deadline.aborted ? `did not answer within ${deadlineMs / 1000} s`
      : error instanceof LoopscopeClientError && (error.status === 401 || error.status === 403) ? `refused the hook's key (${error.message})`
      : `could not be reached (${describeNetworkError(error)})`;
    return answer({ kind: "unchecked", notice: `Loopscope (${url}) ${why}: ${what}.` });
  }
}

/** fetch's own message is "fetch failed"; the reason is in its cause (e.g. `connect ECONNREFUSED 127.0.0.1:9`). */
function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

function clockTime(epochMs: number): string {
  return new Date(epochMs).toTimeString().slice(0, 8);
}

/**
 * The events of the session's transcript and of its sub-agents'
 * (`<dir>/<session>/subagents/agent-*.jsonl`), each file mapped on its own as
 * ingesting the folder would. The turn is over at Stop; at SubagentStop only
 * that sub-agent's is.
 */
async function readSessionEvents(input: HookInput): Promise<LoopEvent[]> {
  const subDir = join(dirname(input.transcriptPath), basename(input.transcriptPath, ".jsonl"), "subagents");
  const names = (await readdir(subDir).catch(() => [] as string[])).filter((n) => /^agent-.+\.jsonl$/.test(n)).sort();
  const files = [input.transcriptPath, ...names.map((n) => join(subDir, n))];
  if (input.agentTranscriptPath && !files.includes(input.agentTranscriptPath)) files.push(input.agentTranscriptPath);
  const finished = (path: string) =>
    input.event === "Stop" ||
    (input.event === "SubagentStop" && (path === input.agentTranscriptPath || (input.agentId !== null && basename(path) === `agent-${input.agentId}.jsonl`)));
  const events: LoopEvent[] = [];
  for (const path of files) {
    const text = await readTranscript(path);
    if (text !== null) events.push(...mapTranscriptEvents(text, { final: finished(path) }).events);
  }
  return events;
}

/** The most of a transcript the hook reads on each call (a session's file is megabytes, not gigabytes). */
const MAX_TRANSCRIPT_BYTES = 256 << 20;

/**
 * A transcript's text, or null when the path is not a regular `.jsonl` file
 * of sane size: the path comes from the hook's input, and a FIFO or a device
 * would block or fill memory past the hook's deadline.
 */
async function readTranscript(path: string): Promise<string | null> {
  if (!path.endsWith(".jsonl")) return null;
  const info = await stat(path).catch(() => null);
  if (info === null || !info.isFile() || info.size > MAX_TRANSCRIPT_BYTES) return null;
  return readFile(path, "utf8").catch(() => null);
}

function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T> {
  if (deadline.aborted) return Promise.reject(new DeadlineError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DeadlineError());
    deadline.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener("abort", onAbort));
  });
}

/** Sends the events the server has not stored yet; remembers them once it has. */
async function sendNewEvents(client: LoopscopeClient, events: readonly LoopEvent[], state: HookState, deadline: AbortSignal): Promise<void> {
  const fresh = events.filter((e) => !state.sent.has(e.id));
  for (let i = 0; i < fresh.length; i += SEND_BATCH) {
    const batch = fresh.slice(i, i + SEND_BATCH);
    for (const event of batch) client.emit(event.runId, event);
    await beforeDeadline(client.flush(), deadline);
    for (const event of batch) state.sent.add(event.id);
  }
}

interface AskContext {
  url: string;
  events: readonly LoopEvent[];
  state: HookState;
  deadline: AbortSignal;
  stderr: string[];
}

/** Whether a person has decided (passed on once, then acknowledged), else whether the run waits for one. */
async function askLoopscope(client: LoopscopeClient, runId: string, ctx: AskContext): Promise<HookVerdict> {
  const runUrl = `${ctx.url}/runs/${encodeURIComponent(runId)}`;
  const runState = await beforeDeadline(client.getRunState(runId, ctx.deadline), ctx.deadline);
  if (!runState) return { kind: "go" };
  const pending = runState.pendingDecisionId;
  if (pending !== null && ctx.state.applied.has(pending)) {
    // Passed on already; only its acknowledgement was lost.
    await acknowledge(client, runId, pending, ctx);
  } else if (pending !== null) {
    // It is there already: a one-second poll returns it at once.
    const decision = await beforeDeadline(client.waitForDecision(runId, { timeoutMs: 1000, signal: ctx.deadline }), ctx.deadline);
    if (decision) {
      ctx.state.applied.add(decision.id);
      await acknowledge(client, runId, decision.id, ctx);
      return decisionVerdict(decision, runUrl);
    }
  }
  if (!runState.waiting) return { kind: "go" };
  const halt = haltOf(runState, ctx.events);
  const atEvent = ctx.events.find((e) => e.id === halt.atEventId && e.runId === runId) ?? null;
  const loop = `${halt.signal ?? halt.haltReason ?? "a loop"}${halt.count !== null && halt.limit !== null ? ` ${halt.count}/${halt.limit}` : ""}`;
  return {
    kind: "halted",
    reason: describeHalt(halt, { runUrl, atEvent }),
    notice: halt.source === "pause" ? `Loopscope: paused by a person; they decide at ${runUrl}.` : `Loopscope halted this session (${loop}); a person decides at ${runUrl}.`,
  };
}

async function acknowledge(client: LoopscopeClient, runId: string, decisionId: string, ctx: AskContext): Promise<void> {
  try {
    await beforeDeadline(client.ack(runId, decisionId), ctx.deadline);
  } catch (error) {
    ctx.stderr.push(`loopscope hook: decision ${decisionId} was passed on but not acknowledged yet (${error instanceof Error ? error.message : String(error)}); the next call retries`);
  }
}

/**
 * The halt the run waits on: the server's `halt` (the finding as stored, with
 * the project's settings). An older server names it only by its key (signal,
 * node, event): then its count, limit and evidence come from the detector run
 * here over the same events with the recommended settings, or are left out
 * rather than guessed.
 */
function haltOf(state: RunControlState, events: readonly LoopEvent[]): HaltDetails {
  const halt = parseHaltKey(state.haltKey ?? "", state.haltReason);
  const server = (state as Partial<RunControlState>).halt;
  if (server && typeof server === "object") return { ...halt, ...server };
  if (halt.source !== "detector" || halt.atEventId === null) return halt;
  const own = events.filter((e) => e.runId === state.runId);
  const found = detectRun(own, DETECTOR_PRESETS.recommended).find((f) => f.signal === halt.signal && f.atEventId === halt.atEventId);
  return found ? { ...halt, count: found.count, limit: found.limit, evidence: found.evidence } : halt;
}
