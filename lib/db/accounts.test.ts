import { describe, expect, it } from "vitest";
import { getPrisma } from "./client";
import { testDatabaseKinds } from "./testing/test-databases";
import { useAppDatabase } from "./testing/app-database";
import {
  checkPassword, consumeSignInLink, createSession, createSignInLink, createUser, deleteUserSessions, findSession,
  isSignInLinkValid, removeUser, setUserRole, upsertOidcUser, UserError,
} from "./users";
import { createApiKey, revokeApiKey, verifyApiKey } from "./api-keys";
import { createShareLink, findShareLinkId, listShareLinks, parseShareExpiry, resolveShareToken, revokeShareLink, ShareError } from "./share-links";

const kinds = await testDatabaseKinds();

describe.each(kinds)("accounts, sessions, keys and share links (%s)", (kind) => {
  const db = useAppDatabase(kind);

  it("signs in with the right password only, and keeps the last admin", async () => {
    const ada = await createUser({ name: "Ada", role: "admin", password: "correct horse battery" });
    expect(ada.name).toBe("ada");
    await expect(createUser({ name: "ada", role: "viewer" })).rejects.toThrow(UserError);
    await expect(createUser({ name: "../etc", role: "viewer" })).rejects.toThrow(/not a valid user name/);
    expect(await checkPassword("ADA", "correct horse battery")).toMatchObject({ name: "ada", role: "admin" });
    expect(await checkPassword("ada", "wrong")).toBeNull();
    expect(await checkPassword("nobody", "correct horse battery")).toBeNull();
    await expect(setUserRole("ada", "viewer")).rejects.toThrow(/last admin/);
    await expect(removeUser("ada")).rejects.toThrow(/last admin/);
  });

  it("sessions expire, slide, and end with sign out everywhere and with the user", async () => {
    const bob = await createUser({ name: "bob", role: "operator", password: "bob's long password" });
    const s1 = await createSession(bob.id, "Chrome on Linux");
    const s2 = await createSession(bob.id, "Firefox on macOS");
    expect(await findSession(s1.token)).toMatchObject({ name: "bob", role: "operator" });
    expect(await findSession(`${s1.token}x`)).toBeNull();
    expect(await findSession("lss_forged")).toBeNull();
    // Expired: gone. Stale lastSeenAt: pushed forward.
    const prisma = await getPrisma();
    const day = 86_400_000;
    await prisma.session.updateMany({ where: { userId: bob.id }, data: { lastSeenAt: Date.now() - day, expiresAt: Date.now() + day } });
    const slid = await findSession(s2.token);
    expect(slid!.expiresAt).toBeGreaterThan(Date.now() + 13 * day);
    await prisma.session.updateMany({ where: { userId: bob.id, NOT: { expiresAt: slid!.expiresAt } }, data: { expiresAt: Date.now() - 1 } });
    expect(await findSession(s1.token)).toBeNull();
    expect(await deleteUserSessions(bob.id)).toBeGreaterThanOrEqual(1);
    expect(await findSession(s2.token)).toBeNull();
    const s3 = await createSession(bob.id, null);
    expect(await removeUser("bob")).toBe(true);
    expect(await findSession(s3.token)).toBeNull();
  });

  it("a sign-in link works once and only while valid", async () => {
    await createUser({ name: "cy", role: "viewer" });
    const link = (await createSignInLink("cy"))!;
    expect(await isSignInLinkValid(link.token)).toBe(true);
    const [a, b] = await Promise.all([consumeSignInLink(link.token), consumeSignInLink(link.token)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await consumeSignInLink(link.token)).toBeNull();
    const late = (await createSignInLink("cy"))!;
    await (await getPrisma()).signInLink.updateMany({ where: { usedAt: null }, data: { expiresAt: Date.now() - 1 } });
    expect(await consumeSignInLink(late.token)).toBeNull();
    expect(await createSignInLink("nobody")).toBeNull();
  });

  it("an SSO account maps to one user; a taken name gets a suffix", async () => {
    await createUser({ name: "dana", role: "admin" });
    const first = await upsertOidcUser({ issuer: "http://idp", subject: "s1", preferredName: "Dana", email: "d@x", defaultRole: "viewer" });
    expect(first).toMatchObject({ name: "dana-2", role: "viewer" });
    expect(await upsertOidcUser({ issuer: "http://idp", subject: "s1", preferredName: "renamed", email: null, defaultRole: "admin" })).toEqual(first);
  });

  it("API keys: scope, expiry and revocation hold from the next request", async () => {
    const k = await createApiKey("agent", { scope: "ingest" });
    expect(await verifyApiKey(k.key)).toMatchObject({ scope: "ingest", name: "agent" });
    const old = await createApiKey("old", { scope: "ingest+control", expiresAt: Date.now() - 1 });
    expect(await verifyApiKey(old.key)).toBeNull();
    expect(await revokeApiKey(k.prefix, "ada")).toBe(1);
    expect(await verifyApiKey(k.key)).toBeNull();
  });

  it("share links: one run, expiring within 90 days, revocable, found by token, URL or id", async () => {
    const t = db();
    await t.db.run(`INSERT INTO "Run" ("id","format","createdAt","updatedAt") VALUES ('run-a','protocol',0,0)`);
    expect(() => parseShareExpiry("91d")).toThrow(ShareError);
    expect(parseShareExpiry(undefined)).toBe(7 * 86_400_000);
    expect(parseShareExpiry("36h")).toBe(36 * 3_600_000);
    expect(await createShareLink({ runId: "no-such-run", createdBy: "ada", expiresInMs: 1000, redact: false })).toBeNull();
    const made = (await createShareLink({ runId: "run-a", createdBy: "ada", expiresInMs: 60_000, redact: true }))!;
    expect(made.token).toMatch(/^lsh_[A-Za-z0-9_-]{43}$/);
    expect(await resolveShareToken(made.token)).toMatchObject({ runId: "run-a", redact: true });
    expect(await resolveShareToken(made.token.slice(0, -1))).toBeNull();
    expect(await findShareLinkId(`https://ls.example/share/${made.token}`)).toBe(made.link.id);
    expect(await findShareLinkId(made.link.id)).toBe(made.link.id);
    expect((await listShareLinks()).map((l) => l.id)).toContain(made.link.id);
    expect(await revokeShareLink(made.link.id, "ada")).toBe(true);
    expect(await revokeShareLink(made.link.id, "ada")).toBe(false);
    expect(await resolveShareToken(made.token)).toBeNull();
    const expired = (await createShareLink({ runId: "run-a", createdBy: "ada", expiresInMs: 60_000, redact: false }))!;
    await (await getPrisma()).shareLink.updateMany({ where: { id: expired.link.id }, data: { expiresAt: Date.now() - 1 } });
    expect(await resolveShareToken(expired.token)).toBeNull();
    expect((await listShareLinks()).map((l) => l.id)).not.toContain(expired.link.id);
  });
});
