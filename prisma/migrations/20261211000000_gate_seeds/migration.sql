-- AlterTable
ALTER TABLE "Submission" ADD COLUMN "gateSeeds" JSONB;

-- CreateTable
CREATE TABLE "DeploymentSecret" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DeploymentSecret_pkey" PRIMARY KEY ("name")
);
