/**
 * Runs once when a server process starts (Next.js instrumentation): the
 * notification sender lives in the server, next to the outbox it drains, and
 * so does the daily prune that LOOPSCOPE_RETENTION_DAYS asks for.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startNotificationSender } = await import("./lib/notify/worker");
  startNotificationSender();
  const { startRetentionWorker } = await import("./lib/db/retention");
  startRetentionWorker();
}
