import { createServer } from "node:net";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/db/api-keys";
import { closeDb } from "@/lib/db/client";
import { readRunControlState } from "@/lib/db/control";
import { recordDecision } from "@/lib/db/decisions";
import { ingestPaths } from "@/lib/db/ingest/ingest-files";
import { RouteListener } from "@/lib/db/testing/route-listener";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "@/lib/db/testing/test-databases";
import { mapTranscriptEvents } from "@/lib/domain/claude-hook/transcript-events";
import { findRepeatedCommit, isDenied, isRepeatedCommitFailure, replayUntilDenied, TranscriptReplay, type HookCall } from "./testing/hook-replay";
import { runClaudeCodeHook } from "./hook-claude-code";
import type { HookEnv } from "./hook-state";

// The real session (read in place, never copied): it fails the same commit again and again (lines 1338–1463).
const SPOTTER = fileURLToPath(new URL("../../../shared/real-traces/claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl", import.meta.url));
const kinds = await testDatabaseKinds();

describe.each(kinds)("the Claude Code hook against a real server (%s)", (kind) => {
  let t: TestDatabase;
  let server: RouteListener;
  let dir: string;
  let env: HookEnv;
  /** Event ids in the order the hook posted them, over all calls. */
  const posted: string[] = [];
  const recordingFetch: typeof fetch = async (resource, init) => {
    if (String(resource).endsWith("/api/ingest") && typeof init?.body === "string") {
      for (const line of init.body.split("\n")) if (line) posted.push((JSON.parse(line) as { id: string }).id);
    }
    return fetch(resource, init);
  };
  const hook: HookCall = async (input) => {
    const run = await runClaudeCodeHook(JSON.stringify(input), env, recordingFetch);
    expect(run.exitCode).toBe(0);
    return run.stdout ? (JSON.parse(run.stdout) as Record<string, unknown>) : null;
  };

  beforeAll(async () => {
    t = await createTestDb(kind);
    process.env.DATABASE_URL = t.config.kind === "sqlite" ? `file:${t.config.file}` : t.config.url;
    server = new RouteListener();
    await server.start();
    dir = mkdtempSync(join(tmpdir(), "loopscope-hook-test-"));
    const key = (await createApiKey("hook-test", { scope: "ingest+control" })).key;
    env = { LOOPSCOPE_URL: server.url, LOOPSCOPE_KEY: key, LOOPSCOPE_HOOK_STATE_DIR: join(dir, "state") };
  });
  afterAll(async () => {
    await server.stop();
    await closeDb();
    await new Promise((r) => setTimeout(r, 200));
    await t.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("halts the replayed session at its repeated failing commit, denies the next call, then passes a person's directive on once", async () => {
    const sessionId = `ae4a77f8-aedd-4bc1-888f-${kind === "sqlite" ? "000000000001" : "000000000002"}`;
    const replay = new TranscriptReplay(SPOTTER, join(dir, "project"), sessionId);
    const { start, steps } = await replayUntilDenied(replay, hook, findRepeatedCommit(replay.pairs));
    expect(start).toBeNull();

    // The PostToolUse of a failing commit told the agent, and the next PreToolUse denied its call.
    // The first step is the first failing commit of the series (line 1338): allowed, as every call until the halt.
    expect(steps[0].pair.useLine + 1).toBe(1338);
    expect(isRepeatedCommitFailure(steps[0].pair)).toBe(true);
    const halting = steps.findIndex((s) => s.post?.decision === "block");
    expect(halting).toBeGreaterThan(0);
    expect(steps.slice(0, halting).every((s) => s.pre === null && s.post === null)).toBe(true);
    const at = steps[halting].pair;
    expect(at).toMatchObject({ toolName: "Bash", isError: true });
    expect(String((at.toolInput as { command: string }).command)).toMatch(/^git add -A && git commit/);
    expect(isRepeatedCommitFailure(at)).toBe(true);
    const denied = steps[steps.length - 1];
    expect(steps.length).toBe(halting + 2);
    expect(isDenied(denied.pre)).toBe(true);
    const reason = String((denied.pre!.hookSpecificOutput as Record<string, unknown>).permissionDecisionReason);
    expect(reason).toMatch(/^Loopscope halted this session: \w*failure on node main \(\d+ of at most \d+\)/);
    expect(reason).toContain("`git add -A && git commit -m \"feat: instrument hook controllers");
    expect(reason).toContain("output: Pre-commit validation failed:");
    expect(reason).toContain("Stop here and wait for a person");
    expect(steps[halting].post?.reason).toBe(reason);

    const state = await readRunControlState(t.db, sessionId);
    expect(state).toMatchObject({ status: "halted", waiting: true, pendingDecisionId: null });
    // It names the event it halted at: the verify.result of that very commit.
    const atUuid = (JSON.parse(replay.lines[at.useLine]) as { uuid: string }).uuid;
    expect(state!.haltKey!.endsWith(`|${atUuid}:0:verify`)).toBe(true);
    expect(reason).toContain(`at event ${state!.haltKey!.split("|").pop()}`);

    // Each event was posted once, and ingesting the transcript later adds only what the hook held back.
    expect(new Set(posted).size).toBe(posted.length);
    const summary = await ingestPaths(t.db, [join(dir, "project")]);
    const written = [replay.transcriptPath, ...readdirSync(join(dir, "project", sessionId, "subagents")).map((f) => join(dir, "project", sessionId, "subagents", f))];
    const files = written.flatMap((path) => mapTranscriptEvents(readFileSync(path, "utf8"), { final: true }).events);
    expect(summary.eventsNew).toBe(files.filter((e) => !posted.includes(e.id)).length);
    expect(summary.eventsNew).toBeLessThanOrEqual(2);
    const stored = await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event" WHERE "runId" = ?`, [sessionId]);
    expect(Number(stored!.n)).toBe(new Set([...posted, ...files.map((e) => e.id)]).size);

    // Still halted: the same call is denied again.
    expect(isDenied(await hook(replay.input("PreToolUse", denied.pair)))).toBe(true);

    // A person resumes with a directive: the next call goes on and carries it, once; the decision is acknowledged.
    const directive = "stop retrying the commit: run mix dialyzer, fix the warning it names, then commit";
    const decided = await recordDecision(t.db, { runId: sessionId, haltKey: state!.haltKey!, action: "resume", directive, budgetDelta: null, provider: null, by: "ada" });
    expect(decided.ok).toBe(true);
    const resumed = await hook(replay.input("PreToolUse", denied.pair));
    expect(isDenied(resumed)).toBe(false);
    expect(resumed).toMatchObject({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: expect.stringContaining(directive) } });
    expect((resumed!.hookSpecificOutput as Record<string, unknown>).permissionDecision).toBeUndefined();
    expect(await readRunControlState(t.db, sessionId)).toMatchObject({ waiting: false, pendingDecisionId: null });
    expect(await hook(replay.input("PreToolUse", denied.pair))).toBeNull();
  });

  it("passes a stop decision on as the end of the session", async () => {
    const sessionId = `ae4a77f8-aedd-4bc1-888f-${kind === "sqlite" ? "000000000003" : "000000000004"}`;
    const replay = new TranscriptReplay(SPOTTER, join(dir, "stopped"), sessionId);
    const { steps } = await replayUntilDenied(replay, hook, findRepeatedCommit(replay.pairs));
    const state = await readRunControlState(t.db, sessionId);
    await recordDecision(t.db, { runId: sessionId, haltKey: state!.haltKey!, action: "stop", directive: "the hook scripts are wrong, not the code", budgetDelta: null, provider: null, by: "bob" });
    const stopped = await hook(replay.input("PreToolUse", steps[steps.length - 1].pair));
    expect(stopped).toMatchObject({ continue: false, stopReason: expect.stringContaining("bob stopped this session: the hook scripts are wrong"), hookSpecificOutput: { permissionDecision: "deny" } });
  });

  it("sends a sub-agent's last model call when it stops, from its own transcript", async () => {
    const sessionId = "ae4a77f8-aedd-4bc1-888f-0000000000c1";
    const replay = new TranscriptReplay(SPOTTER, join(dir, "sub"), sessionId);
    const task = replay.pairs.find((p) => p.toolName === "Task")!;
    replay.writeThrough(task.resultLine - 1);
    const calls = async () =>
      Number((await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event" WHERE "runId" = ? AND "node" = 'agent-aac57f5' AND "type" = 'node.completed'`, [sessionId]))!.n);
    expect(await hook(replay.input("PreToolUse", task))).toBeNull();
    const before = await calls();
    const agentTranscript = join(dir, "sub", sessionId, "subagents", "agent-aac57f5.jsonl");
    expect(await hook(replay.input("SubagentStop", undefined, { agent_id: "aac57f5", agent_transcript_path: agentTranscript, stop_hook_active: false }))).toBeNull();
    expect(await calls()).toBe(before + 1);
  });

  it("keeps what a deadline let through: a long backlog moves on from call to call", async () => {
    const replay = new TranscriptReplay(SPOTTER, join(dir, "backlog"), "ae4a77f8-aedd-4bc1-888f-0000000000b1");
    replay.writeThrough(replay.pairs[120].resultLine - 1);
    const input = JSON.stringify(replay.input("PreToolUse", replay.pairs[120]));
    const lines = (body: unknown) => (typeof body === "string" ? body.split("\n").filter(Boolean).length : 0);
    // The server takes one request, then hangs until the hook gives up.
    let taken = 0;
    const hanging: typeof fetch = (resource, init) => {
      if (!String(resource).endsWith("/api/ingest")) return fetch(resource, init);
      if (taken++ === 0) return fetch(resource, init);
      return new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(new Error("aborted"))));
    };
    const cut = await runClaudeCodeHook(input, { ...env, LOOPSCOPE_HOOK_TIMEOUT_MS: "1500" }, hanging);
    expect(JSON.parse(cut.stdout).systemMessage).toContain("did not answer within 1.5 s");
    const sentLater: number[] = [];
    const counting: typeof fetch = (resource, init) => {
      if (String(resource).endsWith("/api/ingest")) sentLater.push(lines(init?.body));
      return fetch(resource, init);
    };
    expect((await runClaudeCodeHook(input, env, counting)).stdout).toBe("");
    const subagents = join(dir, "backlog", replay.sessionId, "subagents");
    const all = [replay.transcriptPath, ...readdirSync(subagents).map((f) => join(subagents, f))]
      .reduce((n, path) => n + mapTranscriptEvents(readFileSync(path, "utf8"), { final: false }).events.length, 0);
    expect(all).toBeGreaterThan(200);
    expect(sentLater.reduce((a, b) => a + b, 0)).toBe(all - 200);
  });

  it("goes on, and says so, when Loopscope is down, refuses the key, or is not configured", async () => {
    const replay = new TranscriptReplay(SPOTTER, join(dir, "down"), "ae4a77f8-aedd-4bc1-888f-00000000000f");
    replay.writeThrough(replay.pairs[3].resultLine - 1);
    const input = JSON.stringify(replay.input("PreToolUse", replay.pairs[3]));
    // Nothing listens on a port just freed: the call gives up after a retry, not at its deadline, and says why.
    const port = await freedPort();
    let tries = 0;
    const counting: typeof fetch = (resource, init) => (tries++, fetch(resource, init));
    const downEnv = { ...env, LOOPSCOPE_URL: `http://127.0.0.1:${port}`, LOOPSCOPE_HOOK_TIMEOUT_MS: "60000" };
    const down = await runClaudeCodeHook(input, downEnv, counting);
    expect(down.exitCode).toBe(0);
    expect(JSON.parse(down.stdout)).toEqual({ systemMessage: `Loopscope (http://127.0.0.1:${port}) could not be reached (connect ECONNREFUSED 127.0.0.1:${port}): this tool call goes on unchecked.` });
    expect(tries).toBe(2);
    // The session's next calls go on without trying, for a while, and say until when.
    const paused = await runClaudeCodeHook(input, downEnv, counting);
    expect(tries).toBe(2);
    expect(JSON.parse(paused.stdout).systemMessage).toMatch(/^Loopscope \(http:\/\/127\.0\.0\.1:\d+\) could not be reached a moment ago; the hook tries again after \d\d:\d\d:\d\d: this tool call goes on unchecked\.$/);
    const slow = await runClaudeCodeHook(input, { ...env, LOOPSCOPE_HOOK_TIMEOUT_MS: "700" }, (resource, init) =>
      new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(new Error("aborted")))));
    expect(JSON.parse(slow.stdout).systemMessage).toContain("did not answer within 0.7 s: this tool call goes on unchecked.");
    const refused = await runClaudeCodeHook(input, { ...env, LOOPSCOPE_KEY: "lsk_not_a_key" });
    expect(JSON.parse(refused.stdout).systemMessage).toMatch(/refused the hook's key \(401 /);
    const unset = await runClaudeCodeHook(input, {});
    expect(JSON.parse(unset.stdout).systemMessage).toContain("LOOPSCOPE_URL and LOOPSCOPE_KEY are not set");
    expect(await runClaudeCodeHook("not json", env)).toMatchObject({ exitCode: 1, stdout: "" });
  });
});

/** A port nothing listens on: taken from the system, then given back. */
async function freedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
