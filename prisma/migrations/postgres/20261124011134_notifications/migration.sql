-- CreateTable
CREATE TABLE "NotifyChannel" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "urlEnc" TEXT NOT NULL,
    "urlHost" TEXT NOT NULL,
    "secretEnc" TEXT,
    "createdAt" DOUBLE PRECISION NOT NULL,
    "createdBy" TEXT,

    CONSTRAINT "NotifyChannel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotifyRule" (
    "id" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "afterMinutes" INTEGER,
    "repeatMinutes" INTEGER,
    "haltReasons" TEXT,
    "profiles" TEXT,
    "formats" TEXT,
    "createdAt" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "NotifyRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotifyDelivery" (
    "id" SERIAL NOT NULL,
    "channelId" TEXT NOT NULL,
    "ruleId" TEXT,
    "runId" TEXT,
    "event" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DOUBLE PRECISION NOT NULL,
    "lockedUntil" DOUBLE PRECISION,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "createdAt" DOUBLE PRECISION NOT NULL,
    "sentAt" DOUBLE PRECISION,

    CONSTRAINT "NotifyDelivery_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "NotifyRule" ADD CONSTRAINT "NotifyRule_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "NotifyChannel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotifyDelivery" ADD CONSTRAINT "NotifyDelivery_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "NotifyChannel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

