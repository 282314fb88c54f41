-- DropIndex
DROP INDEX "Run_startedAt_idx";

-- DropIndex
DROP INDEX "Run_terminalStatus_idx";

-- DropIndex
DROP INDEX "Run_haltReason_idx";

-- CreateIndex
CREATE INDEX "Run_status_haltReason_idx" ON "Run"("status", "haltReason");

-- CreateIndex
CREATE INDEX "Run_status_id_idx" ON "Run"("status", "id");

-- CreateIndex
CREATE INDEX "Run_startedAt_id_idx" ON "Run"("startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_terminalStatus_id_idx" ON "Run"("terminalStatus", "id");

-- CreateIndex
CREATE INDEX "Run_haltReason_id_idx" ON "Run"("haltReason", "id");

-- CreateIndex
CREATE INDEX "Run_format_id_idx" ON "Run"("format", "id");

-- CreateIndex
CREATE INDEX "Run_durationMs_id_idx" ON "Run"("durationMs", "id");

-- CreateIndex
CREATE INDEX "Run_steps_id_idx" ON "Run"("steps", "id");

-- CreateIndex
CREATE INDEX "Run_tokens_id_idx" ON "Run"("tokens", "id");

-- CreateIndex
CREATE INDEX "Run_costUsd_id_idx" ON "Run"("costUsd", "id");

-- CreateIndex
CREATE INDEX "Run_loopIterations_id_idx" ON "Run"("loopIterations", "id");

-- CreateIndex
CREATE INDEX "Event_runId_type_tsMs_pk_idx" ON "Event"("runId", "type", "tsMs", "pk");

-- CreateIndex
CREATE INDEX "Event_runId_node_tsMs_pk_idx" ON "Event"("runId", "node", "tsMs", "pk");

-- CreateIndex
CREATE INDEX "IngestError_sourceId_id_idx" ON "IngestError"("sourceId", "id");


-- Raw, SQLite only (not in models.prisma, so later diffs leave them alone).
-- The history's text search scans this index instead of the table: Run rows
-- carry whole reports, and "searchText" is stored after them, so a table scan
-- would read every report's overflow pages (lib/db/runs-where.ts).
CREATE INDEX "Run_searchText_idx" ON "Run"("searchText");
CREATE INDEX "Run_title_id_idx" ON "Run"("title", "id");
CREATE INDEX "Run_profile_id_idx" ON "Run"("profile", "id");
