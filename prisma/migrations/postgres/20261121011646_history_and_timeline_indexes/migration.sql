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


-- Raw, PostgreSQL only (not in models.prisma, so later diffs leave them alone).
-- Title and profile are free text of any length: a btree entry over ~2.7 kB
-- would make the run's update fail, so profile gets a hash index (equality is
-- all the filter needs) and title sorts without an index.
CREATE INDEX "Run_profile_hash_idx" ON "Run" USING hash ("profile");
-- Substring search over "searchText" (LIKE '%term%') through trigrams, when the
-- server ships pg_trgm (every mainstream distribution and managed service
-- does); without it the search falls back to scanning Run, which still works.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE INDEX IF NOT EXISTS "Run_searchText_trgm_idx" ON "Run" USING gin ("searchText" gin_trgm_ops);
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable (%): run search will scan the Run table', SQLERRM;
END $$;
