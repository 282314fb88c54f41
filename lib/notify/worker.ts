import { getSql } from "@/lib/db/client";
import { getLinkBaseUrl } from "@/lib/auth/config";
import { defaultSenderOptions, enqueueDueReminders, sendDueNotifications } from "./sender";

/**
 * The server's notification loop (started once per server process from
 * instrumentation.ts): every 250 ms it sends what is due in the outbox; every
 * 30 s it writes the "still waiting" reminders that have come due. Rows are
 * leased, so several servers on one PostgreSQL share the work without
 * sending a row twice; a restart picks up whatever was pending.
 * `LOOPSCOPE_NOTIFY=off` turns it off.
 */
const globalForWorker = globalThis as unknown as { loopscopeNotifier?: { stop(): void } };

export function startNotificationSender(): void {
  if (globalForWorker.loopscopeNotifier || process.env.LOOPSCOPE_NOTIFY === "off") return;
  let busy = false;
  let lastReminders = 0;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const db = await getSql();
      if (Date.now() - lastReminders > 30_000) {
        lastReminders = Date.now();
        await enqueueDueReminders(db);
      }
      await sendDueNotifications(db, defaultSenderOptions(getLinkBaseUrl()));
    } catch (error) {
      console.error(`notifications: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), 250);
  timer.unref();
  globalForWorker.loopscopeNotifier = { stop: () => clearInterval(timer) };
}
