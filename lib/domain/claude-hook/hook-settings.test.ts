import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildHookCommand, installHookEntries, isLoopscopeHookCommand, readHookCommandEnv, readInstalledHookEnv, shellQuote, uninstallHookEntries, type HookEntry,
} from "./hook-settings";

const COMMAND = buildHookCommand(["/usr/bin/node", "/opt/loopscope/bin/loopscope.js"], { LOOPSCOPE_URL: "http://127.0.0.1:3000", LOOPSCOPE_KEY: "lsk_abc" });
const ENTRY: HookEntry = { type: "command", command: COMMAND, timeout: 30 };

/** A project's settings as people write them: permissions, env, and hooks of their own. */
const EXISTING = {
  permissions: { allow: ["Bash(npm test:*)"], deny: ["Read(./.env)"] },
  env: { FOO: "bar" },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./scripts/guard.sh", timeout: 10 }] }],
    Notification: [{ hooks: [{ type: "command", command: "notify-send done" }] }],
  },
};

function ok(change: ReturnType<typeof installHookEntries>) {
  if (!change.ok) throw new Error(change.message);
  return change;
}

describe("installing the hook into settings.json", () => {
  it("adds one entry per event to empty settings: all tools for the tool events", () => {
    const { settings, added } = ok(installHookEntries(undefined, ENTRY));
    expect(added).toEqual(["PreToolUse", "PostToolUse", "Stop", "SubagentStop", "SessionStart"]);
    expect(settings).toEqual({
      hooks: {
        PreToolUse: [{ matcher: "*", hooks: [ENTRY] }],
        PostToolUse: [{ matcher: "*", hooks: [ENTRY] }],
        Stop: [{ hooks: [ENTRY] }],
        SubagentStop: [{ hooks: [ENTRY] }],
        SessionStart: [{ hooks: [ENTRY] }],
      },
    });
  });

  it("keeps every unrelated key and hook, and does not change its input", () => {
    const before = JSON.parse(JSON.stringify(EXISTING));
    const { settings } = ok(installHookEntries(EXISTING, ENTRY));
    expect(EXISTING).toEqual(before);
    expect(settings.permissions).toEqual(EXISTING.permissions);
    expect(settings.env).toEqual(EXISTING.env);
    const hooks = settings.hooks as Record<string, unknown[]>;
    expect(hooks.Notification).toEqual(EXISTING.hooks.Notification);
    expect(hooks.PreToolUse).toEqual([EXISTING.hooks.PreToolUse[0], { matcher: "*", hooks: [ENTRY] }]);
  });

  it("adds nothing the second time, and updates its own entry in place when the URL or key changed", () => {
    const once = ok(installHookEntries(EXISTING, ENTRY)).settings;
    const twice = ok(installHookEntries(once, ENTRY));
    expect(twice.added).toEqual([]);
    expect(twice.updated).toEqual([]);
    expect(twice.settings).toEqual(once);
    const moved = { ...ENTRY, command: buildHookCommand(["npx", "loopscope"], { LOOPSCOPE_URL: "https://loops.example", LOOPSCOPE_KEY: "lsk_new" }) };
    const updated = ok(installHookEntries(once, moved));
    expect(updated.added).toEqual([]);
    expect(updated.updated).toHaveLength(5);
    expect(JSON.stringify(updated.settings)).not.toContain("lsk_abc");
    expect((updated.settings.hooks as Record<string, unknown[]>).PreToolUse).toHaveLength(2);
  });

  it("refuses settings whose shape it would have to overwrite", () => {
    expect(installHookEntries([], ENTRY)).toMatchObject({ ok: false, message: "the settings file must hold a JSON object" });
    expect(installHookEntries({ hooks: [] }, ENTRY)).toMatchObject({ ok: false, message: 'field "hooks" must be an object' });
    expect(installHookEntries({ hooks: { Stop: {} } }, ENTRY)).toMatchObject({ ok: false, message: 'field "hooks.Stop" must be an array' });
  });
});

describe("uninstalling", () => {
  it("removes exactly what install added", () => {
    for (const start of [undefined, {}, EXISTING, { model: "opus", hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } }]) {
      const installed = ok(installHookEntries(start, ENTRY)).settings;
      const { settings, removed } = ok(uninstallHookEntries(installed));
      expect(removed).toBe(5);
      expect(settings).toEqual(start ?? {});
    }
  });

  it("drops a section its removal left empty, even one that was empty before (Claude Code reads both alike)", () => {
    const installed = ok(installHookEntries({ model: "opus", hooks: { Stop: [] } }, ENTRY)).settings;
    expect(ok(uninstallHookEntries(installed)).settings).toEqual({ model: "opus" });
  });

  it("leaves settings without its hook alone", () => {
    expect(ok(uninstallHookEntries(EXISTING))).toMatchObject({ removed: 0, settings: EXISTING });
  });

  it("keeps a person's hook that shares a group with Loopscope's", () => {
    const shared = { hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }, ENTRY] }] } };
    expect(ok(uninstallHookEntries(shared)).settings).toEqual({ hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } });
  });
});

describe("the hook's command", () => {
  it("is recognised however loopscope is started, and nothing else is", () => {
    expect(isLoopscopeHookCommand(COMMAND)).toBe(true);
    expect(isLoopscopeHookCommand("npx loopscope hook claude-code")).toBe(true);
    expect(isLoopscopeHookCommand("LOOPSCOPE_URL=x node '/a b/bin/loopscope.js' hook claude-code")).toBe(true);
    expect(isLoopscopeHookCommand("npx loopscope ingest ~/.claude/projects")).toBe(false);
    expect(isLoopscopeHookCommand("./scripts/myloopscope hook claude-code")).toBe(false);
    expect(isLoopscopeHookCommand(42)).toBe(false);
  });

  it("carries its settings as assignments a shell reads back", () => {
    expect(COMMAND).toBe("LOOPSCOPE_URL=http://127.0.0.1:3000 LOOPSCOPE_KEY=lsk_abc /usr/bin/node /opt/loopscope/bin/loopscope.js hook claude-code");
    expect(readHookCommandEnv(COMMAND)).toEqual({ LOOPSCOPE_URL: "http://127.0.0.1:3000", LOOPSCOPE_KEY: "lsk_abc" });
    expect(readInstalledHookEnv(ok(installHookEntries(EXISTING, ENTRY)).settings)).toEqual({ LOOPSCOPE_URL: "http://127.0.0.1:3000", LOOPSCOPE_KEY: "lsk_abc" });
    expect(readInstalledHookEnv(EXISTING)).toBeNull();
    fc.assert(fc.property(fc.string(), fc.string(), (url, key) => {
      expect(readHookCommandEnv(buildHookCommand(["npx", "loopscope"], { LOOPSCOPE_URL: url, LOOPSCOPE_KEY: key }))).toEqual({ LOOPSCOPE_URL: url, LOOPSCOPE_KEY: key });
    }));
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
