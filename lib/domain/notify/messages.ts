import { createHmac, timingSafeEqual } from "node:crypto";
import { NOTIFY_HEADLINES, type NotifyPayload } from "./types";

/**
 * The signature header of a webhook delivery:
 * `X-Loopscope-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * A receiver recomputes it over the raw body and rejects old timestamps (replays).
 */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex");
  return `t=${unixSeconds},v1=${mac}`;
}

/** Verifies a signature header as a receiver would (within `toleranceSeconds` of `nowSeconds`). */
export function verifyWebhookSignature(secret: string, body: string, header: string | null, nowSeconds: number, toleranceSeconds = 300): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!m) return false;
  const t = Number(m[1]);
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, body, t).slice(`t=${t},v1=`.length), "hex");
  const given = Buffer.from(m[2], "hex");
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const humanize = (s: string) => s.replace(/_/g, " ");

/** The headline of a notification: "Run waits: <title> — stalled (edge_without_progress), Loop 7/8". */
export function headline(p: NotifyPayload): string {
  const what = NOTIFY_HEADLINES[p.event];
  const reason = p.haltReason ? ` — ${humanize(p.haltReason)}${p.signal ? ` (${p.signal})` : ""}` : "";
  return `${p.test ? "[test] " : ""}${what}: ${p.title ?? p.runId}${reason}${p.loop ? `, ${p.loop}` : ""}`;
}

/** Slack mrkdwn escapes: agent-written text cannot inject links or mentions. */
function slackEscape(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A Slack incoming-webhook message (Block Kit): the same facts, and a button to the run. */
export function slackMessage(p: NotifyPayload): Record<string, unknown> {
  const facts = [
    `*Run* \`${slackEscape(p.runId)}\`${p.profile ? ` · profile ${slackEscape(p.profile)}` : ""} · ${slackEscape(p.format)}`,
    p.haltReason ? `*Halt* ${slackEscape(humanize(p.haltReason))}${p.signal ? ` (${slackEscape(p.signal)})` : ""}${p.loop ? ` · ${p.loop}` : ""}` : null,
    p.waitedMinutes !== null ? `*Waiting* ${p.waitedMinutes} min` : null,
    p.suggestedActions.length ? `*Suggested* ${p.suggestedActions.map((a) => slackEscape(humanize(a))).join(", ")}` : null,
  ].filter(Boolean).join("\n");
  return {
    text: slackEscape(headline(p)),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${slackEscape(headline(p))}*\n${slackEscape(p.explanation)}` } },
      { type: "section", text: { type: "mrkdwn", text: facts } },
      { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open the run" }, url: p.url, style: "primary" }] },
    ],
  };
}
