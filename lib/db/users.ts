import { randomUUID } from "node:crypto";
import { getPrisma } from "./client";
import { hashPassword, hashToken, newToken, verifyPassword } from "@/lib/auth/secrets";
import { parseRole, type Role } from "@/lib/domain/access/roles";

/**
 * Accounts, their browser sessions and one-time sign-in links. Passwords are
 * stored as scrypt hashes, session and link tokens as SHA-256: a copy of the
 * database lets nobody sign in.
 */
export interface UserInfo {
  id: string;
  name: string;
  role: Role;
  email: string | null;
  sso: boolean;
  hasPassword: boolean;
  createdAt: number;
  lastSignInAt: number | null;
  sessions: number;
}

export interface SessionUser {
  sessionId: string;
  userId: string;
  name: string;
  role: Role;
  expiresAt: number;
  /** How this session signed in, and when. */
  method: SignInMethod;
  createdAt: number;
}

/** Sign-in names: what people type and logs show. */
export const USER_NAME_PATTERN = /^[a-z0-9][a-z0-9._@-]{0,63}$/;

export class UserError extends Error {}

/** Sliding session lifetime, `LOOPSCOPE_SESSION_DAYS` (default 14). */
export function sessionLifetimeMs(): number {
  const days = Number(process.env.LOOPSCOPE_SESSION_DAYS ?? 14);
  return (Number.isFinite(days) && days > 0 ? days : 14) * 86_400_000;
}

/** How long a one-time sign-in link stays valid. */
export const SIGN_IN_LINK_MS = 10 * 60_000;
/** A session is pushed forward at most this often (one write per active user per window). */
const SLIDE_EVERY_MS = 5 * 60_000;

function normalizeName(name: string): string {
  const n = name.trim().toLowerCase();
  if (!USER_NAME_PATTERN.test(n)) throw new UserError(`"${name}" is not a valid user name: 1–64 of a-z, 0-9, . _ @ -, starting with a letter or digit`);
  return n;
}

function toRole(value: string): Role {
  return parseRole(value) ?? "viewer";
}

export async function countUsers(): Promise<number> {
  return (await getPrisma()).user.count();
}

/** Creates a user; the password (if any) is hashed here. Throws UserError when the name is taken. */
export async function createUser(input: { name: string; role: Role; password?: string | null; email?: string | null; oidcSubject?: string | null }): Promise<UserInfo> {
  const prisma = await getPrisma();
  const name = normalizeName(input.name);
  if (await prisma.user.findUnique({ where: { name }, select: { id: true } })) throw new UserError(`a user named ${name} already exists`);
  const now = Date.now();
  const row = await prisma.user.create({
    data: {
      id: randomUUID(), name, role: input.role, email: input.email ?? null, oidcSubject: input.oidcSubject ?? null,
      passwordHash: input.password ? await hashPassword(input.password) : null, createdAt: now, updatedAt: now,
    },
  });
  return { id: row.id, name, role: input.role, email: row.email, sso: row.oidcSubject !== null, hasPassword: row.passwordHash !== null, createdAt: now, lastSignInAt: null, sessions: 0 };
}

export async function listUsers(): Promise<UserInfo[]> {
  const prisma = await getPrisma();
  const now = Date.now();
  const rows = await prisma.user.findMany({
    orderBy: { name: "asc" },
    select: { id: true, name: true, role: true, email: true, oidcSubject: true, passwordHash: true, createdAt: true, lastSignInAt: true, _count: { select: { sessions: { where: { expiresAt: { gt: now } } } } } },
  });
  return rows.map((r) => ({
    id: r.id, name: r.name, role: toRole(r.role), email: r.email, sso: r.oidcSubject !== null, hasPassword: r.passwordHash !== null,
    createdAt: r.createdAt, lastSignInAt: r.lastSignInAt, sessions: r._count.sessions,
  }));
}

export async function findUserByName(name: string): Promise<{ id: string; name: string; role: Role } | null> {
  const prisma = await getPrisma();
  const row = await prisma.user.findUnique({ where: { name: name.trim().toLowerCase() }, select: { id: true, name: true, role: true } });
  return row ? { ...row, role: toRole(row.role) } : null;
}

