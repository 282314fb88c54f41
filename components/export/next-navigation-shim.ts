import { useMemo, useSyncExternalStore } from "react";

/**
 * `next/navigation` for the exported file, which runs without Next.js: the
 * two hooks the run's sections use (the graph keeps `?node=` in the URL),
 * read from `location` and updated when the page rewrites its URL with
 * `history.replaceState`/`pushState` (Next.js patches them the same way).
 */
const listeners = new Set<() => void>();
let patched = false;

function subscribe(listener: () => void): () => void {
  if (!patched) {
    patched = true;
    for (const name of ["replaceState", "pushState"] as const) {
      const original = window.history[name].bind(window.history);
      window.history[name] = (...args: Parameters<History["replaceState"]>) => {
        original(...args);
        for (const l of listeners) l();
      };
    }
    window.addEventListener("popstate", () => listeners.forEach((l) => l()));
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSearchParams(): URLSearchParams {
  const search = useSyncExternalStore(subscribe, () => window.location.search, () => "");
  return useMemo(() => new URLSearchParams(search), [search]);
}

export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname, () => "/");
}
