"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => undefined;

/**
 * False while the server renders and React hydrates, true after: controls
 * rendered by the server do nothing until then, so they are disabled rather
 * than silently ignoring a choice made in that moment.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}
