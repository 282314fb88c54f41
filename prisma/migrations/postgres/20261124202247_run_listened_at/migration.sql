-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "listenedAt" DOUBLE PRECISION;

