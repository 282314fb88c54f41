import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { useAppDatabase } from "@/lib/db/testing/app-database";
import { main } from "./main";

const FIRST_LINE = readFileSync(resolve(__dirname, "../../fixtures/protocol/clean-success.jsonl"), "utf8").split("\n")[0];

describe("loopscope ingest's exit status", () => {
  useAppDatabase("sqlite");
  let dir: string;
  let err: string[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "loopscope-ingest-cli-"));
    err = [];
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    vi.spyOn(console, "error").mockImplementation((m: unknown) => void err.push(String(m)));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is 1 when a path named cannot be read (a missing file, a glob the shell left alone)", async () => {
    expect(await main(["ingest", "--quiet", join(dir, "missing.jsonl")])).toBe(1);
    expect(await main(["ingest", "--quiet", join(dir, "*.jsonl")])).toBe(1);
    expect(err.join("\n")).toContain("cannot read: no such file or folder");
  });

  it("refuses --interval without --watch, as a usage error", async () => {
    expect(await main(["ingest", "--interval", "5", join(dir, "f.jsonl")])).toBe(2);
    expect(err.join("\n")).toContain("--interval is for --watch");
  });

  it("is 0 when the files were read, bad lines and all", async () => {
    const file = join(dir, "f.jsonl");
    writeFileSync(file, `${FIRST_LINE}\nnot json\n`);
    expect(await main(["ingest", "--quiet", file])).toBe(0);
    expect(err.join("\n")).toContain(`${file}:2: not JSON`);
  });

  it("names a folder's files in no supported format once each, apart from bad lines, and does not count them as lines", async () => {
    const out: string[] = [];
    vi.spyOn(console, "log").mockImplementation((m: unknown) => void out.push(String(m)));
    writeFileSync(join(dir, "f.jsonl"), `${FIRST_LINE}\nnot json\n`);
    writeFileSync(join(dir, "README.md"), "# About these traces\n\nRead me first.\n");
    expect(await main(["ingest", dir])).toBe(0);
    const stderr = err.join("\n");
    expect(stderr).toContain(`rejected (1):\n  ${join(dir, "f.jsonl")}:2: not JSON`);
    expect(stderr).toContain(`not read, in no supported format (1 file):\n  ${join(dir, "README.md")}\n  (supported: protocol JSONL,`);
    expect(out.join("\n")).toContain("lines rejected: 1 (not read: 1 file in no supported format)");
  });
});
