"use client";

import { useActionState, useTransition, type FormEvent } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * `useActionState` for a form whose fields must survive submission. React
 * resets a `<form action>` after its action runs, which would throw away the
 * thresholds a person just typed; submitting through a transition does not.
 */
export function useFormAction<S>(action: (state: Awaited<S>, form: FormData) => S | Promise<S>, initial: Awaited<S>) {
  const [state, dispatch, acting] = useActionState(action, initial);
  const [transitioning, startTransition] = useTransition();
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    startTransition(() => dispatch(data));
  };
  // Until hydration a submit would be a plain page reload; `ready` gates the submit button.
  const ready = useHydrated();
  return { state, onSubmit, pending: acting || transitioning, ready };
}
