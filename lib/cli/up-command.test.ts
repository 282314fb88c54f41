import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { revokeApiKey, verifyApiKey } from "@/lib/db/api-keys";
import { createUser, isSignInLinkValid, listUsers } from "@/lib/db/users";
import { testDatabaseKinds } from "@/lib/db/testing/test-databases";
import { useAppDatabase } from "@/lib/db/testing/app-database";
import { isPortFree, pickPort } from "./free-port";
import { displayPath, findAgentFolders, toClaudeProjectName } from "./up-folders";
import { ensureAgentKey, ensureOwner, makeSignInLink, prepareStateDir } from "./up-state";

const scratch = mkdtempSync(join(tmpdir(), "loopscope-up-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("loopscope up: where a project's agents write", () => {
  it("names Claude Code's folder for a project as Claude Code does", () => {
    expect(toClaudeProjectName("/tmp/private")).toBe("-tmp-private");
    expect(toClaudeProjectName("/home/ada/src/shop.api_v2")).toBe("-home-ada-src-shop-api-v2");
  });

  it("watches SDD's runs, Aider's history and this project's Claude Code sessions (CLAUDE_CONFIG_DIR first)", () => {
    expect(findAgentFolders("/work/shop", {}, "/home/ada")).toEqual([
      { path: "/work/shop/.sdd/runs", agent: "SDD run reports" },
      { path: "/work/shop/.aider.chat.history.md", agent: "Aider" },
      { path: "/home/ada/.claude/projects/-work-shop", agent: "Claude Code" },
    ]);
    expect(findAgentFolders("/work/shop", { CLAUDE_CONFIG_DIR: "/cfg/claude" }, "/home/ada")[2].path).toBe("/cfg/claude/projects/-work-shop");
  });

  it("shows paths relative to the project, or under ~", () => {
    expect(displayPath("/work/shop/.sdd/runs", "/work/shop", "/home/ada")).toBe(".sdd/runs");
    expect(displayPath("/home/ada/.claude/projects/-work-shop", "/work/shop", "/home/ada")).toBe("~/.claude/projects/-work-shop");
    expect(displayPath("/var/log/agent", "/work/shop", "/home/ada")).toBe("/var/log/agent");
  });
});

describe("loopscope up: a port", () => {
  it("takes the port asked for only when it is free", async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen({ port: 0, host: "127.0.0.1" }, () => r()));
    const port = (taken.address() as { port: number }).port;
    try {
      expect(await isPortFree(port, "127.0.0.1")).toBe(false);
      await expect(pickPort(port, "127.0.0.1")).rejects.toThrow(`port ${port} is in use`);
    } finally {
      await new Promise((r) => taken.close(r));
    }
    expect(await pickPort(port, "127.0.0.1")).toBe(port);
    // Without --port: 3000 when free, else another free one; never a taken one.
    const picked = await pickPort(null, "127.0.0.1");
    expect(await isPortFree(picked, "127.0.0.1")).toBe(true);
  });
});

describe("loopscope up: the project's .loopscope folder", () => {
  it("is its owner's only, and keeps itself out of git", () => {
    const dir = prepareStateDir(scratch);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toMatch(/^\*$/m);
    writeFileSync(join(dir, ".gitignore"), "*\n# kept\n");
    prepareStateDir(scratch);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toContain("# kept");
  });
});

describe.each(await testDatabaseKinds())("loopscope up: agent key and owner (%s)", (kind) => {
  useAppDatabase(kind);
  const dir = () => prepareStateDir(mkdtempSync(join(scratch, `${kind}-`)));

  it("keeps one ingest+control key per project, stored 0600, and replaces it once revoked", async () => {
    const state = dir();
    const first = await ensureAgentKey(state);
    expect(first.created).toBe(true);
    expect(statSync(join(state, "agent.key")).mode & 0o777).toBe(0o600);
    expect((await verifyApiKey(first.key))?.scope).toBe("ingest+control");
    expect(await ensureAgentKey(state)).toEqual({ key: first.key, created: false });
    await revokeApiKey((await verifyApiKey(first.key))!.id);
    const second = await ensureAgentKey(state);
    expect(second.created).toBe(true);
    expect(second.key).not.toBe(first.key);
    expect(readFileSync(join(state, "agent.key"), "utf8").trim()).toBe(second.key);
  });

  it("makes the first person an admin who signs in by one-time links; a database with people gets none", async () => {
    const state = dir();
    const owner = await ensureOwner(state);
    expect(owner.kind).toBe("created");
    if (owner.kind === "none") return;
    const user = (await listUsers()).find((u) => u.name === owner.name);
    expect(user).toMatchObject({ role: "admin", hasPassword: false });
    expect(await ensureOwner(state)).toEqual({ kind: "known", name: owner.name });
    const link = await makeSignInLink("http://localhost:4321", owner.name);
    expect(link).toMatch(/^http:\/\/localhost:4321\/sign-in\/link\/lsl_/);
    expect(await isSignInLinkValid(link!.split("/").pop()!)).toBe(true);
    // Another project's .loopscope on the same (shared) database: its people are there already.
    await createUser({ name: `someone-${kind}`, role: "viewer" });
    expect(await ensureOwner(dir())).toEqual({ kind: "none" });
  });
});
