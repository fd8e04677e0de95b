-- CreateEnum
CREATE TYPE "TournamentStatus" AS ENUM ('scheduled', 'running', 'paused', 'finished');

-- AlterTable
ALTER TABLE "Match" ADD COLUMN "tournamentId" INTEGER,
ADD COLUMN "tournamentGroupId" INTEGER,
ADD COLUMN "tournamentAttempt" INTEGER;

-- CreateTable
CREATE TABLE "Representative" (
    "userId" INTEGER NOT NULL,
    "game" TEXT NOT NULL,
    "playerId" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Representative_pkey" PRIMARY KEY ("userId","game")
);

-- CreateTable
CREATE TABLE "Tournament" (
    "id" SERIAL NOT NULL,
    "game" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "config" JSONB,
    "freezeAt" TIMESTAMP(3) NOT NULL,
    "status" "TournamentStatus" NOT NULL DEFAULT 'scheduled',
    "round" INTEGER NOT NULL DEFAULT 0,
    "createdById" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Tournament_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TournamentEntry" (
    "id" SERIAL NOT NULL,
    "tournamentId" INTEGER NOT NULL,
    "entryIndex" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "submissionId" INTEGER NOT NULL,
    "playerId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "eliminatedRound" INTEGER,
    "place" INTEGER,

    CONSTRAINT "TournamentEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TournamentGroup" (
    "id" SERIAL NOT NULL,
    "tournamentId" INTEGER NOT NULL,
    "round" INTEGER NOT NULL,
    "groupIndex" INTEGER NOT NULL,
    "final" BOOLEAN NOT NULL DEFAULT false,
    "entries" JSONB NOT NULL,
    "seed" INTEGER NOT NULL,
    "settledAt" TIMESTAMP(3),

    CONSTRAINT "TournamentGroup_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Match_tournamentId_idx" ON "Match"("tournamentId");

-- CreateIndex
CREATE UNIQUE INDEX "Match_tournamentGroupId_tournamentAttempt_key" ON "Match"("tournamentGroupId", "tournamentAttempt");

-- CreateIndex
CREATE INDEX "Representative_playerId_idx" ON "Representative"("playerId");

-- CreateIndex
CREATE INDEX "Tournament_status_freezeAt_idx" ON "Tournament"("status", "freezeAt");

-- CreateIndex
CREATE INDEX "Tournament_game_status_idx" ON "Tournament"("game", "status");

-- CreateIndex
CREATE UNIQUE INDEX "TournamentEntry_tournamentId_entryIndex_key" ON "TournamentEntry"("tournamentId", "entryIndex");

-- CreateIndex
CREATE UNIQUE INDEX "TournamentEntry_tournamentId_userId_key" ON "TournamentEntry"("tournamentId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "TournamentGroup_tournamentId_round_groupIndex_key" ON "TournamentGroup"("tournamentId", "round", "groupIndex");

-- AddForeignKey
ALTER TABLE "Match" ADD CONSTRAINT "Match_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Match" ADD CONSTRAINT "Match_tournamentGroupId_fkey" FOREIGN KEY ("tournamentGroupId") REFERENCES "TournamentGroup"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Representative" ADD CONSTRAINT "Representative_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Representative" ADD CONSTRAINT "Representative_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "PlayerName"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TournamentEntry" ADD CONSTRAINT "TournamentEntry_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TournamentEntry" ADD CONSTRAINT "TournamentEntry_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TournamentGroup" ADD CONSTRAINT "TournamentGroup_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE CASCADE ON UPDATE CASCADE;
