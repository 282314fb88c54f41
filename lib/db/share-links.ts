import { randomUUID } from "node:crypto";
import { getPrisma } from "./client";
import { hashToken, newToken } from "@/lib/auth/secrets";
import { parseDurationMs } from "@/lib/format/values";

/**
 * Share links: one run, read-only, expiring, revocable, optionally redacted,
 * with an access log. The token (256 random bits) is shown once; only its
 * SHA-256 is stored, so neither the database nor its backups can open a link.
 */
export const SHARE_DEFAULT_DAYS = 7;
export const SHARE_MAX_DAYS = 90;
export const SHARE_TOKEN_PREFIX = "lsh_";

export interface ShareLinkInfo {
  id: string;
  runId: string;
  runTitle: string | null;
  createdBy: string | null;
  createdById: string | null;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  revokedBy: string | null;
  redact: boolean;
  lastOpenedAt: number | null;
  openCount: number;
}

export interface ShareAccessInfo {
  at: number;
  browser: string;
  client: string;
}

/** What a valid token opens: the run and whether payloads are withheld. */
export interface ShareGrant {
  linkId: string;
  runId: string;
  redact: boolean;
  expiresAt: number;
}

export class ShareError extends Error {}

/** "7d", "12h", "90d" → milliseconds; throws ShareError past 90 days or when unreadable. */
export function parseShareExpiry(value: string | undefined): number {
  if (value === undefined || value === "") return SHARE_DEFAULT_DAYS * 86_400_000;
  const ms = parseDurationMs(value);
  if (ms === null) throw new ShareError(`expiry "${value}" is not a duration such as 7d, 36h or 90d`);
  if (ms < 60_000) throw new ShareError("a share link lives at least one minute");
  if (ms > SHARE_MAX_DAYS * 86_400_000) throw new ShareError(`a share link expires within ${SHARE_MAX_DAYS} days at most`);
  return ms;
}

/** Creates a link to one run; returns the token (shown once). Null when the run does not exist. */
export async function createShareLink(input: { runId: string; createdBy: string; createdById?: string | null; expiresInMs: number; redact: boolean }): Promise<{ token: string; link: ShareLinkInfo } | null> {
  const prisma = await getPrisma();
  const run = await prisma.run.findUnique({ where: { id: input.runId }, select: { id: true, title: true } });
  if (!run) return null;
  if (input.expiresInMs > SHARE_MAX_DAYS * 86_400_000) throw new ShareError(`a share link expires within ${SHARE_MAX_DAYS} days at most`);
  const token = newToken(SHARE_TOKEN_PREFIX);
  const now = Date.now();
  const row = await prisma.shareLink.create({
    data: {
      id: randomUUID(), tokenHash: hashToken(token), runId: run.id, createdBy: input.createdBy, createdById: input.createdById ?? null,
      createdAt: now, expiresAt: now + input.expiresInMs, redact: input.redact,
    },
  });
  return { token, link: { ...row, runTitle: run.title } };
}

/**
 * The run a share token opens, or null when the token is unknown, revoked or
 * expired: checked on every request, so a revocation holds from the next one.
 */
export async function resolveShareToken(token: string | null | undefined): Promise<ShareGrant | null> {
  if (!token || !token.startsWith(SHARE_TOKEN_PREFIX) || token.length > 100) return null;
  const prisma = await getPrisma();
  const row = await prisma.shareLink.findUnique({ where: { tokenHash: hashToken(token) }, select: { id: true, runId: true, redact: true, expiresAt: true, revokedAt: true } });
  if (!row || row.revokedAt !== null || row.expiresAt <= Date.now()) return null;
  return { linkId: row.id, runId: row.runId, redact: row.redact, expiresAt: row.expiresAt };
}

/** Records one opening of the share page (coarse client only). */
export async function recordShareAccess(linkId: string, browser: string, client: string): Promise<void> {
  const prisma = await getPrisma();
  const now = Date.now();
  await prisma.$transaction([
    prisma.shareAccess.create({ data: { shareLinkId: linkId, at: now, browser: browser.slice(0, 60), client: client.slice(0, 40) } }),
    prisma.shareLink.update({ where: { id: linkId }, data: { lastOpenedAt: now, openCount: { increment: 1 } } }),
  ]);
}

/** Share links, newest first: active only unless `all`; only one user's unless `createdById` is null. */
export async function listShareLinks(opts: { all?: boolean; createdById?: string | null; runId?: string } = {}): Promise<ShareLinkInfo[]> {
  const prisma = await getPrisma();
  const now = Date.now();
  const rows = await prisma.shareLink.findMany({
    where: {
      ...(opts.all ? {} : { revokedAt: null, expiresAt: { gt: now } }),
      ...(opts.createdById ? { createdById: opts.createdById } : {}),
      ...(opts.runId ? { runId: opts.runId } : {}),
    },
    orderBy: { createdAt: "desc" },
    take: 500,
    omit: { tokenHash: true },
    include: { run: { select: { title: true } } },
  });
  return rows.map(({ run, ...r }) => ({ ...r, runTitle: run.title }));
}

/** The access log of a link, newest first. */
export async function listShareAccesses(linkId: string, limit = 50): Promise<ShareAccessInfo[]> {
  const prisma = await getPrisma();
  return prisma.shareAccess.findMany({ where: { shareLinkId: linkId }, orderBy: { at: "desc" }, take: limit, select: { at: true, browser: true, client: true } });
}

/** A link by id (for permission checks before revoking). */
export async function getShareLink(id: string): Promise<ShareLinkInfo | null> {
  const prisma = await getPrisma();
  const row = await prisma.shareLink.findUnique({ where: { id }, omit: { tokenHash: true }, include: { run: { select: { title: true } } } });
  if (!row) return null;
  const { run, ...r } = row;
  return { ...r, runTitle: run.title };
}

/**
 * The id of the link a token, a share URL or an id names (for `share revoke`
 * and the revoke button).
 */
export async function findShareLinkId(tokenUrlOrId: string): Promise<string | null> {
  const prisma = await getPrisma();
  const s = tokenUrlOrId.trim();
  const token = /(?:^|\/share\/)(lsh_[A-Za-z0-9_-]+)/.exec(s)?.[1];
  const row = token
    ? await prisma.shareLink.findUnique({ where: { tokenHash: hashToken(token) }, select: { id: true } })
    : await prisma.shareLink.findUnique({ where: { id: s }, select: { id: true } });
  return row?.id ?? null;
}

/** Revokes a link; returns false when it was unknown or already revoked. */
export async function revokeShareLink(id: string, by: string): Promise<boolean> {
  const prisma = await getPrisma();
  const r = await prisma.shareLink.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: Date.now(), revokedBy: by } });
  return r.count === 1;
}
