import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiKey, verifyApiKey } from "@/lib/db/api-keys";
import { closeDb } from "@/lib/db/client";
import { createSqliteTestDb, type TestDatabase } from "@/lib/db/testing/test-databases";
import { readInstalledHookEnv } from "@/lib/domain/claude-hook/hook-settings";
import { UsageError } from "./args";
import { runHookInstall } from "./hook-install";
import type { HookEnv } from "./hook-state";

/** A project's settings with a person's own permissions, env and hooks. */
const MINE = {
  permissions: { allow: ["Bash(mix test:*)"] },
  env: { MIX_ENV: "test" },
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/scripts/pre-commit.sh" }] }] },
};

describe("loopscope hook install claude-code", () => {
  let root: string;
  let project: string;
  let home: string;
  let env: HookEnv;
  const read = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const projectSettings = () => join(project, ".claude", "settings.json");
  const install = (...args: string[]) => runHookInstall(["claude-code", ...args], env, project);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "loopscope-hook-install-"));
    project = join(root, "project");
    home = join(root, "home");
    mkdirSync(project, { recursive: true });
    env = { HOME: home };
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    vi.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  });

  it("writes the five hooks with the URL and key into the project's settings, merged with what is there", async () => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(projectSettings(), JSON.stringify(MINE, null, 2));
    expect(await install("--url", "http://127.0.0.1:3000/", "--key", "lsk_test_key")).toBe(0);
    const settings = read(projectSettings());
    expect(settings.permissions).toEqual(MINE.permissions);
    expect(settings.env).toEqual(MINE.env);
    const hooks = settings.hooks as Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]>;
    expect(Object.keys(hooks)).toEqual(["PreToolUse", "PostToolUse", "Stop", "SubagentStop", "SessionStart"]);
    expect(hooks.PreToolUse[0]).toEqual(MINE.hooks.PreToolUse[0]);
    expect(hooks.PreToolUse[1]).toMatchObject({ matcher: "*", hooks: [{ type: "command", timeout: 30 }] });
    const command = hooks.Stop[0].hooks[0].command;
    expect(command).toMatch(/^LOOPSCOPE_URL=http:\/\/127\.0\.0\.1:3000 LOOPSCOPE_KEY=lsk_test_key \S+node\S* \S+\/bin\/loopscope\.js hook claude-code$/);
    expect(existsSync(join(home, ".claude", "settings.json"))).toBe(false);
  });

  it("is idempotent, keeps its key on a second run, and --uninstall gives back the file as it was", async () => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(projectSettings(), JSON.stringify(MINE, null, 2));
    await install("--url", "http://127.0.0.1:3000", "--key", "lsk_first");
    const once = readFileSync(projectSettings(), "utf8");
    // No --key: the installed one stays, no key is created.
    expect(await install("--url", "http://127.0.0.1:3000")).toBe(0);
    expect(readFileSync(projectSettings(), "utf8")).toBe(once);
    expect(await install("--uninstall")).toBe(0);
    expect(read(projectSettings())).toEqual(MINE);
    expect(await install("--uninstall")).toBe(0);
    expect(read(projectSettings())).toEqual(MINE);
  });

  it("--user writes ~/.claude/settings.json (HOME), --local the project's settings.local.json", async () => {
    await install("--user", "--url", "http://loops.internal:3000", "--key", "lsk_user");
    expect(readInstalledHookEnv(read(join(home, ".claude", "settings.json")))).toEqual({ LOOPSCOPE_URL: "http://loops.internal:3000", LOOPSCOPE_KEY: "lsk_user" });
    await install("--local", "--url", "http://127.0.0.1:3000", "--key", "lsk_local");
    expect(readInstalledHookEnv(read(join(project, ".claude", "settings.local.json")))).toMatchObject({ LOOPSCOPE_KEY: "lsk_local" });
    expect(existsSync(projectSettings())).toBe(false);
  });

  it("refuses what it cannot do, and leaves the file alone", async () => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(projectSettings(), "{ not json");
    await expect(install("--url", "http://x:1", "--key", "k")).rejects.toThrow(/is not valid JSON/);
    expect(readFileSync(projectSettings(), "utf8")).toBe("{ not json");
    writeFileSync(projectSettings(), JSON.stringify({ hooks: { Stop: "say done" } }));
    await expect(install("--url", "http://x:1", "--key", "k")).rejects.toThrow('field "hooks.Stop" must be an array');
    await expect(install("--key", "k")).rejects.toThrow(UsageError);
    await expect(install("--url", "localhost:3000", "--key", "k")).rejects.toThrow(/http\(s\) address/);
    await expect(install("--user", "--project", "--url", "http://x:1", "--key", "k")).rejects.toThrow(/one of --project/);
    await expect(runHookInstall(["codex"], env, project)).rejects.toThrow(UsageError);
    // Without --key and without a database here, it asks for one rather than creating a database in the project.
    await expect(install("--url", "http://x:1")).rejects.toThrow(/needs --key/);
    expect(existsSync(join(project, "data"))).toBe(false);
  });

  describe("with a database configured", () => {
    let t: TestDatabase;
    beforeEach(async () => {
      t = await createSqliteTestDb();
      process.env.DATABASE_URL = `file:${(t.config as { file: string }).file}`;
      await closeDb();
    });
    afterEach(async () => {
      await closeDb();
      delete process.env.DATABASE_URL;
      await t.destroy();
    });

    it("creates an ingest+control key for the hook, as `keys create` does", async () => {
      expect(await runHookInstall(["claude-code", "--url", "http://127.0.0.1:3000"], { ...env, DATABASE_URL: process.env.DATABASE_URL }, project)).toBe(0);
      const key = readInstalledHookEnv(read(projectSettings()))?.LOOPSCOPE_KEY;
      expect(key).toMatch(/^lsk_/);
      expect(await verifyApiKey(key)).toMatchObject({ name: "claude-code-hook-project", scope: "ingest+control" });
    });

    it("--uninstall revokes the key install made, and leaves a key given with --key", async () => {
      const withDb = { ...env, DATABASE_URL: process.env.DATABASE_URL };
      await runHookInstall(["claude-code", "--url", "http://127.0.0.1:3000"], withDb, project);
      const made = readInstalledHookEnv(read(projectSettings()))?.LOOPSCOPE_KEY;
      expect(await verifyApiKey(made)).not.toBeNull();
      expect(await runHookInstall(["claude-code", "--uninstall"], withDb, project)).toBe(0);
      expect(await verifyApiKey(made)).toBeNull();

      const mine = await createApiKey("ci-shared", { scope: "ingest+control", expiresAt: null });
      await runHookInstall(["claude-code", "--url", "http://127.0.0.1:3000", "--key", mine.key], withDb, project);
      expect(await runHookInstall(["claude-code", "--uninstall"], withDb, project)).toBe(0);
      expect(await verifyApiKey(mine.key)).toMatchObject({ name: "ci-shared" });
    });
  });
});
