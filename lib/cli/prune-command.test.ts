import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getSql } from "@/lib/db/client";
import { useAppDatabase } from "@/lib/db/testing/app-database";
import { testDatabaseKinds } from "@/lib/db/testing/test-databases";
import { ingestLines, loopLines } from "@/lib/db/testing/decision-runs";
import { main } from "./main";
import { parseOlderThan } from "./prune-command";
import { UsageError } from "./args";

const kinds = await testDatabaseKinds();
const DAY = 86_400_000;

describe("--older-than", () => {
  it("takes hours, days and weeks, and refuses minutes, bare numbers and nothing", () => {
    expect(parseOlderThan("90d")).toBe(90 * DAY);
    expect(parseOlderThan("12h")).toBe(12 * 3_600_000);
    expect(parseOlderThan("2w")).toBe(14 * DAY);
    const bad: (string | true | undefined)[] = ["90m", "90", "0d", "ninety days", "", true, undefined];
    for (const value of bad) expect(() => parseOlderThan(value), String(value)).toThrow(UsageError);
  });
});

describe.each(kinds)("loopscope prune (%s)", (kind) => {
  useAppDatabase(kind);
  let out: string[];
  let err: string[];
  beforeEach(() => {
    out = [];
    err = [];
    vi.spyOn(console, "log").mockImplementation((m: unknown) => void out.push(String(m)));
    vi.spyOn(console, "error").mockImplementation((m: unknown) => void err.push(String(m)));
  });
  afterEach(() => vi.restoreAllMocks());

  it("prints what would go, then prunes it, in lines a script reads", async () => {
    const db = await getSql();
    await db.run(`DELETE FROM "Run"`);
    await ingestLines(db, loopLines("cli-old", { rounds: 2, budgets: { maxCycleIterations: 10 } }));
    await ingestLines(db, loopLines("cli-new", { rounds: 2, budgets: { maxCycleIterations: 10 }, t0: Date.now() }));
    await db.run(`UPDATE "Run" SET "createdAt" = ?, "lastEventAt" = ? WHERE "id" = 'cli-old'`, [Date.now() - 100 * DAY, Date.now() - 100 * DAY]);
    const line = /^(would prune|pruned) (\d[\d,]*) runs \((\d[\d,]*) events\) older than (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ); kept (\d+) waiting for a person$/;

    expect(await main(["prune", "--older-than", "90d", "--dry-run"])).toBe(0);
    expect(out[0]).toMatch(line);
    expect(line.exec(out[0])!.slice(1, 4)).toEqual(["would prune", "1", "11"]);
    const cutoff = Date.parse(line.exec(out[0])![4]);
    expect(Math.abs(cutoff - (Date.now() - 90 * DAY))).toBeLessThan(60_000);
    expect(out.join("\n")).toMatch(/^going: runs last active \S+ to \S+$/m);
    expect(out.join("\n")).toMatch(/^staying: 1 runs, oldest last active \S+ \(cli-new\), newest \S+ \(cli-new\)$/m);
    expect(Number((await (await getSql()).get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event" WHERE "runId" = 'cli-old'`))!.n)).toBe(11);

    out.length = 0;
    expect(await main(["prune", "--older-than", "2w"])).toBe(0);
    expect(line.exec(out[0])!.slice(1, 4)).toEqual(["pruned", "1", "11"]);
    expect(out.join("\n")).toMatch(/^kept: 1 runs, oldest last active .* \(cli-new\)/m);
    expect(await (await getSql()).get(`SELECT "id" FROM "Run" WHERE "id" = 'cli-old'`)).toBeUndefined();

    out.length = 0;
    expect(await main(["prune", "--older-than", "12h", "--json"])).toBe(0);
    expect(JSON.parse(out.join(""))).toMatchObject({ dryRun: false, runs: 0, events: 0, kept: { runs: 1 } });

    expect(await main(["prune", "--older-than", "90m"])).toBe(2);
    expect(err.join("\n")).toMatch(/"90m": minutes are not taken here, since 90m reads as 90 months as easily/);
  });
});
