import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { countUsers } from "@/lib/db/users";
import { getViewer, requireAllowedHost, safeNextPath } from "@/lib/auth/access";
import { getOidcConfig } from "@/lib/auth/config";
import { AuthShell } from "@/components/auth/auth-shell";
import { SignInForm } from "@/components/auth/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

const OIDC_ERRORS: Record<string, string> = {
  oidc: "Single sign-on failed: the provider's answer could not be verified. Try again.",
  oidc_state: "Single sign-on took too long or was started in another tab. Try again.",
};

/**
 * Sign in with a name and password, or with the configured OpenID Connect
 * provider. With no users yet, explains how to create the first admin: a
 * server never starts with a default password.
 */
export default async function SignInPage({ searchParams }: { searchParams: Search }) {
  await requireAllowedHost();
  const params = await searchParams;
  const next = safeNextPath(typeof params.next === "string" ? params.next : "/");
  if (await getViewer()) redirect(next);
  const users = await countUsers();
  const oidc = getOidcConfig();
  const error = typeof params.error === "string" ? OIDC_ERRORS[params.error] : undefined;
  if (users === 0 && !oidc) {
    return (
      <AuthShell title="Create the first admin">
        <p>This Loopscope has no users yet, and never has a default password. On the server, create an admin:</p>
        <pre className="code-block">npx loopscope user add &lt;name&gt; --role admin</pre>
        <p>It asks for a password (or reads it from stdin). Or print a one-time sign-in link for that user:</p>
        <pre className="code-block">npx loopscope user link &lt;name&gt;</pre>
        <p className="muted">Then reload this page.</p>
      </AuthShell>
    );
  }
  return (
    <AuthShell title="Sign in">
      {params.signedOut === "everywhere" ? <p className="form-ok" role="status">You are signed out on every device.</p> : null}
      {error ? <p className="form-error" role="alert">{error}</p> : null}
      <SignInForm next={next} />
      {oidc ? (
        <p className="sso">
          <a className="button" href={`/api/auth/oidc/start?next=${encodeURIComponent(next)}`}>Sign in with {oidc.name}</a>
        </p>
      ) : null}
      <p className="muted small">Forgot your password? An admin can send you a one-time sign-in link (<code>npx loopscope user link &lt;name&gt;</code>).</p>
    </AuthShell>
  );
}
