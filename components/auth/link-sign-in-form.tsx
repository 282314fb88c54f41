"use client";
import { useActionState } from "react";
import { signInWithLink, type SignInState } from "@/lib/actions/account";

const IDLE: SignInState = { status: "idle" };

/**
 * A one-time link signs in only when the person presses the button: link
 * previewers and mail scanners that fetch the URL do not use it up.
 */
export function LinkSignInForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState(signInWithLink, IDLE);
  return (
    <form action={action} className="sign-in-form">
      <input type="hidden" name="token" value={token} />
      {state.status === "error" ? <p className="form-error" role="alert">{state.message}</p> : null}
      <button type="submit" className="primary" disabled={pending}>{pending ? "Signing in…" : "Continue and sign in"}</button>
    </form>
  );
}
