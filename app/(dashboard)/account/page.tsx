import type { Metadata } from "next";
import { getAccountOverview } from "@/lib/db/users";
import { requirePageUser } from "@/lib/auth/access";
import { signOutEverywhere } from "@/lib/actions/account";
import { PasswordForm } from "@/components/auth/password-form";
import { formatInstant } from "@/lib/format/values";
import { SIGN_IN_LINK_MS } from "@/lib/db/users";

export const metadata: Metadata = { title: "Your account" };
export const dynamic = "force-dynamic";

/** Who you are, your sessions, your password, and "sign out everywhere". */
export default async function AccountPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser();
  const welcome = (await searchParams).welcome === "1";
  const { sessions, ...row } = await getAccountOverview(user.userId);
  return (
    <main className="page narrow-page">
      <div className="page-title">
        <h1>{user.name}</h1>
        <span className="sub">Role <strong>{user.role}</strong>{row.email ? ` · ${row.email}` : ""}{row.sso ? " · signs in with single sign-on" : ""}</span>
      </div>
      {welcome ? <p className="form-ok" role="status">You are signed in. {row.hasPassword ? "" : "Set a password below to sign in without a link next time."}</p> : null}
      <section className="panel">
        <h2>Password</h2>
        <div className="panel-body"><PasswordForm hasPassword={row.hasPassword} askCurrent={row.hasPassword && !(user.method === "link" && Date.now() - user.createdAt < SIGN_IN_LINK_MS)} /></div>
      </section>
      <section className="panel">
        <h2>Signed-in sessions ({sessions.length})</h2>
        <div className="panel-body">
          <table className="data-table">
            <thead><tr><th>Client</th><th>Signed in (UTC)</th><th>Last active</th><th>Expires</th></tr></thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id}>
                  <td>{s.client ?? "unknown"}{s.id === user.sessionId ? <span className="badge"> this browser</span> : null}</td>
                  <td>{formatInstant(s.createdAt)}</td><td>{formatInstant(s.lastSeenAt)}</td><td>{formatInstant(s.expiresAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <form action={signOutEverywhere} className="inline-form">
            <button type="submit" className="danger">Sign out everywhere</button>
          </form>
        </div>
      </section>
    </main>
  );
}
