import { AuthShell } from "@/components/auth/auth-shell";

/** What a sign-in link that cannot be used shows (still a 404): why, and what to do. */
export default function SignInLinkNotFound() {
  return (
    <AuthShell title="This sign-in link cannot be used">
      <p>It was used already, or its ten minutes ran out, or it was mistyped.</p>
      <p>
        Ask an admin for a new one (<code>npx loopscope user link &lt;name&gt;</code>, or Settings → Users), or{" "}
        <a href="/sign-in">sign in with your password</a>.
      </p>
    </AuthShell>
  );
}
