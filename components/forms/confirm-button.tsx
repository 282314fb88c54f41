"use client";
import { useId, useRef, type ReactNode } from "react";

interface Props {
  /** The trigger's text, e.g. "Revoke". */
  children: ReactNode;
  /** The question the dialog asks, e.g. "Revoke this key?"; also the dialog's name. */
  question: string;
  /** What happens, and that it cannot be undone. */
  consequence: string;
  /** The confirming button's text, e.g. "Revoke key": says the action again, not "OK". */
  confirm: string;
  /** Sent with the form by the confirming button (the decision form's `action=stop`). */
  name?: string;
  value?: string;
  className?: string;
  disabled?: boolean;
}

/**
 * The one-click-too-easy guard for actions that cannot be undone (stop a run,
 * revoke a link or key, remove a user): the trigger opens a modal `<dialog>`
 * that says what will happen; only its confirming button submits the
 * enclosing form, so the server action, and every check it makes, is the same
 * as before. Focus moves to Cancel (the safe choice), Escape cancels, and
 * focus returns to the trigger when the dialog closes.
 */
export function ConfirmButton({ children, question, consequence, confirm, name, value, className, disabled }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();
  const open = () => {
    // A field the browser would refuse is out of reach behind a modal dialog: say so before asking.
    const form = trigger.current?.form;
    if (form && !form.reportValidity()) return;
    dialog.current?.showModal();
    cancel.current?.focus();
  };
  const close = () => dialog.current?.close();
  return (
    <>
      <button ref={trigger} type="button" className={className} disabled={disabled} aria-haspopup="dialog" onClick={open}>
        {children}
      </button>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby={`${id}-q`} aria-describedby={`${id}-c`} onClose={() => trigger.current?.focus()}>
        <p id={`${id}-q`} className="confirm-question">{question}</p>
        <p id={`${id}-c`} className="confirm-consequence">{consequence}</p>
        <div className="confirm-actions">
          <button ref={cancel} type="button" className="button" onClick={close}>Cancel</button>
          {/* Closing first does not stop the submission: the button stays in the form. */}
          <button type="submit" name={name} value={value} className="button danger" disabled={disabled} onClick={close}>{confirm}</button>
        </div>
      </dialog>
    </>
  );
}
