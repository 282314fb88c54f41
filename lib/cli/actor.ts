import { userInfo } from "node:os";

/**
 * Who acts from the command line, as keys, share links and channels record
 * it ("created by"): `cli:` and the login name, from the environment or,
 * where it is not set (cron, containers), the operating system's account.
 */
export function cliActor(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return `cli:${env.USER || env.LOGNAME || accountName() || "unknown"}`;
}

function accountName(): string | null {
  try {
    return userInfo().username || null;
  } catch {
    // No passwd entry for this uid (some containers).
    return null;
  }
}
