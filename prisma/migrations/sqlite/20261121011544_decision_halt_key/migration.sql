-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Decision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "haltKey" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "directive" TEXT,
    "budgetDelta" TEXT,
    "provider" TEXT,
    "by" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "createdAt" REAL NOT NULL,
    "deliveredAt" REAL,
    "ackedAt" REAL,
    CONSTRAINT "Decision_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Decisions stored before this migration had no halt key: each keeps its own.
INSERT INTO "new_Decision" ("ackedAt", "action", "budgetDelta", "by", "createdAt", "deliveredAt", "directive", "eventId", "id", "runId", "haltKey") SELECT "ackedAt", "action", "budgetDelta", "by", "createdAt", "deliveredAt", "directive", "eventId", "id", "runId", 'legacy:' || "id" FROM "Decision";
DROP TABLE "Decision";
ALTER TABLE "new_Decision" RENAME TO "Decision";
CREATE INDEX "Decision_runId_createdAt_idx" ON "Decision"("runId", "createdAt");
CREATE UNIQUE INDEX "Decision_runId_haltKey_key" ON "Decision"("runId", "haltKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

