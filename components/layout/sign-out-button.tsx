import { signOut } from "@/lib/actions/account";

/** Ends this browser's session (a form: works before hydration). */
export function SignOutButton() {
  return (
    <form action={signOut} className="inline-form">
      <button type="submit" className="link-button">Sign out</button>
    </form>
  );
}
