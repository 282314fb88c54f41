import { userInfo } from "node:os";
import { getLinkBaseUrl, getPublicUrl } from "@/lib/auth/config";

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

/**
 * The base of a link printed for a person to open. Without LOOPSCOPE_URL the
 * command line cannot know the dashboard's address, so it says which one it
 * assumed (on stderr: stdout stays the link alone, for scripts).
 */
export function linkBaseForPeople(): string {
  const base = getLinkBaseUrl();
  if (getPublicUrl() === null) console.error(`(LOOPSCOPE_URL is not set: the link assumes the dashboard at ${base}; set LOOPSCOPE_URL to the address people open)`);
  return base;
}
