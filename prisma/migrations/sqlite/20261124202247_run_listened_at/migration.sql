-- AlterTable
ALTER TABLE "Run" ADD COLUMN "listenedAt" REAL;

