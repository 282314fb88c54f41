"use client";

import { useActionState, useId, useRef } from "react";
import { decideRun } from "@/lib/actions/decisions";
import type { DecisionFormState } from "@/lib/actions/decision-input";
import { DECISION_ACTIONS, type DecisionAction } from "@/lib/client/types";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { useFormRefusal } from "@/components/forms/use-form-refusal";
import { DECISION_LABELS } from "./decision-labels";

const IDLE: DecisionFormState = { status: "idle" };

/** The form's fields in page order: the first one the server refused gets the focus. */
const FIELDS = ["directive", "iterations", "turns", "steps", "provider"] as const;

interface Props {
  runId: string;
  /** The halt being decided; null when the run does not wait. */
  haltKey: string | null;
  suggested: DecisionAction[];
}

/**
 * The decision: a directive for the agent, extra budget, and one button per
 * action. Stays mounted when the run stops waiting, so that the answer to the
 * submission (e.g. "already decided by Ada") is still shown after the page
 * refreshes.
 */
export function DecisionForm({ runId, haltKey, suggested }: Props) {
  const [state, action, pending] = useActionState(decideRun, IDLE);
  const answered = state.status === "decided" || state.status === "already_decided" ? state.haltKey : null;
  const showForm = haltKey !== null && answered !== haltKey;
  const form = useRef<HTMLFormElement>(null);
  const errorId = useId();
  const fieldErrors = state.status === "error" ? state.fieldErrors ?? {} : {};
  const onSubmit = useFormRefusal(form, state, state.status === "error" ? { field: FIELDS.find((f) => fieldErrors[f]) } : null);
  /** Marks a field the server refused and points it at the message saying why. */
  const invalid = (field: (typeof FIELDS)[number]) =>
    fieldErrors[field] ? { "aria-invalid": true, "aria-describedby": errorId } : {};
  return (
    <>
      <Outcome state={state} current={haltKey} errorId={errorId} />
      {showForm ? (
        <form ref={form} action={action} onSubmit={onSubmit} className="decision-form" aria-label="Decide">
          <input type="hidden" name="runId" value={runId} />
          <input type="hidden" name="haltKey" value={haltKey} />
          <label className="directive-field">
            Directive for the agent
            <textarea name="directive" {...invalid("directive")} rows={2} maxLength={4000} placeholder="e.g. stop researching; implement the parser" />
          </label>
          <fieldset className="budget-fields">
            <legend>Extra budget when it goes on</legend>
            <label>+ iterations <input type="number" name="iterations" {...invalid("iterations")} min={0} max={1000} step={1} inputMode="numeric" /></label>
            <label>+ turns per node <input type="number" name="turns" {...invalid("turns")} min={0} max={1000} step={1} inputMode="numeric" /></label>
            <label>+ steps <input type="number" name="steps" {...invalid("steps")} min={0} max={1000} step={1} inputMode="numeric" /></label>
            <label>Provider (for a retry) <input name="provider" {...invalid("provider")} maxLength={100} placeholder="e.g. claude-sonnet" /></label>
          </fieldset>
          <div className="decision-actions">
            {DECISION_ACTIONS.map((a) => a === "stop" ? (
              // Stopping ends the run for good; every other decision lets it go on, so it stays one click.
              <ConfirmButton
                key={a}
                name="action"
                value={a}
                disabled={pending}
                className="button danger"
                question="Stop this run?"
                consequence="The agent is told to stop, and the run ends as aborted. This cannot be undone."
                confirm="Stop run"
              >
                {DECISION_LABELS[a]}
              </ConfirmButton>
            ) : (
              <button
                key={a}
                type="submit"
                name="action"
                value={a}
                disabled={pending}
                className={`button${a === "resume" ? " primary" : ""}${suggested.includes(a) ? " suggested" : ""}`}
                title={suggested.includes(a) ? "suggested by the detector" : undefined}
              >
                {DECISION_LABELS[a]}
              </button>
            ))}
          </div>
        </form>
      ) : null}
    </>
  );
}

function Outcome({ state, current, errorId }: { state: DecisionFormState; current: string | null; errorId: string }) {
  if (state.status === "error") return <p role="alert" className="form-error" id={errorId}>{state.message}</p>;
  if (state.status === "idle") return null;
  // An answer about an earlier halt is history once the run waits on a new one.
  if (current !== null && state.haltKey !== current) return null;
  const label = DECISION_LABELS[state.action] ?? state.action;
  if (state.status === "already_decided") {
    return (
      <p role="alert" className="form-error">
        Already decided by <strong>{state.by}</strong> ({label}) at {state.decidedAt.slice(11, 19)} UTC: your decision was not applied.
      </p>
    );
  }
  return <p role="status" className="form-ok">Decided: {label}. The runtime gets it on its next poll; the history below shows when it applied it.</p>;
}
