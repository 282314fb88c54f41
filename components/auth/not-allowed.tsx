import { roleNeededFor, type Permission, type Role } from "@/lib/domain/access/roles";

/** What a signed-in person sees on a page their role does not open. */
export function NotAllowed({ what, permission, role }: { what: string; permission: Permission; role: Role }) {
  return (
    <main className="page narrow-page">
      <div className="page-title"><h1>Not for your role</h1></div>
      <p className="notice" data-testid="not-allowed">
        {what} needs the <strong>{roleNeededFor(permission)}</strong> role; you are signed in as {role === "viewer" ? "a" : "an"} <strong>{role}</strong>.
        Ask an admin (<code>npx loopscope user set-role &lt;name&gt; {roleNeededFor(permission)}</code>).
      </p>
    </main>
  );
}
