-- AlterTable
-- Decisions stored before this migration had no halt key: each keeps its own.
ALTER TABLE "Decision" ADD COLUMN     "haltKey" TEXT,
ADD COLUMN     "provider" TEXT;
UPDATE "Decision" SET "haltKey" = 'legacy:' || "id" WHERE "haltKey" IS NULL;
ALTER TABLE "Decision" ALTER COLUMN "haltKey" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "Decision_runId_haltKey_key" ON "Decision"("runId", "haltKey");

