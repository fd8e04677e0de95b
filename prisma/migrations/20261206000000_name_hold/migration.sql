-- AlterTable
ALTER TABLE "PlayerName" ADD COLUMN "heldAt" TIMESTAMP(3);

-- A name whose submission already passed self-play (it played a gate match against Dummy) or qualified stays its owner's.
UPDATE "PlayerName" p SET "heldAt" = COALESCE(p."lockedAt", p."createdAt")
WHERE p."locked" OR EXISTS (
  SELECT 1 FROM "Match" m JOIN "Submission" s ON s."id" = m."submissionId"
  WHERE s."playerId" = p."id" AND m."kind" = 'gate' AND m."gateStep" = 'dummy'
);
