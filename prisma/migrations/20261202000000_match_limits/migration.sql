-- AlterTable
ALTER TABLE "Match" ADD COLUMN "limits" JSONB;
