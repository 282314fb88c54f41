-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "title" TEXT,
    "ticketId" TEXT,
    "profile" TEXT,
    "format" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "terminalStatus" TEXT,
    "stopReason" TEXT,
    "haltReason" TEXT,
    "haltSignal" TEXT,
    "startedAt" REAL,
    "endedAt" REAL,
    "lastEventAt" REAL,
    "durationMs" REAL,
    "steps" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "eventCount" INTEGER NOT NULL DEFAULT 0,
    "findingCount" INTEGER NOT NULL DEFAULT 0,
    "loopIterations" INTEGER,
    "loopLimit" INTEGER,
    "facts" TEXT,
    "report" TEXT,
    "retrospective" TEXT,
    "searchText" TEXT NOT NULL DEFAULT '',
    "createdAt" REAL NOT NULL,
    "updatedAt" REAL NOT NULL
);

-- CreateTable
CREATE TABLE "Event" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "tsMs" REAL NOT NULL,
    "ts" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "sourceType" TEXT NOT NULL,
    "node" TEXT,
    "sourceId" INTEGER,
    "line" INTEGER,
    "raw" TEXT NOT NULL,
    "data" TEXT,
    CONSTRAINT "Event_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunNode" (
    "runId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "label" TEXT,
    "role" TEXT,
    "declared" BOOLEAN NOT NULL DEFAULT false,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "runtimeMs" REAL NOT NULL DEFAULT 0,
    "firstSeen" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("runId", "nodeId"),
    CONSTRAINT "RunNode_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunEdge" (
    "runId" TEXT NOT NULL,
    "fromNode" TEXT NOT NULL,
    "toNode" TEXT NOT NULL,
    "declared" BOOLEAN NOT NULL DEFAULT false,
    "traversals" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("runId", "fromNode", "toNode"),
    CONSTRAINT "RunEdge_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Finding" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "haltReason" TEXT NOT NULL,
    "signal" TEXT,
    "node" TEXT,
    "edge" TEXT,
    "cycleId" TEXT,
    "taskId" TEXT,
    "loopType" TEXT,
    "recommendation" TEXT,
    "count" REAL,
    "limit" REAL,
    "atEventId" TEXT NOT NULL,
    "atTsMs" REAL,
    "evidence" TEXT,
    "suggestedActions" TEXT,
    "createdAt" REAL NOT NULL,
    CONSTRAINT "Finding_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Decision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "directive" TEXT,
    "budgetDelta" TEXT,
    "by" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "createdAt" REAL NOT NULL,
    "deliveredAt" REAL,
    "ackedAt" REAL,
    CONSTRAINT "Decision_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ShareLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenHash" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "createdBy" TEXT,
    "createdAt" REAL NOT NULL,
    "expiresAt" REAL NOT NULL,
    "revokedAt" REAL,
    CONSTRAINT "ShareLink_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IngestSource" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "path" TEXT NOT NULL,
    "format" TEXT,
    "offset" REAL NOT NULL DEFAULT 0,
    "lineCount" INTEGER NOT NULL DEFAULT 0,
    "fingerprint" TEXT,
    "size" REAL NOT NULL DEFAULT 0,
    "mtimeMs" REAL NOT NULL DEFAULT 0,
    "eventCount" INTEGER NOT NULL DEFAULT 0,
    "errorCount" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" REAL NOT NULL
);

-- CreateTable
CREATE TABLE "RunSource" (
    "runId" TEXT NOT NULL,
    "sourceId" INTEGER NOT NULL,

    PRIMARY KEY ("runId", "sourceId"),
    CONSTRAINT "RunSource_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RunSource_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "IngestSource" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IngestError" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "sourceId" INTEGER,
    "source" TEXT NOT NULL,
    "line" INTEGER,
    "message" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "runId" TEXT,
    "excerpt" TEXT,
    "createdAt" REAL NOT NULL,
    CONSTRAINT "IngestError_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "IngestSource" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" REAL NOT NULL,
    "lastUsedAt" REAL,
    "revokedAt" REAL
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "updatedAt" REAL NOT NULL
);

-- CreateIndex
CREATE INDEX "Run_status_startedAt_idx" ON "Run"("status", "startedAt");

-- CreateIndex
CREATE INDEX "Run_startedAt_idx" ON "Run"("startedAt");

-- CreateIndex
CREATE INDEX "Run_terminalStatus_idx" ON "Run"("terminalStatus");

-- CreateIndex
CREATE INDEX "Run_haltReason_idx" ON "Run"("haltReason");

-- CreateIndex
CREATE INDEX "Event_runId_tsMs_pk_idx" ON "Event"("runId", "tsMs", "pk");

-- CreateIndex
CREATE UNIQUE INDEX "Event_runId_eventId_key" ON "Event"("runId", "eventId");

-- CreateIndex
CREATE INDEX "Finding_haltReason_idx" ON "Finding"("haltReason");

-- CreateIndex
CREATE UNIQUE INDEX "Finding_runId_source_key_key" ON "Finding"("runId", "source", "key");

-- CreateIndex
CREATE INDEX "Decision_runId_createdAt_idx" ON "Decision"("runId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ShareLink_tokenHash_key" ON "ShareLink"("tokenHash");

-- CreateIndex
CREATE INDEX "ShareLink_runId_idx" ON "ShareLink"("runId");

-- CreateIndex
CREATE UNIQUE INDEX "IngestSource_path_key" ON "IngestSource"("path");

-- CreateIndex
CREATE INDEX "RunSource_sourceId_idx" ON "RunSource"("sourceId");

-- CreateIndex
CREATE UNIQUE INDEX "IngestError_key_key" ON "IngestError"("key");

-- CreateIndex
CREATE INDEX "IngestError_runId_idx" ON "IngestError"("runId");

-- CreateIndex
CREATE INDEX "IngestError_createdAt_idx" ON "IngestError"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

