"use client";
import { useActionState } from "react";
import { setOwnPassword, type PasswordState } from "@/lib/actions/account";

const IDLE: PasswordState = { status: "idle" };

export function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const [state, action, pending] = useActionState(setOwnPassword, IDLE);
  return (
    <form action={action} className="stack-form">
      <label>
        {hasPassword ? "New password" : "Password"}
        <input name="password" type="password" autoComplete="new-password" required minLength={10} maxLength={1024} />
      </label>
      <label>
        Repeat it
        <input name="confirm" type="password" autoComplete="new-password" required minLength={10} maxLength={1024} />
      </label>
      {state.status === "error" ? <p className="form-error" role="alert">{state.message}</p> : null}
      {state.status === "saved" ? <p className="form-ok" role="status">Password saved.</p> : null}
      <button type="submit" disabled={pending}>{hasPassword ? "Change password" : "Set password"}</button>
    </form>
  );
}
