/**
 * Lets other work of the process run (requests, long-polls, ingest). On SQLite
 * every query is synchronous, so a loop over thousands of runs would otherwise
 * hold the event loop for its whole duration.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
