import { createHash, randomBytes, randomUUID } from "node:crypto";
import { getPrisma } from "./client";

export interface CreatedApiKey {
  id: string;
  name: string;
  prefix: string;
  /** The key itself: shown once, never stored. */
  key: string;
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

/** Creates an ingest API key; only its SHA-256 is stored. */
export async function createApiKey(name: string): Promise<CreatedApiKey> {
  const prisma = await getPrisma();
  const key = `lsk_${randomBytes(24).toString("base64url")}`;
  const prefix = key.slice(0, 10);
  const id = randomUUID();
  await prisma.apiKey.create({ data: { id, name, prefix, hash: hashKey(key), createdAt: Date.now() } });
  return { id, name, prefix, key };
}

/** The key's record when it is valid (exists and not revoked); marks it used. */
export async function verifyApiKey(key: string | null | undefined): Promise<ApiKeyInfo | null> {
  if (!key || !key.startsWith("lsk_") || key.length > 200) return null;
  const prisma = await getPrisma();
  const row = await prisma.apiKey.findUnique({ where: { hash: hashKey(key) }, omit: { hash: true } });
  if (!row || row.revokedAt !== null) return null;
  const now = Date.now();
  // Recording use at most once a minute keeps a busy agent from writing on every request.
  if (row.lastUsedAt === null || now - row.lastUsedAt > 60_000) {
    await prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return row;
}

export async function listApiKeys(): Promise<ApiKeyInfo[]> {
  const prisma = await getPrisma();
  return prisma.apiKey.findMany({ omit: { hash: true }, orderBy: { createdAt: "asc" } });
}

/** Revokes a key by id or by its printed prefix; returns how many were revoked. */
export async function revokeApiKey(idOrPrefix: string): Promise<number> {
  const prisma = await getPrisma();
  const r = await prisma.apiKey.updateMany({
    where: { OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }], revokedAt: null },
    data: { revokedAt: Date.now() },
  });
  return r.count;
}
