import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/db/client";
import { testDatabaseKinds, type TestDatabase } from "@/lib/db/testing/test-databases";
import { useAppDatabase } from "@/lib/db/testing/app-database";
import { ingestLines, loopLines } from "@/lib/db/testing/decision-runs";
import { recordDecision } from "@/lib/db/decisions";
import { readRunControlState } from "@/lib/db/control";
import { markListened } from "@/lib/db/awaits-person";
import { addRule, createChannel, enqueueStillWaiting, loadRules } from "@/lib/db/notify";
import { verifyWebhookSignature } from "@/lib/domain/notify/messages";
import { defaultSenderOptions, sendDueNotifications, sendTestNotification, type SenderOptions } from "./sender";

const kinds = await testDatabaseKinds();

/** A real HTTP receiver on 127.0.0.1: records what arrives, answers with the next status of `answers` (then 200). */
class Receiver {
  readonly got: { headers: IncomingHttpHeaders; body: string; path: string }[] = [];
  answers: number[] = [];
  private server: Server | null = null;
  url = "";
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += String(c)));
      req.on("end", () => {
        this.got.push({ headers: req.headers, body, path: req.url ?? "" });
        res.statusCode = this.answers.shift() ?? 200;
        res.end("ok");
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server!.close(() => r()));
  }
}

