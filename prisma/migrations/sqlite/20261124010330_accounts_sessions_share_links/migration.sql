-- AlterTable
ALTER TABLE "Setting" ADD COLUMN "updatedBy" TEXT;

-- CreateTable
CREATE TABLE "ShareAccess" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "shareLinkId" TEXT NOT NULL,
    "at" REAL NOT NULL,
    "browser" TEXT NOT NULL,
    "client" TEXT NOT NULL,
    CONSTRAINT "ShareAccess_shareLinkId_fkey" FOREIGN KEY ("shareLinkId") REFERENCES "ShareLink" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "passwordHash" TEXT,
    "oidcSubject" TEXT,
    "email" TEXT,
    "createdAt" REAL NOT NULL,
    "updatedAt" REAL NOT NULL,
    "lastSignInAt" REAL
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" REAL NOT NULL,
    "expiresAt" REAL NOT NULL,
    "lastSeenAt" REAL NOT NULL,
    "client" TEXT,
    "method" TEXT NOT NULL DEFAULT 'password',
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SignInLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" REAL NOT NULL,
    "expiresAt" REAL NOT NULL,
    "usedAt" REAL,
    CONSTRAINT "SignInLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ShareLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenHash" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "createdBy" TEXT,
    "createdById" TEXT,
    "createdAt" REAL NOT NULL,
    "expiresAt" REAL NOT NULL,
    "revokedAt" REAL,
    "revokedBy" TEXT,
    "redact" BOOLEAN NOT NULL DEFAULT false,
    "lastOpenedAt" REAL,
    "openCount" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "ShareLink_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ShareLink" ("createdAt", "createdBy", "expiresAt", "id", "revokedAt", "runId", "tokenHash") SELECT "createdAt", "createdBy", "expiresAt", "id", "revokedAt", "runId", "tokenHash" FROM "ShareLink";
DROP TABLE "ShareLink";
ALTER TABLE "new_ShareLink" RENAME TO "ShareLink";
CREATE UNIQUE INDEX "ShareLink_tokenHash_key" ON "ShareLink"("tokenHash");
CREATE INDEX "ShareLink_runId_idx" ON "ShareLink"("runId");
CREATE INDEX "ShareLink_expiresAt_idx" ON "ShareLink"("expiresAt");
CREATE TABLE "new_ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT 'ingest+control',
    "createdAt" REAL NOT NULL,
    "createdBy" TEXT,
    "expiresAt" REAL,
    "lastUsedAt" REAL,
    "revokedAt" REAL,
    "revokedBy" TEXT
);
INSERT INTO "new_ApiKey" ("createdAt", "hash", "id", "lastUsedAt", "name", "prefix", "revokedAt") SELECT "createdAt", "hash", "id", "lastUsedAt", "name", "prefix", "revokedAt" FROM "ApiKey";
DROP TABLE "ApiKey";
ALTER TABLE "new_ApiKey" RENAME TO "ApiKey";
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ShareAccess_shareLinkId_at_idx" ON "ShareAccess"("shareLinkId", "at");

-- CreateIndex
CREATE UNIQUE INDEX "User_name_key" ON "User"("name");

-- CreateIndex
CREATE UNIQUE INDEX "User_oidcSubject_key" ON "User"("oidcSubject");

-- CreateIndex
CREATE UNIQUE INDEX "Session_tokenHash_key" ON "Session"("tokenHash");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "SignInLink_tokenHash_key" ON "SignInLink"("tokenHash");

-- CreateIndex
CREATE INDEX "SignInLink_userId_idx" ON "SignInLink"("userId");

