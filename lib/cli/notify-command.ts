import { closeDb, getSql } from "@/lib/db/client";
import { addRule, createChannel, findChannel, listChannels, listDeliveries, NotifyError, removeChannel, removeRule } from "@/lib/db/notify";
import { defaultSenderOptions, sendTestNotification } from "@/lib/notify/sender";
import { getLinkBaseUrl } from "@/lib/auth/config";
import { NOTIFY_EVENTS, type NotifyEvent } from "@/lib/domain/notify/types";
import { formatInstant } from "@/lib/format/values";
import { parseArgs, UsageError } from "./args";
import { cliActor } from "./actor";

export const NOTIFY_USAGE = `usage: loopscope notify add <name> --webhook <url> | --slack <url>
                                      a channel, notified when a run halts and waits or a live agent it cannot stop loops
                                      (prints a webhook's signing secret once)
       loopscope notify list              channels, their rules and latest deliveries
       loopscope notify test <name>       send a sample notification now
       loopscope notify remove <name>
       loopscope notify rule add <name> --event halted|still_waiting|halted_again|aborted_stuck|loop_found
                                      [--after <min>] [--every <min>] [--halt-reason r,…] [--profile p,…] [--format f,…]
       loopscope notify rule remove <rule-id>`;

/** `loopscope notify`: where Loopscope says that a run needs a person. */
export async function runNotifyCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case "add": {
        const args = parseArgs(rest, ["webhook", "slack"], ["webhook", "slack"]);
        const [name] = args.positionals;
        const webhook = args.flags.get("webhook");
        const slack = args.flags.get("slack");
        if (!name || (typeof webhook === "string") === (typeof slack === "string")) throw new UsageError("notify add needs a name and one of --webhook <url> or --slack <url>");
        const { channel, secret } = await createChannel({ name, kind: webhook ? "webhook" : "slack", url: String(webhook ?? slack), createdBy: cliActor() });
        console.log(`added channel ${channel.name} (${channel.kind} to ${channel.urlHost}); it notifies when a run halts and waits`);
        if (secret) console.log(`signing secret (shown only now; verify X-Loopscope-Signature with it): ${secret}`);
        return 0;
      }
      case "list": {
        const channels = await listChannels();
        if (channels.length === 0) console.log("no channels yet: loopscope notify add <name> --webhook <url>");
        for (const c of channels) {
          console.log(`${c.name}  ${c.kind}  ${c.urlHost}`);
          for (const r of c.rules) {
            const f = [r.afterMinutes && `after ${r.afterMinutes} min`, r.repeatMinutes && `every ${r.repeatMinutes} min`, r.haltReasons && `halt ${r.haltReasons.join(",")}`, r.profiles && `profile ${r.profiles.join(",")}`, r.formats && `format ${r.formats.join(",")}`].filter(Boolean).join(", ");
            console.log(`  rule ${r.id}  ${r.event}${f ? ` (${f})` : ""}`);
          }
          for (const d of await listDeliveries(c.id, 5)) {
            console.log(`  ${formatInstant(d.sentAt ?? d.createdAt)}  ${d.event.padEnd(13)} ${d.status.padEnd(7)} ${d.lastStatus ?? "—"}  ${d.attempts}×  ${d.runId ?? ""}${d.lastError ? `  ${d.lastError}` : ""}`);
          }
        }
        return 0;
      }
      case "test": {
        const [name] = parseArgs(rest, []).positionals;
        const channel = name ? await findChannel(name) : null;
        if (!channel) throw new NotifyError(name ? `no channel ${name} (see \`loopscope notify list\`)` : "notify test needs a channel name");
        const r = await sendTestNotification(await getSql(), channel.id, defaultSenderOptions(getLinkBaseUrl()));
        if (r.error !== null) {
          console.error(`loopscope: the sample was not delivered: ${r.error}`);
          return 1;
        }
        console.log(`sent a sample to ${channel.name}: the receiver answered ${r.status}`);
        return 0;
      }
      case "remove": {
        const [name] = parseArgs(rest, []).positionals;
        if (!name) throw new UsageError("notify remove needs a channel name");
        if (!(await removeChannel(name))) throw new NotifyError(`no channel ${name}`);
        console.log(`removed channel ${name}`);
        return 0;
      }
      case "rule":
        return await runRuleCommand(rest);
      default:
        throw new UsageError(sub ? `unknown notify command "${sub}"` : "notify needs a command");
    }
  } catch (error) {
    if (error instanceof NotifyError) {
      console.error(`loopscope: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await closeDb();
  }
}

async function runRuleCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "remove") {
    const [id] = parseArgs(rest, []).positionals;
    if (!id || !(await removeRule(id))) throw new NotifyError(`no rule ${id ?? ""}`);
    console.log(`removed rule ${id}`);
    return 0;
  }
  if (sub !== "add") throw new UsageError("notify rule add|remove");
  const args = parseArgs(rest, ["event", "after", "every", "halt-reason", "profile", "format"], ["event", "after", "every", "halt-reason", "profile", "format"]);
  const [channel] = args.positionals;
  const event = args.flags.get("event");
  if (!channel || typeof event !== "string" || !(NOTIFY_EVENTS as readonly string[]).includes(event)) throw new UsageError(`notify rule add <channel> --event ${NOTIFY_EVENTS.join("|")}`);
  const num = (k: string) => {
    const v = args.flags.get(k);
    if (v === undefined) return null;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${k} takes whole minutes (1 or more)`);
    return n;
  };
  const list = (k: string) => (typeof args.flags.get(k) === "string" ? String(args.flags.get(k)).split(",").map((s) => s.trim()).filter(Boolean) : null);
  const rule = await addRule(channel, {
    event: event as NotifyEvent, afterMinutes: num("after"), repeatMinutes: num("every"),
    haltReasons: list("halt-reason"), profiles: list("profile"), formats: list("format"),
  });
  console.log(`added rule ${rule.id} to ${channel}: ${rule.event}`);
  return 0;
}