/** Changes a user's role; returns false when there is no such user. Refuses to demote the last admin. */
export async function setUserRole(name: string, role: Role): Promise<boolean> {
  const prisma = await getPrisma();
  const user = await findUserByName(name);
  if (!user) return false;
  if (user.role === "admin" && role !== "admin" && (await prisma.user.count({ where: { role: "admin" } })) <= 1) {
    throw new UserError(`${user.name} is the last admin: make another user admin first`);
  }
  await prisma.user.update({ where: { id: user.id }, data: { role, updatedAt: Date.now() } });
  return true;
}

/**
 * Sets (or replaces) a user's password and ends their other sessions: a
 * session that was stolen or left open does not outlive the change.
 */
export async function setUserPassword(userId: string, password: string, keepSessionId: string | null): Promise<boolean> {
  const prisma = await getPrisma();
  const r = await prisma.user.updateMany({ where: { id: userId }, data: { passwordHash: await hashPassword(password), updatedAt: Date.now() } });
  if (r.count > 0) await prisma.session.deleteMany({ where: { userId, ...(keepSessionId ? { NOT: { id: keepSessionId } } : {}) } });
  return r.count > 0;
}

/** True when the user has no password, or `password` is theirs. */
export async function checkCurrentPassword(userId: string, password: string): Promise<boolean> {
  const prisma = await getPrisma();
  const row = await prisma.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  if (!row) return false;
  return row.passwordHash === null || (await verifyPassword(password, row.passwordHash));
}

/** Removes a user and, with them, every session they had: they are signed out at once. */
export async function removeUser(name: string): Promise<boolean> {
  const prisma = await getPrisma();
  const user = await findUserByName(name);
  if (!user) return false;
  if (user.role === "admin" && (await prisma.user.count({ where: { role: "admin" } })) <= 1) {
    throw new UserError(`${user.name} is the last admin: make another user admin first`);
  }
  await prisma.$transaction([prisma.session.deleteMany({ where: { userId: user.id } }), prisma.user.delete({ where: { id: user.id } })]);
  return true;
}

/** The user a name and password identify, or null (same time spent either way). */
export async function checkPassword(name: string, password: string): Promise<{ id: string; name: string; role: Role } | null> {
  const prisma = await getPrisma();
  const row = await prisma.user.findUnique({ where: { name: name.trim().toLowerCase() }, select: { id: true, name: true, role: true, passwordHash: true } });
  const ok = await verifyPassword(password, row?.passwordHash ?? null);
  return ok && row ? { id: row.id, name: row.name, role: toRole(row.role) } : null;
}

export type SignInMethod = "password" | "link" | "sso";

/** Starts a session for a user; returns the cookie's token (stored only hashed). */
export async function createSession(userId: string, client: string | null, method: SignInMethod = "password"): Promise<{ token: string; expiresAt: number }> {
  const prisma = await getPrisma();
  const token = newToken("lss_");
  const now = Date.now();
  const expiresAt = now + sessionLifetimeMs();
  await prisma.$transaction([
    prisma.session.create({ data: { id: randomUUID(), tokenHash: hashToken(token), userId, createdAt: now, expiresAt, lastSeenAt: now, client: client?.slice(0, 100) ?? null, method } }),
    prisma.user.update({ where: { id: userId }, data: { lastSignInAt: now } }),
    // Expired sessions of anyone are dropped as new ones start: the table holds live sessions only.
    prisma.session.deleteMany({ where: { expiresAt: { lt: now } } }),
  ]);
  return { token, expiresAt };
}

/** The signed-in user of a session token, sliding its expiry; null when unknown or expired. */
export async function findSession(token: string | null | undefined): Promise<SessionUser | null> {
  if (!token || !token.startsWith("lss_") || token.length > 100) return null;
  const prisma = await getPrisma();
  const row = await prisma.session.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, expiresAt: true, lastSeenAt: true, createdAt: true, method: true, user: { select: { id: true, name: true, role: true } } },
  });
  const now = Date.now();
  if (!row || row.expiresAt <= now) return null;
  let expiresAt = row.expiresAt;
  if (now - row.lastSeenAt > SLIDE_EVERY_MS) {
    expiresAt = now + sessionLifetimeMs();
    await prisma.session.updateMany({ where: { id: row.id }, data: { lastSeenAt: now, expiresAt } });
  }
  const method: SignInMethod = row.method === "link" || row.method === "sso" ? row.method : "password";
  return { sessionId: row.id, userId: row.user.id, name: row.user.name, role: toRole(row.user.role), expiresAt, method, createdAt: row.createdAt };
}

