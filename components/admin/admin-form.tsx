"use client";
import { createContext, useActionState, useContext, useId, useRef, type InputHTMLAttributes, type ReactNode } from "react";
import type { AdminState } from "@/lib/actions/admin";
import { CopyButton } from "@/components/share/copy-button";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { useFormRefusal } from "@/components/forms/use-form-refusal";

const IDLE: AdminState = { status: "idle" };

/** The field the server refused in this form, and the id of the message saying why. */
const RefusedField = createContext<{ field: string | null; errorId: string }>({ field: null, errorId: "" });

/**
 * A small admin form: its fields, its submit button, and the answer (a secret
 * shown once, with Copy). With `confirm`, the button asks first (revoke a key,
 * remove a user: neither can be undone). When the server refuses a field, that
 * field is marked, keeps what was typed and gets the focus (useFormRefusal).
 * `present`: the names that still exist; an answer about one no longer among
 * them (a user added, then removed) is not shown, nor its sign-in link, which
 * no longer works.
 */
export function AdminForm({ action, children, submit, label, className, danger, confirm, present }: {
  action: (prev: AdminState, form: FormData) => Promise<AdminState>;
  children?: ReactNode;
  submit: string;
  label: string;
  className?: string;
  danger?: boolean;
  confirm?: { question: string; consequence: string; confirm: string };
  present?: readonly string[];
}) {
  const [answer, run, pending] = useActionState(action, IDLE);
  const state = answer.status === "done" && answer.about !== undefined && present && !present.includes(answer.about) ? IDLE : answer;
  const form = useRef<HTMLFormElement>(null);
  const errorId = useId();
  const field = state.status === "error" ? state.field ?? null : null;
  const onSubmit = useFormRefusal(form, state, state.status === "error" ? { field: state.field } : null);
  const buttonClass = danger ? "danger small" : "small";
  return (
    <form ref={form} action={run} onSubmit={onSubmit} className={className ?? "inline-form"} aria-label={label}>
      <RefusedField.Provider value={{ field, errorId }}>{children}</RefusedField.Provider>
      {confirm ? (
        <ConfirmButton className={buttonClass} disabled={pending} {...confirm}>{submit}</ConfirmButton>
      ) : (
        <button type="submit" className={buttonClass} disabled={pending}>{submit}</button>
      )}
      {state.status === "error" ? <span className="form-error" role="alert" id={errorId}>{state.message}</span> : null}
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

/**
 * A labelled input of an admin form with its help in view: the allowed format
 * is said before anyone types (a `pattern`'s `title` only shows in the
 * browser's bubble after a refusal). Marked invalid, and described by the
 * form's message, when the server refused it.
 */
export function AdminField({ label, help, name, ...input }: { label: string; help: string; name: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "name">) {
  const { field, errorId } = useContext(RefusedField);
  const helpId = useId();
  const refused = field === name;
  return (
    <div className="stack-field">
      <label>
        {label}
        <input name={name} {...input} aria-invalid={refused || undefined} aria-describedby={refused ? `${errorId} ${helpId}` : helpId} />
      </label>
      <small className="field-help" id={helpId}>{help}</small>
    </div>
  );
}
