import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/access";
import { can, ROLES } from "@/lib/domain/access/roles";
import { listUsers } from "@/lib/db/users";
import { addUserAction, removeUserAction, setRoleAction, userLinkAction } from "@/lib/actions/admin";
import { formatInstant } from "@/lib/format/values";
import { NotAllowed } from "@/components/auth/not-allowed";
import { AdminField, AdminForm } from "@/components/admin/admin-form";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

/** People and roles (admins): add (with a one-time link), change role, send a sign-in link, remove. */
export default async function UsersPage() {
  const user = await requirePageUser();
  if (!can(user.role, "manage_users")) return <NotAllowed what="Managing users" permission="manage_users" role={user.role} />;
  const users = await listUsers();
  const roleSelect = (value: string) => (
    <select name="role" defaultValue={value} aria-label="Role">{ROLES.map((r) => <option key={r} value={r}>{r}</option>)}</select>
  );
  return (
    <main className="page">
      <div className="page-title">
        <h1>Users</h1>
        <span className="sub"><strong>viewer</strong> reads everything · <strong>operator</strong> also decides on halted runs, runs “what if” and shares runs · <strong>admin</strong> also manages users, keys, detector settings and every share link.</span>
      </div>
      <section className="panel">
        <h2>Add a user</h2>
        <div className="panel-body">
          <AdminForm action={addUserAction} submit="Add and make a sign-in link" label="Add a user" className="stack-form" present={users.map((u) => u.name)}>
            <AdminField
              label="User name"
              name="name"
              required
              maxLength={64}
              pattern="[A-Za-z0-9][A-Za-z0-9._@\-]*"
              title="1–64 letters, digits and . _ @ - (no spaces), starting with a letter or digit"
              help="1–64 letters, digits and . _ @ - (no spaces), starting with a letter or digit; capitals are stored as lower case. E.g. ada.lovelace"
            />
            <label>Role {roleSelect("viewer")}</label>
          </AdminForm>
        </div>
      </section>
      <section className="panel">
        <div className="table-scroll">
          <table className="data-table" data-testid="users">
            <thead><tr><th>Name</th><th>Role</th><th>Signs in with</th><th>Last sign-in</th><th>Sessions</th><th /></tr></thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} data-user={u.name}>
                  <td>{u.name}{u.email ? <div className="run-sub">{u.email}</div> : null}</td>
                  <td>
                    <AdminForm action={setRoleAction} submit="Save" label={`Role of ${u.name}`}>
                      <input type="hidden" name="name" value={u.name} />{roleSelect(u.role)}
                    </AdminForm>
                  </td>
                  <td>{[u.hasPassword ? "password" : null, u.sso ? "single sign-on" : null].filter(Boolean).join(", ") || "links only"}</td>
                  <td>{u.lastSignInAt ? formatInstant(u.lastSignInAt) : "never"}</td>
                  <td>{u.sessions}</td>
                  <td className="actions">
                    <AdminForm action={userLinkAction} submit="Sign-in link" label={`Sign-in link for ${u.name}`}><input type="hidden" name="name" value={u.name} /></AdminForm>
                    {u.id === user.userId ? null : (
                      <AdminForm
                        action={removeUserAction}
                        submit="Remove"
                        label={`Remove ${u.name}`}
                        danger
                        confirm={{
                          question: `Remove ${u.name}?`,
                          consequence: "Their sessions end at once and they can no longer sign in. This cannot be undone: adding the name again makes a new account.",
                          confirm: "Remove user",
                        }}
                      >
                        <input type="hidden" name="name" value={u.name} />
                      </AdminForm>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </main>
  );
}
