-- CreateTable
CREATE TABLE "GraphLayout" (
    "runId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "layout" TEXT NOT NULL,
    "createdAt" REAL NOT NULL,

    PRIMARY KEY ("runId", "key"),
    CONSTRAINT "GraphLayout_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

