import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/access";
import { can } from "@/lib/domain/access/roles";
import { listApiKeys } from "@/lib/db/api-keys";
import { createKeyAction, revokeKeyAction } from "@/lib/actions/admin";
import { formatInstant } from "@/lib/format/values";
import { NotAllowed } from "@/components/auth/not-allowed";
import { AdminField, AdminForm } from "@/components/admin/admin-form";

export const metadata: Metadata = { title: "API keys" };
export const dynamic = "force-dynamic";

/** API keys for agents (admins): scope, last use, expiry, revoke; a new key is shown once. */
export default async function KeysPage() {
  const user = await requirePageUser();
  if (!can(user.role, "manage_keys")) return <NotAllowed what="Managing API keys" permission="manage_keys" role={user.role} />;
  const keys = await listApiKeys();
  const now = Date.now();
  return (
    <main className="page">
      <div className="page-title">
        <h1>API keys</h1>
        <span className="sub">Agents send events with a key (<code>Authorization: Bearer lsk_…</code>). <strong>ingest</strong> writes events; <strong>ingest+control</strong> also reads and acknowledges decisions. A key never opens these pages.</span>
      </div>
      <section className="panel">
        <h2>New key</h2>
        <div className="panel-body">
          <AdminForm action={createKeyAction} submit="Create key" label="Create an API key" className="stack-form">
            <AdminField label="Name" name="name" required maxLength={100} placeholder="ci-agent" help="Up to 100 characters: who uses the key, e.g. the agent or the CI job." />
            <label>Scope
              <select name="scope" defaultValue="ingest">
                <option value="ingest">ingest</option>
                <option value="ingest+control">ingest+control</option>
              </select>
            </label>
            <AdminField
              label="Expires after (days)"
              name="days"
              inputMode="numeric"
              pattern="[0-9]*"
              maxLength={4}
              title="A whole number of days from 1 to 3650 (digits only), or empty for a key that never expires"
              help="A whole number of days from 1 to 3650, e.g. 90. Leave empty for a key that never expires."
            />
          </AdminForm>
        </div>
      </section>
      <section className="panel">
        <div className="table-scroll">
          <table className="data-table" data-testid="api-keys">
            <thead><tr><th>Key</th><th>Name</th><th>Scope</th><th>Created</th><th>Last used</th><th>Expires</th><th>State</th><th /></tr></thead>
            <tbody>
              {keys.map((k) => {
                const state = k.revokedAt ? `revoked${k.revokedBy ? ` by ${k.revokedBy}` : ""}` : k.expiresAt !== null && k.expiresAt <= now ? "expired" : "active";
                return (
                  <tr key={k.id}>
                    <td className="mono">{k.prefix}…</td><td>{k.name}</td><td>{k.scope}</td>
                    <td>{formatInstant(k.createdAt)}{k.createdBy ? ` by ${k.createdBy}` : ""}</td>
                    <td>{k.lastUsedAt ? formatInstant(k.lastUsedAt) : "never"}</td>
                    <td>{k.expiresAt ? formatInstant(k.expiresAt) : "never"}</td>
                    <td>{state}</td>
                    <td>{state === "active" ? (
                      <AdminForm
                        action={revokeKeyAction}
                        submit="Revoke"
                        label={`Revoke ${k.name}`}
                        danger
                        confirm={{
                          question: `Revoke the key ${k.prefix}… (${k.name})?`,
                          consequence: "Agents that use it are refused from their next request on. A revoked key cannot be restored; make a new one if needed.",
                          confirm: "Revoke key",
                        }}
                      >
                        <input type="hidden" name="id" value={k.id} />
                      </AdminForm>
                    ) : null}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>
    </main>
  );
}
