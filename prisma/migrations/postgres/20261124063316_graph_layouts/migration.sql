-- CreateTable
CREATE TABLE "GraphLayout" (
    "runId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "layout" TEXT NOT NULL,
    "createdAt" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "GraphLayout_pkey" PRIMARY KEY ("runId","key")
);

-- AddForeignKey
ALTER TABLE "GraphLayout" ADD CONSTRAINT "GraphLayout_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

