import { randomUUID } from "node:crypto";
import { getPrisma, getSql } from "./client";
import { hashToken, newToken } from "@/lib/auth/secrets";

/**
 * API keys for the machine routes. A key has a scope: `ingest` writes events
 * (POST /api/ingest, POST /v1/traces); `ingest+control` also reads and
 * acknowledges decisions (the control API). Only the SHA-256 of a key is
 * stored; a revoked or expired key fails from the next request on.
 */
export const API_KEY_SCOPES = ["ingest", "ingest+control"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export interface CreatedApiKey {
  id: string;
  name: string;
  prefix: string;
  scope: ApiKeyScope;
  expiresAt: number | null;
  /** The key itself: shown once, never stored. */
  key: string;
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  scope: ApiKeyScope;
  createdAt: number;
  createdBy: string | null;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
  revokedBy: string | null;
}


export function parseApiKeyScope(value: unknown): ApiKeyScope | null {
  return typeof value === "string" && (API_KEY_SCOPES as readonly string[]).includes(value) ? (value as ApiKeyScope) : null;
}

function toInfo<T extends { scope: string }>(row: T): T & { scope: ApiKeyScope } {
  return { ...row, scope: parseApiKeyScope(row.scope) ?? "ingest" };
}

/** Creates an API key; only its SHA-256 is stored. */
export async function createApiKey(name: string, opts: { scope?: ApiKeyScope; expiresAt?: number | null; createdBy?: string | null } = {}): Promise<CreatedApiKey> {
  const prisma = await getPrisma();
  const key = newToken("lsk_");
  const prefix = key.slice(0, 10);
  const id = randomUUID();
  const scope = opts.scope ?? "ingest";
  const expiresAt = opts.expiresAt ?? null;
  await prisma.apiKey.create({ data: { id, name, prefix, hash: hashToken(key), scope, expiresAt, createdBy: opts.createdBy ?? null, createdAt: Date.now() } });
  return { id, name, prefix, scope, expiresAt, key };
}

/** The key's record when it is valid (exists, not revoked, not expired); marks it used. */
export async function verifyApiKey(key: string | null | undefined): Promise<ApiKeyInfo | null> {
  if (!key || !key.startsWith("lsk_") || key.length > 200) return null;
  // Every machine request asks this: a prepared statement on the raw handle, since a Prisma
  // query cost about a tenth of an ingest request's CPU under load (npm run bench:load).
  const sql = await getSql();
  const row = await sql.get<ApiKeyInfo>(
    `SELECT "id","name","prefix","scope","createdAt","createdBy","expiresAt","lastUsedAt","revokedAt","revokedBy" FROM "ApiKey" WHERE "hash" = ?`,
    [hashToken(key)],
  );
  const now = Date.now();
  if (!row || row.revokedAt !== null || (row.expiresAt !== null && row.expiresAt <= now)) return null;
  // Recording use at most once a minute keeps a busy agent from writing on every request.
  if (row.lastUsedAt === null || now - row.lastUsedAt > 60_000) {
    const prisma = await getPrisma();
    await prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return toInfo(row);
}

export async function listApiKeys(): Promise<ApiKeyInfo[]> {
  const prisma = await getPrisma();
  return (await prisma.apiKey.findMany({ omit: { hash: true }, orderBy: { createdAt: "asc" } })).map(toInfo);
}

/** Revokes a key by id or by its printed prefix (when it names one active key only); returns how many were revoked. */
export async function revokeApiKey(idOrPrefix: string, by: string | null = null): Promise<number> {
  const prisma = await getPrisma();
  const matches = await prisma.apiKey.count({ where: { OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }], revokedAt: null } });
  if (matches > 1) throw new Error(`${idOrPrefix} is the prefix of ${matches} active keys: revoke by id (\`loopscope keys list\`)`);
  const r = await prisma.apiKey.updateMany({
    where: { OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }], revokedAt: null },
    data: { revokedAt: Date.now(), revokedBy: by },
  });
  return r.count;
}
