-- CreateTable
CREATE TABLE "ArchivedSubmission" (
    "id" SERIAL NOT NULL,
    "term" TEXT NOT NULL,
    "game" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "importedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ArchivedSubmission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SimilarityReport" (
    "game" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "documents" INTEGER NOT NULL,
    "pairs" JSONB NOT NULL,
    "durationMs" INTEGER NOT NULL,

    CONSTRAINT "SimilarityReport_pkey" PRIMARY KEY ("game")
);

-- CreateIndex
CREATE INDEX "ArchivedSubmission_game_idx" ON "ArchivedSubmission"("game");

-- CreateIndex
CREATE UNIQUE INDEX "ArchivedSubmission_term_game_author_filename_key" ON "ArchivedSubmission"("term", "game", "author", "filename");
