"use client";
import { useActionState } from "react";
import { createShare, type CreateShareState } from "@/lib/actions/shares";
import { formatInstant } from "@/lib/format/values";
import { CopyButton } from "./copy-button";

const IDLE: CreateShareState = { status: "idle" };

export function CreateShareForm({ runId }: { runId: string }) {
  const [state, action, pending] = useActionState(createShare, IDLE);
  return (
    <>
      <form action={action} className="share-form" aria-label="Create a share link">
        <input type="hidden" name="runId" value={runId} />
        <label>
          Expires after
          <select name="days" defaultValue="7">
            <option value="1">1 day</option>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
            <option value="90">90 days (longest)</option>
          </select>
        </label>
        <label className="checkbox">
          <input type="checkbox" name="redact" /> Redact payloads, stderr, diffs and file contents
        </label>
        <button type="submit" className="primary" disabled={pending}>{pending ? "Creating…" : "Create link"}</button>
      </form>
      {state.status === "error" ? <p className="form-error" role="alert">{state.message}</p> : null}
      {state.status === "created" ? (
        <div className="share-created" role="status">
          <p>Link created{state.redact ? " (redacted)" : ""}, valid until {formatInstant(state.expiresAt)} UTC. It is shown only now: copy it.</p>
          <div className="share-url">
            <input readOnly value={state.url} aria-label="Share link" data-testid="share-url" />
            <CopyButton text={state.url} />
          </div>
        </div>
      ) : null}
    </>
  );
}