/** Ends one session (sign out). */
export async function deleteSession(token: string): Promise<void> {
  const prisma = await getPrisma();
  await prisma.session.deleteMany({ where: { tokenHash: hashToken(token) } });
}

/** Ends every session of a user ("sign out everywhere"); returns how many ended. */
export async function deleteUserSessions(userId: string): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.session.deleteMany({ where: { userId } })).count;
}

/** A one-time sign-in token for a user, valid for 10 minutes. Null when there is no such user. */
export async function createSignInLink(name: string): Promise<{ token: string; expiresAt: number; user: string } | null> {
  const prisma = await getPrisma();
  const user = await findUserByName(name);
  if (!user) return null;
  const token = newToken("lsl_");
  const now = Date.now();
  await prisma.signInLink.create({ data: { id: randomUUID(), tokenHash: hashToken(token), userId: user.id, createdAt: now, expiresAt: now + SIGN_IN_LINK_MS } });
  return { token, expiresAt: now + SIGN_IN_LINK_MS, user: user.name };
}

/**
 * Uses a sign-in link: the user it was made for, once, while it is valid.
 * The update is conditional on `usedAt` being empty, so two clicks at once
 * cannot both sign in.
 */
export async function consumeSignInLink(token: string): Promise<{ id: string; name: string; role: Role } | null> {
  if (!token.startsWith("lsl_") || token.length > 100) return null;
  const prisma = await getPrisma();
  const now = Date.now();
  const tokenHash = hashToken(token);
  const used = await prisma.signInLink.updateMany({ where: { tokenHash, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  if (used.count !== 1) return null;
  const link = await prisma.signInLink.findUnique({ where: { tokenHash }, select: { user: { select: { id: true, name: true, role: true } } } });
  return link ? { ...link.user, role: toRole(link.user.role) } : null;
}

/** True when a sign-in link is still usable (for the confirmation page; does not use it). */
export async function isSignInLinkValid(token: string): Promise<boolean> {
  if (!token.startsWith("lsl_") || token.length > 100) return false;
  const prisma = await getPrisma();
  const n = await prisma.signInLink.count({ where: { tokenHash: hashToken(token), usedAt: null, expiresAt: { gt: Date.now() } } });
  return n === 1;
}

/**
 * The user of an OpenID Connect account (`issuer` + `sub`), created on first
 * sign-in with `defaultRole`. A name already taken locally gets a suffix.
 */
export async function upsertOidcUser(input: { issuer: string; subject: string; preferredName: string; email: string | null; defaultRole: Role }): Promise<{ id: string; name: string; role: Role }> {
  const prisma = await getPrisma();
  const oidcSubject = `${input.issuer} ${input.subject}`;
  const existing = await prisma.user.findUnique({ where: { oidcSubject }, select: { id: true, name: true, role: true } });
  if (existing) return { ...existing, role: toRole(existing.role) };
  const base = (input.preferredName.toLowerCase().replace(/[^a-z0-9._@-]/g, "-").replace(/^[^a-z0-9]+/, "") || "user").slice(0, 56);
  for (let i = 0; i < 50; i++) {
    const name = i === 0 ? base : `${base}-${i + 1}`;
    if (await prisma.user.findUnique({ where: { name }, select: { id: true } })) continue;
    const created = await createUser({ name, role: input.defaultRole, email: input.email, oidcSubject });
    return { id: created.id, name: created.name, role: created.role };
  }
  throw new UserError(`could not find a free user name for ${input.preferredName}`);
}

/** The account page's facts: password set, SSO, email, and the live sessions. */
export async function getAccountOverview(userId: string) {
  const prisma = await getPrisma();
  const [row, sessions] = await Promise.all([
    prisma.user.findUnique({ where: { id: userId }, select: { passwordHash: true, oidcSubject: true, email: true } }),
    prisma.session.findMany({
      where: { userId, expiresAt: { gt: Date.now() } }, orderBy: { lastSeenAt: "desc" },
      select: { id: true, createdAt: true, lastSeenAt: true, expiresAt: true, client: true },
    }),
  ]);
  return { hasPassword: Boolean(row?.passwordHash), sso: Boolean(row?.oidcSubject), email: row?.email ?? null, sessions };
}
