import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { findRepeatedCommit, isDenied, isRepeatedCommitFailure, replayUntilDenied, TranscriptReplay, type HookCall } from "../lib/cli/testing/hook-replay";
import { apiKeyFor, contextAs } from "./support";

// A real Claude Code session (read in place, never copied) that fails the same commit again and again.
const SPOTTER = resolve("../shared/real-traces/claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl");
const DIRECTIVE = "stop retrying the commit: run mix dialyzer, fix the warning it names, then commit once";
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test.describe("stopping Claude Code live through its hooks", () => {
  let dir: string | null = null;
  test.afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("the replayed session halts at its repeated failing commit, its next tool call is denied, and a person's directive reaches it", async ({ browser }) => {
    test.setTimeout(90_000);
    const began = Date.now();
    dir = mkdtempSync(join(tmpdir(), "loopscope-e2e-hook-"));
    // A new session id per attempt: each replay is a run of its own.
    const sessionId = `ae4a77f8-aedd-4bc1-888f-${randomBytes(6).toString("hex")}`;
    const replay = new TranscriptReplay(SPOTTER, join(dir, "projects", "-home-USER-projects-spotter"), sessionId);
    const env = {
      ...process.env, LOOPSCOPE_URL: String(test.info().project.use.baseURL), LOOPSCOPE_KEY: apiKeyFor(test.info()),
      LOOPSCOPE_HOOK_STATE_DIR: join(dir, "state"),
    };
    // The real command, one process per hook call, the hook's JSON on stdin, as Claude Code runs it.
    const calls: { event: string; ms: number }[] = [];
    const hook: HookCall = async (input) => {
      const t0 = Date.now();
      const run = spawnSync(process.execPath, ["bin/loopscope.js", "hook", "claude-code"], { input: JSON.stringify(input), env, encoding: "utf8", timeout: 30_000 });
      calls.push({ event: String(input.hook_event_name), ms: Date.now() - t0 });
      expect(run.status, run.stderr).toBe(0);
      const out = run.stdout.trim() ? (JSON.parse(run.stdout) as Record<string, unknown>) : null;
      // Loopscope answered every call: none went on unchecked.
      expect(String(out?.systemMessage ?? "")).not.toContain("unchecked");
      return out;
    };

    const { start, steps } = await replayUntilDenied(replay, hook, findRepeatedCommit(replay.pairs));
    expect(start).toBeNull();
    const halting = steps.findIndex((s) => s.post?.decision === "block");
    const at = steps[halting]?.pair;
    // The halt came right after a try of the repeated failing commit (the replay began at the first), and the next call was denied.
    expect(halting).toBeGreaterThan(0);
    expect(at).toMatchObject({ toolName: "Bash", isError: true });
    expect(isRepeatedCommitFailure(at)).toBe(true);
    expect(isRepeatedCommitFailure(steps[0].pair)).toBe(true);
    expect(steps.slice(0, halting).every((s) => s.pre === null && s.post === null)).toBe(true);
    expect(steps).toHaveLength(halting + 2);
    const denied = steps[steps.length - 1];
    expect(isDenied(denied.pre)).toBe(true);
    const reason = String((denied.pre!.hookSpecificOutput as Record<string, unknown>).permissionDecisionReason);
    const named = /^Loopscope halted this session: (\w+) on node main \((\d+) of at most (\d+)\), [\w ]+, at event (\S+)\./.exec(reason);
    expect(named, reason).not.toBeNull();
    const [, signal, count, limit, atEventId] = named!;
    expect(signal).toMatch(/failure/);
    const atUuid = (JSON.parse(replay.lines[at.useLine]) as { uuid: string }).uuid;
    expect(atEventId).toBe(`${atUuid}:0:verify`);
    expect(reason).toContain("`git add -A && git commit -m \"feat: instrument hook controllers");
    expect(reason).toContain("output: Pre-commit validation failed:");
    expect(reason).toContain("Stop here and wait for a person");
    expect(reason).toContain(`/runs/${sessionId}`);

    // A person (an operator) decides on the run page.
    const context = await contextAs(browser, test.info(), "operator");
    const page = await context.newPage();
    await page.goto(`/runs/${sessionId}`);
    await expect(page.getByRole("heading", { name: "Needs you: this run waits for a decision" })).toBeVisible();
    const panel = page.getByTestId("decision-panel");
    // The node reads as its id or its label ("main agent").
    await expect(panel).toContainText(new RegExp(`the detector's ${signal} fired on main( agent)? \\(${count} of at most ${limit}\\) at event ${escape(atEventId)}`));
    await expect(panel).toContainText("You decide as e2e-operator");
    await page.screenshot({ path: "test-results/screens/hook-halted-run.png", fullPage: true });
    await panel.getByLabel("Directive for the agent").fill(DIRECTIVE);
    await panel.getByRole("button", { name: "Resume", exact: true }).click();
    await expect(panel.getByRole("status")).toContainText("Decided: Resume");
    const decisions = panel.getByRole("list", { name: "Decisions" });
    await expect(decisions).toContainText("waiting for the runtime");

    // The agent's next tool call goes on, and carries the directive.
    const resumed = await hook(replay.input("PreToolUse", denied.pair));
    expect(isDenied(resumed)).toBe(false);
    expect(resumed).toMatchObject({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: expect.stringContaining(DIRECTIVE) } });
    expect(String(resumed!.systemMessage)).toContain("e2e-operator decided resume");
    // Passed on once: the call after it has nothing to say.
    expect(await hook(replay.input("PreToolUse", denied.pair))).toBeNull();

    // The run page tells it all: the halt at the commit, who resumed it with what, applied by the hook.
    await expect(decisions).toContainText("e2e-operator decided Resume");
    await expect(decisions).toContainText(DIRECTIVE);
    await expect(decisions).toContainText("applied by the runtime", { timeout: 15_000 });
    const story = page.getByRole("region", { name: "Run summary" }).getByRole("list", { name: "What happened" });
    await expect(story.getByRole("listitem").first()).toContainText(
      new RegExp(`halted repeated error \\(${signal} on main( agent)?, ${count} of at most ${limit}\\) at event ${escape(atEventId)} → e2e-operator decided Resume`),
    );
    const timeline = page.getByRole("region", { name: /Timeline/ });
    await timeline.getByLabel("Event type").selectOption("human.decision");
    await expect(timeline.locator('[data-event-id^="decision:"]')).toContainText(DIRECTIVE);
    await page.screenshot({ path: "test-results/screens/hook-resumed-run.png", fullPage: true });
    await context.close();

    const pre = calls.filter((c) => c.event === "PreToolUse");
    test.info().annotations.push({
      type: "hook calls",
      description: `${calls.length} calls, PreToolUse median ${pre.map((c) => c.ms).sort((a, b) => a - b)[Math.floor(pre.length / 2)]} ms, whole test ${Date.now() - began} ms`,
    });
  });
});