const opts = (): SenderOptions => ({ ...defaultSenderOptions("http://loopscope.test"), backoffBaseMs: 30, leaseMs: 200 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(kinds)("notifications from the outbox (%s)", (kind) => {
  const db = useAppDatabase(kind);
  let t: TestDatabase;
  const receiver = new Receiver();
  beforeAll(async () => {
    process.env.LOOPSCOPE_SECRET_KEY = Buffer.alloc(32, 7).toString("base64");
    t = db();
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
  });
  beforeEach(() => {
    receiver.got.length = 0;
    receiver.answers = [];
  });
  const outbox = (runId: string) => t.db.all<{ status: string; attempts: number; event: string }>(`SELECT "status","attempts","event" FROM "NotifyDelivery" WHERE "runId" = ? ORDER BY "id"`, [runId]);

  it("a halt writes one notification with the finding; it is sent once, signed, with a link to the run", async () => {
    const { channel, secret } = await createChannel({ name: `hooks-${kind}`, kind: "webhook", url: `${receiver.url}/hook`, createdBy: "ada" });
    expect(secret).toMatch(/^whsec_/);
    expect(channel.rules.map((r) => r.event)).toEqual(["halted", "loop_found"]);
    // No halt, no notification; the halt and its notification are stored together.
    await ingestLines(t.db, loopLines("n1", { rounds: 2 }));
    expect(await outbox("n1")).toEqual([]);
    const lines = loopLines("n1", { rounds: 3 });
    await ingestLines(t.db, lines);
    expect((await readRunControlState(t.db, "n1"))!.waiting).toBe(true);
    expect(await outbox("n1")).toEqual([{ status: "pending", attempts: 0, event: "halted" }]);
    // Ingesting the same events again (a retrying agent) writes nothing more.
    await ingestLines(t.db, lines);
    expect(await outbox("n1")).toHaveLength(1);

    expect(await sendDueNotifications(t.db, opts())).toBe(1);
    expect(await sendDueNotifications(t.db, opts())).toBe(0);
    expect(receiver.got).toHaveLength(1);
    const { headers, body, path } = receiver.got[0];
    expect(path).toBe("/hook");
    expect(verifyWebhookSignature(secret!, body, String(headers["x-loopscope-signature"]), Math.floor(Date.now() / 1000))).toBe(true);
    expect(verifyWebhookSignature(secret!, body.replace("n1", "n2"), String(headers["x-loopscope-signature"]), Math.floor(Date.now() / 1000))).toBe(false);
    const p = JSON.parse(body);
    expect(headers["idempotency-key"]).toBe(p.idempotencyKey);
    expect(p).toMatchObject({
      event: "halted", runId: "n1", title: "Loop n1", haltReason: "budget_exceeded", signal: "maxCycleIterations", loop: "Loop 3/2",
      url: "http://loopscope.test/runs/n1", format: "protocol",
    });
    expect(p.explanation).toMatch(/3/);
    expect(typeof p.waitedMinutes).toBe("number");
    expect(await outbox("n1")).toEqual([{ status: "sent", attempts: 1, event: "halted" }]);
  });

  it("a receiver answering 500 twice gets the same notification a third time, and no more", async () => {
    receiver.answers = [500, 500];
    await ingestLines(t.db, loopLines("n3", { rounds: 3 }));
    for (let i = 0; i < 40 && (await outbox("n3"))[0]?.status !== "sent"; i++) {
      await sendDueNotifications(t.db, opts());
      await sleep(20);
    }
    for (let i = 0; i < 5; i++) await sendDueNotifications(t.db, opts());
    const mine = receiver.got.filter((g) => JSON.parse(g.body).runId === "n3");
    expect(mine).toHaveLength(3);
    expect(new Set(mine.map((g) => g.headers["idempotency-key"])).size).toBe(1);
    expect(await outbox("n3")).toEqual([{ status: "sent", attempts: 3, event: "halted" }]);
  });

  it("a sender that dies after claiming loses nothing: the next one sends it exactly once", async () => {
    await ingestLines(t.db, loopLines("n4", { rounds: 3 }));
    // A server claims the row (its lease) and is killed before sending.
    const claimed = await t.db.run(`UPDATE "NotifyDelivery" SET "lockedUntil" = ? WHERE "runId" = 'n4'`, [Date.now() + 150]);
    expect(claimed).toBe(1);
    expect(await sendDueNotifications(t.db, opts())).toBe(0);
    await sleep(200);
    // The restarted server (a new connection, as a new process would have) sends it, once.
    await closeDb();
    const again = await import("@/lib/db/client").then((m) => m.getSql());
    expect(await sendDueNotifications(again, opts())).toBe(1);
    expect(await sendDueNotifications(again, opts())).toBe(0);
    expect(receiver.got.filter((g) => JSON.parse(g.body).runId === "n4")).toHaveLength(1);
  });

  it("a rule that could never fire as meant is refused, naming what is wrong", async () => {
    const { channel } = await createChannel({ name: `typos-${kind}`, kind: "slack", url: `${receiver.url}/slack`, createdBy: "ada" });
    const base = { event: "halted" as const, afterMinutes: null, repeatMinutes: null, haltReasons: null, profiles: null, formats: null };
    await expect(addRule(channel.id, { ...base, haltReasons: ["stalled", "stall"] })).rejects.toThrow(/no halt reason "stall": one of budget_exceeded, stalled/);
    await expect(addRule(channel.id, { ...base, formats: ["claude"] })).rejects.toThrow(/no format "claude": one of protocol,/);
    await expect(addRule(channel.id, { ...base, afterMinutes: 30 })).rejects.toThrow(/--after and --every are for still_waiting rules/);
    expect((await addRule(channel.id, { ...base, haltReasons: ["stalled"], formats: ["claude-code"] })).haltReasons).toEqual(["stalled"]);
  });

  it("rules: halted again on the same loop, still waiting reminders, aborted_stuck; filters", async () => {
    const { channel } = await createChannel({ name: `rules-${kind}`, kind: "slack", url: `${receiver.url}/slack`, createdBy: "ada" });
    await addRule(channel.id, { event: "halted_again", afterMinutes: null, repeatMinutes: null, haltReasons: null, profiles: null, formats: null });
    await addRule(channel.id, { event: "aborted_stuck", afterMinutes: null, repeatMinutes: null, haltReasons: null, profiles: null, formats: null });
    await addRule(channel.id, { event: "still_waiting", afterMinutes: 30, repeatMinutes: 60, haltReasons: null, profiles: null, formats: null });
    await addRule(channel.id, { event: "halted", afterMinutes: null, repeatMinutes: null, haltReasons: null, profiles: ["never-this-profile"], formats: null });
    await ingestLines(t.db, loopLines("n5", { rounds: 3 }));
    const first = (await readRunControlState(t.db, "n5"))!;
    const events = async () => (await t.db.all<{ event: string; channelId: string }>(`SELECT "event","channelId" FROM "NotifyDelivery" WHERE "runId" = 'n5' ORDER BY "id"`)).filter((r) => r.channelId === channel.id).map((r) => r.event);
    expect(await events()).toEqual(["halted"]);
    // A person resumes with +1 iteration; the same loop halts again.
    const d = await recordDecision(t.db, { runId: "n5", haltKey: first.haltKey!, action: "resume", directive: null, budgetDelta: { maxCycleIterations: 1 }, provider: null, by: "ada" });
    expect(d.ok).toBe(true);
    await ingestLines(t.db, loopLines("n5", { rounds: 2, from: 3, start: false, t0: Date.now() + 60_000 }));
    const second = (await readRunControlState(t.db, "n5"))!;
    expect(second.waiting).toBe(true);
    expect(second.haltKey).not.toBe(first.haltKey);
    expect(await events()).toEqual(["halted", "halted", "halted_again"]);
    // Still waiting: reminder 0 after 30 min, reminder 1 an hour later; each once.
    const rules = await loadRules(t.db);
    const since = Date.now() + 60_000;
    await enqueueStillWaiting(t.db, rules, since + 10 * 60 * 60_000);
    await enqueueStillWaiting(t.db, rules, since + 10 * 60 * 60_000);
    expect((await events()).filter((e) => e === "still_waiting").length).toBe(1);
    // A person stops it: aborted_stuck.
    await recordDecision(t.db, { runId: "n5", haltKey: second.haltKey!, action: "stop", directive: "no", budgetDelta: null, provider: null, by: "ada" });
    expect((await events()).at(-1)).toBe("aborted_stuck");
    // Slack gets Block Kit with a button to the run.
    await sendDueNotifications(t.db, opts());
    const slack = receiver.got.filter((g) => g.path === "/slack").map((g) => JSON.parse(g.body));
    expect(slack.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(slack[0].blocks)).toContain("http://loopscope.test/runs/n5");
  });

  it("a test send goes through the same path and says what the receiver answered", async () => {
    const { channel } = await createChannel({ name: `sample-${kind}`, kind: "webhook", url: `${receiver.url}/sample`, createdBy: "ada" });
    expect(await sendTestNotification(t.db, channel.id, opts())).toEqual({ status: 200, error: null });
    receiver.answers = [503];
    expect(await sendTestNotification(t.db, channel.id, opts())).toEqual({ status: 503, error: "the receiver answered 503" });
    const down = await createChannel({ name: `down-${kind}`, kind: "webhook", url: "http://127.0.0.1:9/nothing", createdBy: "ada" });
    const r = await sendTestNotification(t.db, down.channel.id, opts());
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/fetch failed|ECONNREFUSED/);
  });

  it("a halt of a transcript nothing listens for tells nobody to decide; once its runtime asks, it does", async () => {
    // Last in this database: a further channel would notify the tests above twice.
    const { channel } = await createChannel({ name: `transcripts-${kind}`, kind: "webhook", url: `${receiver.url}/hook`, createdBy: "ada" });
    const mine = async () => (await t.db.all<{ event: string }>(`SELECT "event" FROM "NotifyDelivery" WHERE "runId" = 'cc1' AND "channelId" = ?`, [channel.id])).map((r) => r.event);
    await ingestLines(t.db, loopLines("cc1", { rounds: 2 }));
    // As if first read from a Claude Code session file: the format is the run's first source's.
    await t.db.run(`UPDATE "Run" SET "format" = 'claude-code' WHERE "id" = 'cc1'`);
    await ingestLines(t.db, loopLines("cc1", { rounds: 3 }));
    expect((await readRunControlState(t.db, "cc1"))!.status).toBe("halted");
    await enqueueStillWaiting(t.db, await loadRules(t.db), Date.now() + 10 * 60 * 60_000);
    expect(await outbox("cc1")).toEqual([]);
    expect(await mine()).toEqual([]);
    // Its hook asks; the next batch of the still-halted run brings the notification.
    await markListened(t.db, "cc1");
    await ingestLines(t.db, loopLines("cc1", { rounds: 1, from: 3, start: false, t0: Date.now() }));
    expect(await mine()).toEqual(["halted"]);
  });

  it("a loop in a live session nothing can stop says so, once, with how to stop it; an old session read from disk tells nobody", async () => {
    const { channel } = await createChannel({ name: `live-${kind}`, kind: "webhook", url: `${receiver.url}/live`, createdBy: "ada" });
    const sent = async (runId: string) => (await t.db.all<{ event: string }>(`SELECT "event" FROM "NotifyDelivery" WHERE "runId" = ? AND "channelId" = ?`, [runId, channel.id])).map((r) => r.event);
    const asClaudeCode = async (runId: string, t0: number) => {
      await ingestLines(t.db, loopLines(runId, { rounds: 1, t0 }));
      await t.db.run(`UPDATE "Run" SET "format" = 'claude-code' WHERE "id" = ?`, [runId]);
      await ingestLines(t.db, loopLines(runId, { rounds: 3, t0 }));
      expect((await readRunControlState(t.db, runId))!.status).toBe("halted");
    };
    await asClaudeCode("old1", Date.UTC(2026, 0, 5));
    expect(await sent("old1")).toEqual([]);
    await asClaudeCode("live1", Date.now() - 5 * 60_000);
    expect(await sent("live1")).toEqual(["loop_found"]);
    // The next batch of the same halted session adds nothing.
    await ingestLines(t.db, loopLines("live1", { rounds: 1, from: 3, start: false, t0: Date.now() - 60_000 }));
    expect(await sent("live1")).toEqual(["loop_found"]);
    await sendDueNotifications(t.db, opts());
    const got = receiver.got.filter((r) => r.path === "/live").map((r) => JSON.parse(r.body));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ event: "loop_found", runId: "live1", format: "claude-code", signal: "maxCycleIterations", waitingSince: null, waitedMinutes: null });
    expect(got[0].explanation).toContain("npx loopscope hook install claude-code");
  });
});
