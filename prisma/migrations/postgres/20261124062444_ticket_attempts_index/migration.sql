-- CreateIndex
CREATE INDEX "Run_ticketId_startedAt_idx" ON "Run"("ticketId", "startedAt");

