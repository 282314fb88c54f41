-- AlterTable
ALTER TABLE "Event" ADD COLUMN "record" TEXT;

