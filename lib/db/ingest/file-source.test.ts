import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expandPaths } from "./file-source";

describe("expandPaths with symbolic links", () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "loopscope-walk-")));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("lists each real file once through a link back to its own folder", async () => {
    writeFileSync(join(dir, "events.jsonl"), "{}\n");
    symlinkSync(".", join(dir, "loop"));
    const { files, problems } = await expandPaths([dir]);
    expect(files).toEqual([{ path: join(dir, "events.jsonl"), display: join(dir, "events.jsonl") }]);
    expect(problems).toEqual([]);
  });

  it("walks two links that each point back to the folder in linear time, not 2^40 paths", async () => {
    mkdirSync(join(dir, "runs"));
    writeFileSync(join(dir, "runs", "a.jsonl"), "{}\n");
    symlinkSync("..", join(dir, "runs", "up"));
    symlinkSync(".", join(dir, "runs", "here"));
    const t0 = Date.now();
    const { files } = await expandPaths([dir]);
    expect(files.map((f) => f.path)).toEqual([join(dir, "runs", "a.jsonl")]);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it("names a file reached only through a link by its real path, shown under the link", async () => {
    mkdirSync(join(dir, "real"));
    writeFileSync(join(dir, "real", "run.jsonl"), "{}\n");
    mkdirSync(join(dir, "watched"));
    symlinkSync(join(dir, "real", "run.jsonl"), join(dir, "watched", "alias.jsonl"));
    symlinkSync("alias.jsonl", join(dir, "watched", "second-alias.jsonl"));
    const { files } = await expandPaths([join(dir, "watched")]);
    expect(files).toEqual([
      { path: join(dir, "real", "run.jsonl"), display: join(dir, "watched", "alias.jsonl"), linkedPath: join(dir, "watched", "alias.jsonl") },
    ]);
  });

  it("reports a link to itself as a problem and goes on", async () => {
    symlinkSync("self", join(dir, "self"));
    writeFileSync(join(dir, "z.jsonl"), "{}\n");
    const { files, problems } = await expandPaths([dir]);
    expect(files.map((f) => f.path)).toEqual([join(dir, "z.jsonl")]);
    expect(problems).toEqual([{ display: join(dir, "self"), message: "cannot read: too many symbolic links (ELOOP)" }]);
  });
});
