-- Raw, SQLite only (the schema is unchanged; models.prisma cannot express it).
-- The history's counts per status and halt reason read every filter column:
-- with them all in one narrow index, counting any filtered view is a scan of
-- this index alone (lib/db/runs-where.ts names it with INDEXED BY), never a
-- read of the wide Run rows, whatever the filters. PostgreSQL counts by a
-- sequential scan of its (TOASTed, narrow) heap rows and needs none.
CREATE INDEX "Run_counts_idx" ON "Run"("status", "haltReason", "profile", "terminalStatus", "format", "startedAt");
