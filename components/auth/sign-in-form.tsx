"use client";
import { useActionState } from "react";
import { signIn, type SignInState } from "@/lib/actions/account";

const IDLE: SignInState = { status: "idle" };

/** Name and password; the error says nothing about whether the name exists. */
export function SignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState(signIn, IDLE);
  return (
    <form action={action} className="sign-in-form" aria-describedby={state.status === "error" ? "sign-in-error" : undefined} data-attempt={state.status === "error" ? state.attempt : 0}>
      <input type="hidden" name="next" value={next} />
      <label>
        User name
        <input key={state.status === "error" ? state.attempt : 0} name="name" autoComplete="username" required maxLength={64} autoFocus defaultValue={state.status === "error" ? state.name : ""} />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required maxLength={1024} />
      </label>
      {state.status === "error" ? <p id="sign-in-error" className="form-error" role="alert">{state.message}</p> : null}
      <button type="submit" className="primary" disabled={pending}>{pending ? "Signing in…" : "Sign in"}</button>
    </form>
  );
}
