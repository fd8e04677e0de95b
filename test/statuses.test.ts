// src/statuses.ts writes out the Prisma enums apart from the database client
// (a worker names them without loading src/db/): they must stay the schema's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as prisma from '../src/db/generated/enums.ts';
import { GateStep, MatchKind, MatchStatus, SubmissionStatus } from '../src/statuses.ts';

test("the statuses and kinds are prisma/schema.prisma's enums, value for value", () => {
  const ours = { SubmissionStatus, MatchKind, MatchStatus, GateStep };
  const theirs = { SubmissionStatus: prisma.SubmissionStatus, MatchKind: prisma.MatchKind, MatchStatus: prisma.MatchStatus, GateStep: prisma.GateStep };
  assert.deepEqual(ours, theirs, 'src/statuses.ts differs from the Prisma enums: write them as prisma/schema.prisma has them');
});
