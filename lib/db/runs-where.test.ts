import { describe, expect, it } from "vitest";
import { buildRunCountsStatement, buildRunsFilter, buildRunsPageStatements, escapeLike, joinWhere } from "./runs-where";
import { parseRunsQuery } from "@/lib/format/runs-query";
import { encodeRunsCursor } from "@/lib/format/runs-cursor";

describe("run history SQL", () => {
  it("searches through the searchText index on SQLite and with LIKE (trigram index) on PostgreSQL", () => {
    const q = parseRunsQuery({ q: "100% done_x" }).query;
    const [sqlite] = buildRunsFilter(q, "sqlite");
    expect(sqlite.sql).toBe(`"Run".rowid IN (SELECT rowid FROM "Run" INDEXED BY "Run_searchText_idx" WHERE "searchText" LIKE ? ESCAPE '\\' AND "searchText" LIKE ? ESCAPE '\\')`);
    expect(sqlite.params).toEqual(["%100\\%%", "%done\\_x%"]);
    const [pg] = buildRunsFilter(q, "postgres");
    expect(pg.sql).not.toContain("rowid");
    expect(pg.params).toEqual(sqlite.params);
    expect(escapeLike("a\\b")).toBe("a\\\\b");
  });

  it("reads `none` as a missing value and binds every value", () => {
    const where = joinWhere(buildRunsFilter(parseRunsQuery({ terminal: "none,done_success", status: "done", from: "2026-08-01" }).query, "postgres"));
    expect(where.sql).toBe(`WHERE "status" IN (?) AND ("terminalStatus" IN (?) OR "terminalStatus" IS NULL) AND "startedAt" >= ?`);
    expect(where.params).toEqual(["done", "done_success", Date.UTC(2026, 7, 1)]);
  });

  it("pages nullable columns in two index ranges, values first, and back the other way", () => {
    const q = parseRunsQuery({ sort: "duration" }).query;
    const first = buildRunsPageStatements(q, "sqlite", "*");
    expect(first.map((s) => s.sql)).toEqual([
      `SELECT * FROM "Run" WHERE "durationMs" IS NOT NULL ORDER BY "durationMs" DESC, "id" DESC LIMIT ?`,
      `SELECT * FROM "Run" WHERE "durationMs" IS NULL ORDER BY "id" DESC LIMIT ?`,
    ]);
    const back = parseRunsQuery({ sort: "duration", cursor: encodeRunsCursor({ sort: "duration", dir: "desc", value: 5, id: "r9", back: true }) }).query;
    const stmts = buildRunsPageStatements(back, "sqlite", "*");
    expect(stmts).toHaveLength(1);
    expect(stmts[0].sql).toContain(`("durationMs" > ? OR ("durationMs" = ? AND "id" > ?)) ORDER BY "durationMs" ASC, "id" ASC`);
    expect(stmts[0].params).toEqual([5, 5, "r9"]);
  });

  it("counts from the counts index on SQLite", () => {
    const q = parseRunsQuery({ profile: "fast" }).query;
    expect(buildRunCountsStatement(q, "sqlite").sql).toContain(`FROM "Run" INDEXED BY "Run_counts_idx" WHERE "profile" IN (?)`);
    expect(buildRunCountsStatement(q, "postgres").sql).not.toContain("INDEXED BY");
  });
});
