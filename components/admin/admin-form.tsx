"use client";
import { useActionState, type ReactNode } from "react";
import type { AdminState } from "@/lib/actions/admin";
import { CopyButton } from "@/components/share/copy-button";

const IDLE: AdminState = { status: "idle" };

/** A small admin form: its fields, its submit button, and the answer (a secret shown once, with Copy). */
export function AdminForm({ action, children, submit, label, className, danger }: {
  action: (prev: AdminState, form: FormData) => Promise<AdminState>;
  children?: ReactNode;
  submit: string;
  label: string;
  className?: string;
  danger?: boolean;
}) {
  const [state, run, pending] = useActionState(action, IDLE);
  return (
    <form action={run} className={className ?? "inline-form"} aria-label={label}>
      {children}
      <button type="submit" className={danger ? "danger small" : "small"} disabled={pending}>{submit}</button>
      {state.status === "error" ? <span className="form-error" role="alert">{state.message}</span> : null}
      {state.status === "done" ? (
        <span className="form-ok" role="status">
          {state.message}
          {state.secret ? (
            <span className="share-url"><input readOnly value={state.secret} aria-label="Shown once" data-testid="admin-secret" /><CopyButton text={state.secret} /></span>
          ) : null}
        </span>
      ) : null}
    </form>
  );
}
