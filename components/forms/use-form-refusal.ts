"use client";
import { useEffect, useRef, type FormEvent, type RefObject } from "react";

/**
 * What a form does when the server refuses a submission. React resets a
 * form's fields once its action completes, and the submit button was disabled
 * meanwhile, so a refusal left the person with emptied fields and the focus on
 * the page itself: a long directive retyped because the provider was missing.
 * This puts back what was sent and moves the focus to the refused field.
 *
 * `refusal` is null unless `state` is a refusal; `field` is the name of the
 * first refused field, if the server named one. Returns the form's `onSubmit`,
 * which remembers what was sent.
 */
export function useFormRefusal(
  form: RefObject<HTMLFormElement | null>,
  state: unknown,
  refusal: { field?: string | null } | null,
): (event: FormEvent<HTMLFormElement>) => void {
  const sent = useRef<FormData | null>(null);
  const refused = refusal !== null;
  const field = refusal?.field ?? null;
  useEffect(() => {
    const el = form.current;
    if (!refused || !el) return;
    if (sent.current) restore(el, sent.current);
    const target = field ? el.elements.namedItem(field) : null;
    if (target instanceof HTMLElement) target.focus();
    // Once per answer: `state` is a new object each time the action answers.
  }, [form, state, refused, field]);
  return (event) => {
    sent.current = new FormData(event.currentTarget);
  };
}

/** Puts the sent values back into the fields a person edits (not hidden inputs, not buttons). */
function restore(form: HTMLFormElement, data: FormData): void {
  for (const el of Array.from(form.elements)) {
    if (el instanceof HTMLInputElement) {
      if (!el.name || ["hidden", "submit", "button", "reset", "image", "file"].includes(el.type)) continue;
      if (el.type === "checkbox" || el.type === "radio") el.checked = data.getAll(el.name).includes(el.value);
      else el.value = String(data.get(el.name) ?? "");
    } else if ((el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) && el.name) {
      el.value = String(data.get(el.name) ?? "");
    }
  }
}
