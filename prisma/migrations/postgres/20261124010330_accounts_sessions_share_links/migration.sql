-- AlterTable
ALTER TABLE "ShareLink" ADD COLUMN     "createdById" TEXT,
ADD COLUMN     "lastOpenedAt" DOUBLE PRECISION,
ADD COLUMN     "openCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "redact" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "revokedBy" TEXT;

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "createdBy" TEXT,
ADD COLUMN     "expiresAt" DOUBLE PRECISION,
ADD COLUMN     "revokedBy" TEXT,
ADD COLUMN     "scope" TEXT NOT NULL DEFAULT 'ingest+control';

-- AlterTable
ALTER TABLE "Setting" ADD COLUMN     "updatedBy" TEXT;

-- CreateTable
CREATE TABLE "ShareAccess" (
    "id" SERIAL NOT NULL,
    "shareLinkId" TEXT NOT NULL,
    "at" DOUBLE PRECISION NOT NULL,
    "browser" TEXT NOT NULL,
    "client" TEXT NOT NULL,

    CONSTRAINT "ShareAccess_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "passwordHash" TEXT,
    "oidcSubject" TEXT,
    "email" TEXT,
    "createdAt" DOUBLE PRECISION NOT NULL,
    "updatedAt" DOUBLE PRECISION NOT NULL,
    "lastSignInAt" DOUBLE PRECISION,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DOUBLE PRECISION NOT NULL,
    "expiresAt" DOUBLE PRECISION NOT NULL,
    "lastSeenAt" DOUBLE PRECISION NOT NULL,
    "client" TEXT,
    "method" TEXT NOT NULL DEFAULT 'password',

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SignInLink" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DOUBLE PRECISION NOT NULL,
    "expiresAt" DOUBLE PRECISION NOT NULL,
    "usedAt" DOUBLE PRECISION,

    CONSTRAINT "SignInLink_pkey" PRIMARY KEY ("id")
);

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

-- CreateIndex
CREATE INDEX "ShareLink_expiresAt_idx" ON "ShareLink"("expiresAt");

-- AddForeignKey
ALTER TABLE "ShareAccess" ADD CONSTRAINT "ShareAccess_shareLinkId_fkey" FOREIGN KEY ("shareLinkId") REFERENCES "ShareLink"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SignInLink" ADD CONSTRAINT "SignInLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

