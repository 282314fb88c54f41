import { randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { sha256Hex } from "@/lib/domain/protocol/hashes";

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

/**
 * A new secret token: 256 bits from the operating system's CSPRNG, base64url,
 * with a short prefix that tells what it is (`lsh_` share, `lss_` session,
 * `lsl_` sign-in link). Only `hashToken` of it is ever stored.
 */
export function newToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

/** SHA-256 (hex) of a token: high-entropy secrets need no salt or stretching. */
export function hashToken(token: string): string {
  return sha256Hex(token);
}

// scrypt parameters: N=2^15, r=8, p=1 (OWASP's minimum for scrypt is N=2^17 with
// p=1 or N=2^15 with more memory; 2^15·8 = 32 MiB per hash keeps a 2-core server
// responsive while a sign-in is checked).
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

/** Hashes a password with scrypt and a random salt: `scrypt$N$r$p$salt$hash`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password.normalize("NFKC"), salt, KEYLEN, { N, r: R, p: P, maxmem: MAXMEM });
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

/** True when `password` matches a stored `hashPassword` value (constant-time compare). */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? "").split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") {
    // Spend the same time as a real check, so timing does not tell which names exist.
    await scrypt(password, randomBytes(16), KEYLEN, { N, r: R, p: P, maxmem: MAXMEM });
    return false;
  }
  const [, n, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(password.normalize("NFKC"), Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: MAXMEM,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A password must be at least 10 characters and at most 1,024 (no other rule: length beats composition). */
export function checkPasswordStrength(password: string): string | null {
  if (password.length < 10) return "the password needs at least 10 characters";
  if (password.length > 1024) return "the password is longer than 1,024 characters";
  return null;
}
