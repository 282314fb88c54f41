"use client";
import { useActionState } from "react";
import { setOwnPassword, type PasswordState } from "@/lib/actions/account";

const IDLE: PasswordState = { status: "idle" };

/** Set or change one's password; the current one is asked for unless `askCurrent` is false (fresh link sign-in). */
export function PasswordForm({ hasPassword, askCurrent }: { hasPassword: boolean; askCurrent: boolean }) {
  const [state, action, pending] = useActionState(setOwnPassword, IDLE);
  return (
    <form action={action} className="stack-form">
      {askCurrent ? (
        <label>
          Current password
          <input name="current" type="password" autoComplete="current-password" required maxLength={1024} />
        </label>
      ) : null}
      <label>
        {hasPassword ? "New password" : "Password"}
        <input name="password" type="password" autoComplete="new-password" required minLength={10} maxLength={1024} />
      </label>
      <label>
        Repeat it
        <input name="confirm" type="password" autoComplete="new-password" required minLength={10} maxLength={1024} />
      </label>
      {state.status === "error" ? <p className="form-error" role="alert">{state.message}</p> : null}
      {state.status === "saved" ? <p className="form-ok" role="status">Password saved. Your other sessions have ended.</p> : null}
      <button type="submit" disabled={pending}>{hasPassword ? "Change password" : "Set password"}</button>
    </form>
  );
}
