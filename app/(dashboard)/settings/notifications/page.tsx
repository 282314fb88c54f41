import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/access";
import { can } from "@/lib/domain/access/roles";
import { listChannels, listDeliveries } from "@/lib/db/notify";
import { NOTIFY_EVENT_LABELS, NOTIFY_EVENTS, type NotifyRuleSpec } from "@/lib/domain/notify/types";
import { addChannelAction, addRuleAction, removeChannelAction, removeRuleAction, testChannelAction } from "@/lib/actions/notify";
import { formatInstant } from "@/lib/format/values";
import { NotAllowed } from "@/components/auth/not-allowed";
import { AdminForm } from "@/components/admin/admin-form";

export const metadata: Metadata = { title: "Notifications" };
export const dynamic = "force-dynamic";

function describeRule(r: NotifyRuleSpec): string {
  const when = r.event === "still_waiting" ? `a run still waits after ${r.afterMinutes} min${r.repeatMinutes ? `, again every ${r.repeatMinutes} min` : ""}` : NOTIFY_EVENT_LABELS[r.event];
  const filters = [r.haltReasons && `halt reason ${r.haltReasons.join(" or ")}`, r.profiles && `profile ${r.profiles.join(" or ")}`, r.formats && `format ${r.formats.join(" or ")}`].filter(Boolean);
  return filters.length ? `${when}, when ${filters.join(", ")}` : when;
}

/** Channels, rules and each channel's delivery log (admins). */
export default async function NotificationsPage() {
  const user = await requirePageUser();
  if (!can(user.role, "manage_settings")) return <NotAllowed what="Managing notifications" permission="manage_settings" role={user.role} />;
  const channels = await listChannels();
  const logs = new Map(await Promise.all(channels.map(async (c) => [c.id, await listDeliveries(c.id, 30)] as const)));
  return (
    <main className="page">
      <div className="page-title">
        <h1>Notifications</h1>
        <span className="sub">Tell the right person, at once, that a run waits: a signed webhook or a Slack incoming webhook. Sent from an outbox, retried, at most once per run, rule and halt.</span>
      </div>
      <section className="panel">
        <h2>New channel</h2>
        <div className="panel-body">
          <AdminForm action={addChannelAction} submit="Add channel" label="Add a channel" className="stack-form">
            <label>Name <input name="name" required maxLength={64} placeholder="team-alerts" /></label>
            <label>Kind
              <select name="kind" defaultValue="webhook">
                <option value="webhook">Webhook (JSON, signed with HMAC-SHA256)</option>
                <option value="slack">Slack incoming webhook</option>
              </select>
            </label>
            <label>URL <input name="url" type="url" required maxLength={2000} placeholder="https://hooks.example.com/loopscope" /></label>
          </AdminForm>
          <p className="muted small">A new channel notifies when a run halts and waits, and when a live agent session that Loopscope cannot stop loops; add rules below for reminders, repeated halts and stopped runs.</p>
        </div>
      </section>
      {channels.map((c) => (
        <section className="panel" key={c.id} aria-label={`Channel ${c.name}`} data-channel={c.name}>
          <h2>{c.name} <span className="badge">{c.kind}</span> <span className="muted small">{c.urlHost}</span></h2>
          <div className="panel-body">
            <div className="inline-form">
              <AdminForm action={testChannelAction} submit="Send a test" label={`Test ${c.name}`}><input type="hidden" name="id" value={c.id} /></AdminForm>
              <AdminForm action={removeChannelAction} submit="Remove channel" label={`Remove ${c.name}`} danger
                confirm={{
                  question: `Remove the channel ${c.name}?`,
                  consequence: "Its rules and its delivery log go with it, and nothing more is sent there. A removed channel cannot be restored; a webhook's signing secret is gone for good.",
                  confirm: "Remove channel",
                }}>
                <input type="hidden" name="id" value={c.id} />
              </AdminForm>
            </div>
            <h3>Rules</h3>
            <ul className="rule-list">
              {c.rules.map((r) => (
                <li key={r.id}>
                  Notify when {describeRule(r)}{" "}
                  <AdminForm action={removeRuleAction} submit="Remove" label={`Remove rule ${r.id}`} danger><input type="hidden" name="id" value={r.id} /></AdminForm>
                </li>
              ))}
            </ul>
            <AdminForm action={addRuleAction} submit="Add rule" label={`Add a rule to ${c.name}`} className="share-form">
              <input type="hidden" name="channel" value={c.id} />
              <label>When
                <select name="event" defaultValue="still_waiting">{NOTIFY_EVENTS.map((e) => <option key={e} value={e}>{NOTIFY_EVENT_LABELS[e]}</option>)}</select>
              </label>
              <label>After (min, still waiting only) <input name="after" inputMode="numeric" size={5} /></label>
              <label>Every (min, still waiting only) <input name="every" inputMode="numeric" size={5} /></label>
              <label>Halt reasons <input name="haltReasons" placeholder="any" size={14} /></label>
              <label>Profiles <input name="profiles" placeholder="any" size={10} /></label>
              <label>Formats <input name="formats" placeholder="any" size={10} /></label>
            </AdminForm>
            <h3>Deliveries</h3>
            <div className="table-scroll">
              <table className="data-table" data-testid={`deliveries-${c.name}`}>
                <thead><tr><th>Time (UTC)</th><th>Run</th><th>Event</th><th>Status</th><th>Code</th><th>Attempts</th><th>Last error</th></tr></thead>
                <tbody>
                  {(logs.get(c.id) ?? []).map((d) => (
                    <tr key={d.id}>
                      <td>{formatInstant(d.sentAt ?? d.createdAt)}</td>
                      <td className="mono wrap-anywhere">{d.runId}</td>
                      <td>{d.event}</td>
                      <td>{d.status === "pending" ? `pending (next ${formatInstant(d.nextAttemptAt)})` : d.status}</td>
                      <td>{d.lastStatus ?? "—"}</td>
                      <td>{d.attempts}</td>
                      <td className="wrap-anywhere">{d.lastError ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        </section>
      ))}
    </main>
  );
}
