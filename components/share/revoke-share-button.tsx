"use client";
import { useActionState } from "react";
import { revokeShare, type RevokeShareState } from "@/lib/actions/shares";

const IDLE: RevokeShareState = { status: "idle" };

export function RevokeShareButton({ id }: { id: string }) {
  const [state, action, pending] = useActionState(revokeShare, IDLE);
  if (state.status === "revoked") return <span className="muted">revoked</span>;
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="danger small" disabled={pending}>Revoke</button>
      {state.status === "error" ? <span className="form-error" role="alert">{state.message}</span> : null}
    </form>
  );
}
