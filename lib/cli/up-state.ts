import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { createApiKey, verifyApiKey } from "@/lib/db/api-keys";
import { countUsers, createSignInLink, createUser, findUserByName, USER_NAME_PATTERN } from "@/lib/db/users";

/**
 * `.loopscope/` in a project: its SQLite database (unless DATABASE_URL names
 * another), the key that encrypts stored secrets, the agents' API key and who
 * signs in. Readable by its owner only, and it keeps itself out of git.
 */
export function prepareStateDir(projectDir: string): string {
  const dir = join(projectDir, ".loopscope");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const ignore = join(dir, ".gitignore");
  if (!existsSync(ignore)) {
    writeFileSync(ignore, "# Loopscope's database and keys for this project (npx loopscope up): not for version control.\n*\n");
  }
  return dir;
}

/**
 * The agents' API key (scope ingest+control): the one stored in `dir` while
 * the database still accepts it, else a new one, stored 0600. Running `up`
 * again therefore prints the same key.
 */
export async function ensureAgentKey(dir: string): Promise<{ key: string; created: boolean }> {
  const file = join(dir, "agent.key");
  const stored = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
  if (stored && (await verifyApiKey(stored))?.scope === "ingest+control") return { key: stored, created: false };
  const k = await createApiKey("agents (loopscope up)", { scope: "ingest+control", createdBy: `cli:up` });
  writeFileSync(file, `${k.key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { key: k.key, created: true };
}

/** Who signs in: `created` on the first start (an admin with no password), `none` when the database has other people and none of ours. */
export type SignInOwner = { kind: "created" | "known"; name: string } | { kind: "none" };

/**
 * The person running `up` on a project of their own: with nobody in the
 * database yet, an admin named after their system user (signing in only by
 * one-time links printed here, so no password exists to leak), remembered in
 * `dir`. A shared database (DATABASE_URL) that already has people gets none.
 */
export async function ensureOwner(dir: string): Promise<SignInOwner> {
  const file = join(dir, "owner");
  const remembered = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
  if (remembered && (await findUserByName(remembered))) return { kind: "known", name: remembered };
  if ((await countUsers()) > 0) return { kind: "none" };
  const user = await createUser({ name: pickOwnerName(), role: "admin", password: null });
  writeFileSync(file, `${user.name}\n`, { mode: 0o600 });
  return { kind: "created", name: user.name };
}

/** The system user's name when it is a valid Loopscope user name, else `owner`. */
function pickOwnerName(): string {
  let name = "";
  try {
    name = userInfo().username.toLowerCase();
  } catch {
    // No passwd entry (some containers).
  }
  return USER_NAME_PATTERN.test(name) ? name : "owner";
}

/** A one-time sign-in link (10 minutes) for `name` on `baseUrl`. */
export async function makeSignInLink(baseUrl: string, name: string): Promise<string | null> {
  const link = await createSignInLink(name);
  return link ? `${baseUrl}/sign-in/link/${link.token}` : null;
}
