"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

let browserClient: QueryClient | null = null;

function getQueryClient(): QueryClient {
  const make = () =>
    new QueryClient({ defaultOptions: { queries: { staleTime: 60_000, retry: 1, refetchOnWindowFocus: false } } });
  // One client per browser tab (shared by the history's live rows and the timeline); a fresh one per server render.
  if (typeof window === "undefined") return make();
  browserClient ??= make();
  return browserClient;
}

/** TanStack Query for the client islands of the runs pages (live rows, the timeline). */
export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(getQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
