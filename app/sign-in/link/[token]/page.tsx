import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isSignInLinkValid } from "@/lib/db/users";
import { requireAllowedHost } from "@/lib/auth/access";
import { AuthShell } from "@/components/auth/auth-shell";
import { LinkSignInForm } from "@/components/auth/link-sign-in-form";

export const metadata: Metadata = { title: "Sign in", referrer: "no-referrer", robots: { index: false } };
export const dynamic = "force-dynamic";

/** A one-time sign-in link: confirms before using it (see LinkSignInForm). */
export default async function LinkSignInPage({ params }: { params: Promise<{ token: string }> }) {
  await requireAllowedHost();
  const raw = (await params).token;
  const token = /^[A-Za-z0-9_-]+$/.test(raw) ? raw : "";
  if (!(await isSignInLinkValid(token))) notFound();
  return (
    <AuthShell title="Sign in with a one-time link">
      <p>This link signs you in once and expires ten minutes after it was made. Set a password on the next page if you want one.</p>
      <LinkSignInForm token={token} />
    </AuthShell>
  );
}
