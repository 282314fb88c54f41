"use client";

import { useActionState, useState } from "react";
import { saveUserName } from "@/lib/actions/decisions";
import type { UserNameFormState } from "@/lib/actions/decision-input";

const IDLE: UserNameFormState = { status: "idle" };

/** "Deciding as <name>": the name others see on this browser's decisions (kept in a cookie; there is no login yet). */
export function UserNameForm({ name }: { name: string }) {
  const [editing, setEditing] = useState(false);
  const [state, action, pending] = useActionState(async (prev: UserNameFormState, form: FormData) => {
    const next = await saveUserName(prev, form);
    if (next.status === "saved") setEditing(false);
    return next;
  }, IDLE);
  if (!editing) {
    return (
      <p className="user-name">
        Deciding as <strong data-testid="user-name">{name}</strong>{" "}
        <button type="button" className="link-button" onClick={() => setEditing(true)}>
          {name === "anonymous" ? "Enter your name" : "Change"}
        </button>
      </p>
    );
  }
  return (
    <form action={action} className="user-name" aria-label="Name to decide under">
      <label>
        Your name <input name="name" defaultValue={name === "anonymous" ? "" : name} maxLength={60} required autoFocus />
      </label>{" "}
      <button type="submit" className="button" disabled={pending}>Save</button>{" "}
      <button type="button" className="link-button" onClick={() => setEditing(false)}>Cancel</button>
      {state.status === "error" ? <span role="alert" className="form-error"> {state.message}</span> : null}
    </form>
  );
}
