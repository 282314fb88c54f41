import { describe, expect, it } from "vitest";
import { dueReminder, isLiveLoop, loopIdentity, notificationKey, retryDelayMs, ruleMatches, unstoppableLoopHint } from "./rules";
import { headline, signWebhook, slackMessage, verifyWebhookSignature } from "./messages";
import type { NotifyPayload, NotifyRuleSpec } from "./types";

const rule = (over: Partial<NotifyRuleSpec> = {}): NotifyRuleSpec => ({
  id: "r1", channelId: "c1", event: "halted", afterMinutes: null, repeatMinutes: null, haltReasons: null, profiles: null, formats: null, ...over,
});
const payload: NotifyPayload = {
  event: "halted", runId: "run-1", title: "Fix <b>it</b>", profile: "fast", format: "protocol", haltReason: "stalled",
  signal: "edge_without_progress", loop: "Loop 7/8", explanation: "planner → researcher taken 6 times", suggestedActions: ["raise_budget"],
  waitingSince: 0, haltKey: "detector:x", terminalStatus: null, url: "http://localhost:3000/runs/run-1", waitedMinutes: 3,
  idempotencyKey: "r1:run-1:detector:x", sentAt: "2026-11-24T00:00:00.000Z",
};

describe("loops Loopscope cannot stop", () => {
  const MIN = 60_000;
  it("are news while their events are fresh: not from an old session read from disk, nor without a time", () => {
    const now = Date.UTC(2026, 10, 24, 12);
    expect(isLiveLoop(now - 5 * MIN, now, 30 * MIN)).toBe(true);
    expect(isLiveLoop(now - 31 * MIN, now, 30 * MIN)).toBe(false);
    expect(isLiveLoop(now + 2 * MIN, now, 30 * MIN)).toBe(true);
    expect(isLiveLoop(null, now, 30 * MIN)).toBe(false);
  });

  it("say what a person can do instead, and headline as such", () => {
    expect(unstoppableLoopHint("claude-code")).toContain("npx loopscope hook install claude-code");
    expect(unstoppableLoopHint("codex")).toBe("Loopscope cannot stop this agent: stop it where it runs.");
    expect(headline({ ...payload, event: "loop_found", loop: null })).toBe("Agent loops, and Loopscope cannot stop it: Fix <b>it</b> — stalled (edge_without_progress)");
  });
});

describe("notification rules", () => {
  it("match their event and filters", () => {
    expect(ruleMatches(rule(), "halted", { haltReason: "stalled", profile: null, format: "protocol" })).toBe(true);
    expect(ruleMatches(rule(), "aborted_stuck", { haltReason: null, profile: null, format: "protocol" })).toBe(false);
    expect(ruleMatches(rule({ haltReasons: ["budget_exceeded"] }), "halted", { haltReason: "stalled", profile: null, format: "protocol" })).toBe(false);
    expect(ruleMatches(rule({ profiles: ["fast"], formats: ["protocol"] }), "halted", { haltReason: "stalled", profile: "fast", format: "protocol" })).toBe(true);
    expect(ruleMatches(rule({ profiles: ["fast"] }), "halted", { haltReason: "stalled", profile: null, format: "protocol" })).toBe(false);
  });
  it("name one notification per rule, run and halt, and each reminder", () => {
    expect(notificationKey("r", "run", "detector:k")).toBe("r:run:detector:k");
    expect(notificationKey("r", "run", "detector:k", 2)).toBe("r:run:detector:k:2");
    expect(dueReminder({ afterMinutes: 30, repeatMinutes: null }, 29 * 60_000)).toBeNull();
    expect(dueReminder({ afterMinutes: 30, repeatMinutes: null }, 300 * 60_000)).toBe(0);
    expect(dueReminder({ afterMinutes: 30, repeatMinutes: 60 }, 95 * 60_000)).toBe(1);
    expect([1, 2, 3, 30].map((a) => retryDelayMs(a))).toEqual([1000, 2000, 4000, 600_000]);
    expect(loopIdentity({ signal: "s", cycleId: "c1", edge: null, node: null, haltReason: "stalled" })).toBe("cycle:c1");
    expect(loopIdentity({ signal: "s", cycleId: null, edge: "a->b", node: null, haltReason: "stalled" })).toBe("s@a->b");
  });
});

describe("notification messages", () => {
  it("sign webhooks so that a receiver can verify them and reject replays", () => {
    const body = JSON.stringify(payload);
    const sig = signWebhook("whsec", body, 1_000_000);
    expect(sig).toMatch(/^t=1000000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature("whsec", body, sig, 1_000_100)).toBe(true);
    expect(verifyWebhookSignature("whsec", `${body} `, sig, 1_000_100)).toBe(false);
    expect(verifyWebhookSignature("other", body, sig, 1_000_100)).toBe(false);
    expect(verifyWebhookSignature("whsec", body, sig, 1_000_000 + 301)).toBe(false);
    expect(verifyWebhookSignature("whsec", body, null, 1_000_000)).toBe(false);
  });
  it("write Slack Block Kit with the facts, escaped, and a button to the run", () => {
    const m = slackMessage(payload) as { text: string; blocks: { type: string; elements?: { url: string }[]; text?: { text: string } }[] };
    expect(headline(payload)).toBe("Run waits for you: Fix <b>it</b> — stalled (edge_without_progress), Loop 7/8");
    expect(m.text).toContain("Fix &lt;b&gt;it&lt;/b&gt;");
    expect(m.blocks.find((b) => b.type === "actions")!.elements![0].url).toBe(payload.url);
    expect(JSON.stringify(m)).toContain("*Waiting* 3 min");
  });
});
