-- The queue's overview reads these once a second while anyone polls a waiting submission or the queue page
-- (src/domain/queue-overview.ts readQueueInputs); without them each is a sequential scan of its whole table.
-- On 100k submissions and 500k matches (EXPLAIN ANALYZE, PostgreSQL 15): the compile checks' spans 65-107 ms -> 0.3-0.45 ms,
-- the last 50 verdicts 71-97 ms -> 0.06 ms, the matches finished in the last 10 minutes 213-280 ms -> 0.3 ms.

-- The compile checks over the recent matches: startedAt >= since, or never started and finishedAt >= since (with the status index: a BitmapOr).
CREATE INDEX "Submission_startedAt_idx" ON "Submission"("startedAt");

-- The same checks' second arm, and the last verdicts (ORDER BY finishedAt DESC LIMIT 50: a backward index scan).
CREATE INDEX "Submission_finishedAt_idx" ON "Submission"("finishedAt");

-- Throughput: the matches finished in the last THROUGHPUT_MINUTES.
CREATE INDEX "Match_finishedAt_idx" ON "Match"("finishedAt");
