import { describe, expect, it } from "vitest";
import { checkPasswordStrength, hashPassword, hashToken, newToken, verifyPassword } from "./secrets";

describe("secrets", () => {
  it("tokens carry 256 random bits and are stored only as a hash", () => {
    const a = newToken("lsh_");
    const b = newToken("lsh_");
    expect(a).toMatch(/^lsh_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).not.toContain(a.slice(4, 20));
  });
  it("hashes passwords with scrypt and a salt, and verifies them", async () => {
    const h1 = await hashPassword("correct horse battery");
    const h2 = await hashPassword("correct horse battery");
    expect(h1).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(h1).not.toBe(h2);
    expect(h1).not.toContain("correct");
    expect(await verifyPassword("correct horse battery", h1)).toBe(true);
    expect(await verifyPassword("correct horse batterY", h1)).toBe(false);
    expect(await verifyPassword("anything", null)).toBe(false);
    expect(await verifyPassword("anything", "plain")).toBe(false);
  });
  it("asks for length, not composition", () => {
    expect(checkPasswordStrength("short")).toMatch(/10 characters/);
    expect(checkPasswordStrength("long enough pass")).toBeNull();
  });
});
