"use client";
import { useActionState } from "react";
import { revokeShare, type RevokeShareState } from "@/lib/actions/shares";
import { ConfirmButton } from "@/components/forms/confirm-button";

const IDLE: RevokeShareState = { status: "idle" };

/** Revokes one share link, after a confirm step: a revoked link cannot be restored. */
export function RevokeShareButton({ id }: { id: string }) {
  const [state, action, pending] = useActionState(revokeShare, IDLE);
  if (state.status === "revoked") return <span className="muted">revoked</span>;
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="id" value={id} />
      <ConfirmButton
        className="danger small"
        disabled={pending}
        question="Revoke this share link?"
        consequence="Whoever has it is told it no longer works, from the next opening on. A revoked link cannot be restored; make a new one if needed."
        confirm="Revoke link"
      >
        Revoke
      </ConfirmButton>
      {state.status === "error" ? <span className="form-error" role="alert">{state.message}</span> : null}
    </form>
  );
}
