import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("a reader that stops early (`loopscope export … -o - | head`)", () => {
  const dir = mkdtempSync(join(tmpdir(), "loopscope-pipe-"));
  const env = { ...process.env, DATABASE_URL: `file:${join(dir, "pipe.db")}` };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("ends the command quietly with status 0, as any Unix tool does", async () => {
    const cli = (args: string[]) => execFileSync(process.execPath, ["bin/loopscope.js", ...args], { cwd: ROOT, env, stdio: "ignore" });
    cli(["migrate"]);
    cli(["ingest", "--quiet", "fixtures/protocol/clean-success.jsonl"]);
    const runId = JSON.parse(execFileSync(process.execPath, ["bin/loopscope.js", "detect", "fixtures/protocol/clean-success.jsonl", "--json"], { cwd: ROOT, encoding: "utf8" })).runs[0].runId;
    // The HTML export is far bigger than a pipe's buffer: the reader closes after its first chunk.
    const child = spawn(process.execPath, ["bin/loopscope.js", "export", runId, "-o", "-"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += String(c)));
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  }, 60_000);
});
