-- AlterEnum
ALTER TYPE "TournamentStatus" ADD VALUE 'cancelled';

-- CreateEnum
CREATE TYPE "AccountLinkKind" AS ENUM ('invite', 'password');

-- AlterTable
ALTER TABLE "User" ADD COLUMN "studentId" TEXT,
ADD COLUMN "fullName" TEXT;

-- AlterTable
ALTER TABLE "Tournament" ADD COLUMN "cancelledAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "AccountLink" (
    "id" SERIAL NOT NULL,
    "kind" "AccountLinkKind" NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" INTEGER,
    "studentId" TEXT,
    "fullName" TEXT,
    "email" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdById" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccountLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_studentId_key" ON "User"("studentId");

-- CreateIndex
CREATE UNIQUE INDEX "AccountLink_tokenHash_key" ON "AccountLink"("tokenHash");

-- CreateIndex
CREATE INDEX "AccountLink_userId_idx" ON "AccountLink"("userId");

-- CreateIndex
CREATE INDEX "AccountLink_studentId_idx" ON "AccountLink"("studentId");

-- AddForeignKey
ALTER TABLE "AccountLink" ADD CONSTRAINT "AccountLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccountLink" ADD CONSTRAINT "AccountLink_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
