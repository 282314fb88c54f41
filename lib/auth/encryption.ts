import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Encryption at rest for secrets Loopscope must use again (a webhook's signing
 * secret, a Slack webhook URL): AES-256-GCM under a key kept outside the
 * database. The key comes from `LOOPSCOPE_SECRET_KEY` (32 bytes as base64 or
 * hex; required when several servers share a PostgreSQL database), else from
 * the file `LOOPSCOPE_SECRET_KEY_FILE` (default `data/secret.key`), created on
 * first use, readable by its owner only. A dump of the database alone opens
 * nothing.
 */
let cached: Buffer | null = null;

function loadKey(): Buffer {
  if (cached) return cached;
  const env = process.env.LOOPSCOPE_SECRET_KEY?.trim();
  if (env) {
    const key = /^[0-9a-f]{64}$/i.test(env) ? Buffer.from(env, "hex") : Buffer.from(env, "base64");
    if (key.length !== 32) throw new Error("LOOPSCOPE_SECRET_KEY must be 32 bytes, as 64 hex digits or base64");
    return (cached = key);
  }
  const file = resolve(/* turbopackIgnore: true */ process.env.LOOPSCOPE_SECRET_KEY_FILE ?? "data/secret.key");
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return (cached = key);
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", loadKey(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

export function decryptSecret(sealed: string): string {
  const [v, iv, tag, data] = sealed.split(".");
  if (v !== "v1" || !iv || !tag || data === undefined) throw new Error("not an encrypted secret");
  const decipher = createDecipheriv("aes-256-gcm", loadKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
