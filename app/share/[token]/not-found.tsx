import { AuthShell } from "@/components/auth/auth-shell";

/** What a share link that no longer works shows (still a 404): why, and what to do. */
export default function ShareLinkNotFound() {
  return (
    <AuthShell title="This link no longer works">
      <p>The run it shared is not available here: the link expired, was revoked, or was mistyped.</p>
      <p>Ask the person who sent it for a new one. If you are on the team, <a href="/sign-in">sign in</a> to see the run.</p>
    </AuthShell>
  );
}
