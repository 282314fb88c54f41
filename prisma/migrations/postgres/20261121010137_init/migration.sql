-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "title" TEXT,
    "ticketId" TEXT,
    "profile" TEXT,
    "format" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "terminalStatus" TEXT,
    "stopReason" TEXT,
    "haltReason" TEXT,
    "haltSignal" TEXT,
    "startedAt" DOUBLE PRECISION,
    "endedAt" DOUBLE PRECISION,
    "lastEventAt" DOUBLE PRECISION,
    "durationMs" DOUBLE PRECISION,
    "steps" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "eventCount" INTEGER NOT NULL DEFAULT 0,
    "findingCount" INTEGER NOT NULL DEFAULT 0,
    "loopIterations" INTEGER,
    "loopLimit" INTEGER,
    "facts" TEXT,
    "report" TEXT,
    "retrospective" TEXT,
    "searchText" TEXT NOT NULL DEFAULT '',
    "createdAt" DOUBLE PRECISION NOT NULL,
    "updatedAt" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "pk" SERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "tsMs" DOUBLE PRECISION NOT NULL,
    "ts" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "sourceType" TEXT NOT NULL,
    "node" TEXT,
    "sourceId" INTEGER,
    "line" INTEGER,
    "raw" TEXT NOT NULL,
    "data" TEXT,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("pk")
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
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "runtimeMs" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "firstSeen" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RunNode_pkey" PRIMARY KEY ("runId","nodeId")
);

-- CreateTable
CREATE TABLE "RunEdge" (
    "runId" TEXT NOT NULL,
    "fromNode" TEXT NOT NULL,
    "toNode" TEXT NOT NULL,
    "declared" BOOLEAN NOT NULL DEFAULT false,
    "traversals" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RunEdge_pkey" PRIMARY KEY ("runId","fromNode","toNode")
);

-- CreateTable
CREATE TABLE "Finding" (
    "id" SERIAL NOT NULL,
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
    "count" DOUBLE PRECISION,
    "limit" DOUBLE PRECISION,
    "atEventId" TEXT NOT NULL,
    "atTsMs" DOUBLE PRECISION,
    "evidence" TEXT,
    "suggestedActions" TEXT,
    "createdAt" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "Finding_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Decision" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "directive" TEXT,
    "budgetDelta" TEXT,
    "by" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "createdAt" DOUBLE PRECISION NOT NULL,
    "deliveredAt" DOUBLE PRECISION,
    "ackedAt" DOUBLE PRECISION,

    CONSTRAINT "Decision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShareLink" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "createdBy" TEXT,
    "createdAt" DOUBLE PRECISION NOT NULL,
    "expiresAt" DOUBLE PRECISION NOT NULL,
    "revokedAt" DOUBLE PRECISION,

    CONSTRAINT "ShareLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IngestSource" (
    "id" SERIAL NOT NULL,
    "path" TEXT NOT NULL,
    "format" TEXT,
    "offset" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "lineCount" INTEGER NOT NULL DEFAULT 0,
    "fingerprint" TEXT,
    "size" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "mtimeMs" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "eventCount" INTEGER NOT NULL DEFAULT 0,
    "errorCount" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "IngestSource_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunSource" (
    "runId" TEXT NOT NULL,
    "sourceId" INTEGER NOT NULL,

    CONSTRAINT "RunSource_pkey" PRIMARY KEY ("runId","sourceId")
);

-- CreateTable
CREATE TABLE "IngestError" (
    "id" SERIAL NOT NULL,
    "sourceId" INTEGER,
    "source" TEXT NOT NULL,
    "line" INTEGER,
    "message" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "runId" TEXT,
    "excerpt" TEXT,
    "createdAt" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "IngestError_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" DOUBLE PRECISION NOT NULL,
    "lastUsedAt" DOUBLE PRECISION,
    "revokedAt" DOUBLE PRECISION,

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
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

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunNode" ADD CONSTRAINT "RunNode_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunEdge" ADD CONSTRAINT "RunEdge_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Finding" ADD CONSTRAINT "Finding_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Decision" ADD CONSTRAINT "Decision_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunSource" ADD CONSTRAINT "RunSource_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunSource" ADD CONSTRAINT "RunSource_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "IngestSource"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IngestError" ADD CONSTRAINT "IngestError_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "IngestSource"("id") ON DELETE SET NULL ON UPDATE CASCADE;

