-- AlterTable
ALTER TABLE "User" ADD COLUMN "email" TEXT;

-- AlterTable
ALTER TABLE "PlayerName" ADD COLUMN "releasedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Match" ADD COLUMN "requestedById" INTEGER;

-- CreateTable
CREATE TABLE "GameSetting" (
    "game" TEXT NOT NULL,
    "submissionDeadline" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GameSetting_pkey" PRIMARY KEY ("game")
);

-- CreateTable
CREATE TABLE "PrivateDummy" (
    "id" SERIAL NOT NULL,
    "game" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "uploadedById" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PrivateDummy_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Match_requestedById_createdAt_idx" ON "Match"("requestedById", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PrivateDummy_game_key" ON "PrivateDummy"("game");

-- AddForeignKey
ALTER TABLE "Match" ADD CONSTRAINT "Match_requestedById_fkey" FOREIGN KEY ("requestedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PrivateDummy" ADD CONSTRAINT "PrivateDummy_uploadedById_fkey" FOREIGN KEY ("uploadedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
