-- CreateTable
CREATE TABLE "NotifyChannel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "urlEnc" TEXT NOT NULL,
    "urlHost" TEXT NOT NULL,
    "secretEnc" TEXT,
    "createdAt" REAL NOT NULL,
    "createdBy" TEXT
);

-- CreateTable
CREATE TABLE "NotifyRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "channelId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "afterMinutes" INTEGER,
    "repeatMinutes" INTEGER,
    "haltReasons" TEXT,
    "profiles" TEXT,
    "formats" TEXT,
    "createdAt" REAL NOT NULL,
    CONSTRAINT "NotifyRule_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "NotifyChannel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "NotifyDelivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "channelId" TEXT NOT NULL,
    "ruleId" TEXT,
    "runId" TEXT,
    "event" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" REAL NOT NULL,
    "lockedUntil" REAL,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "createdAt" REAL NOT NULL,
    "sentAt" REAL,
    CONSTRAINT "NotifyDelivery_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "NotifyChannel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "NotifyChannel_name_key" ON "NotifyChannel"("name");

-- CreateIndex
CREATE INDEX "NotifyRule_channelId_idx" ON "NotifyRule"("channelId");

-- CreateIndex
CREATE UNIQUE INDEX "NotifyDelivery_idempotencyKey_key" ON "NotifyDelivery"("idempotencyKey");

-- CreateIndex
CREATE INDEX "NotifyDelivery_status_nextAttemptAt_idx" ON "NotifyDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "NotifyDelivery_channelId_createdAt_idx" ON "NotifyDelivery"("channelId", "createdAt");

