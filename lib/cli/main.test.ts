import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "./main";

describe("loopscope <command> --help and usage errors", () => {
  let out: string[];
  let err: string[];
  let dir: string;
  const savedUrl = process.env.DATABASE_URL;
  beforeEach(() => {
    out = [];
    err = [];
    dir = mkdtempSync(join(tmpdir(), "loopscope-main-"));
    process.env.DATABASE_URL = `file:${join(dir, "db.sqlite")}`;
    vi.spyOn(console, "log").mockImplementation((m: unknown) => void out.push(String(m)));
    vi.spyOn(console, "error").mockImplementation((m: unknown) => void err.push(String(m)));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.env.DATABASE_URL = savedUrl;
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints each command's own usage for --help (and -h first), exit 0, and does nothing else", async () => {
    for (const command of ["user", "keys", "share", "notify", "hook", "prune", "backup", "serve", "migrate", "ingest", "detect", "export", "up"]) {
      out = [];
      expect(await main([command, "--help"]), command).toBe(0);
      expect(out.join("\n"), command).toMatch(new RegExp(`^usage: loopscope ${command}\\b`));
    }
    expect(await main(["hook", "-h"])).toBe(0);
    // Asking how to migrate does not migrate: no database file appears.
    expect(existsSync(join(dir, "db.sqlite"))).toBe(false);
  });

  it("shows a usage error with the command's usage only, exit 2", async () => {
    expect(await main(["migrate", "--bogus"])).toBe(2);
    const text = err.join("\n");
    expect(text).toMatch(/^loopscope: unknown option --bogus\n\nusage: loopscope migrate\b/);
    expect(text).not.toContain("usage: loopscope ingest");
  });

  it("user names the value it cannot take, and refuses what it would ignore", async () => {
    expect(await main(["user", "add", "carl", "--role", "superuser", "--no-password"])).toBe(2);
    expect(err.join("\n")).toContain('--role "superuser" is no role: one of viewer, operator, admin');
    expect(await main(["user", "set-role", "bob", "king"])).toBe(2);
    expect(err.join("\n")).toContain('"king" is no role');
  });

  it("export into a folder that is not there says so before any work, naming the folder", async () => {
    const missing = join(dir, "no-such-folder");
    expect(await main(["export", "some-run", "-o", join(missing, "run.html")])).toBe(2);
    expect(err.join("\n")).toContain(`folder ${missing} does not exist`);
    expect(existsSync(join(dir, "db.sqlite"))).toBe(false);
  });

  it("migrate says which migrations it applied to a new database, then that it is up to date", async () => {
    expect(await main(["migrate"])).toBe(0);
    expect(out.at(-1)).toMatch(/: applied \d{14}_init, .* \(0 already applied\)$/);
    expect(await main(["migrate"])).toBe(0);
    expect(out.at(-1)).toMatch(/: up to date \(\d+ already applied\)$/);
  });
});
