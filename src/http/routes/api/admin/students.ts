// The teacher's view of students and grades over the API (admins only: this
// folder's autohooks.ts, src/http/access.ts): one
// student's record, every submission with filters (JSON and CSV), and the
// grades CSV per game or for every game. The rules are src/domain/students.ts.

import type { FastifyInstance, FastifyReply } from 'fastify';
import { typed } from '../../../typed.ts';
import {
  gradesCsv,
  listSubmissions,
  parseSubmissionFilters,
  studentDetail,
  submissionsCsv,
  SUBMISSION_LANGUAGES,
  SUBMISSION_STATUSES_OUT,
} from '../../../../domain/students.ts';
import { anyObject, idParams, paging, query, refusals, stringEnum, Type } from '../../../schemas.ts';

const TAGS = ['admin'];
const ADMIN = { access: 'admin' } as const;
const ok = anyObject;
const gameParams = { type: 'object', required: ['game'], properties: { game: { type: 'string', minLength: 1, maxLength: 64 } } } as const;

/** The list's filters, the same for JSON and CSV; empty values are no filter. */
export const submissionFilterSchema = {
  game: Type.Optional(Type.String({ maxLength: 64, description: "a game's id" })),
  status: Type.Optional(stringEnum(['', ...SUBMISSION_STATUSES_OUT], { description: 'queued, compiling, self-play, qualifying, qualified or rejected' })),
  language: Type.Optional(stringEnum(['', ...SUBMISSION_LANGUAGES], { description: 'by the file name: typescript, javascript or cpp' })),
  user: Type.Optional(Type.String({ maxLength: 64, description: 'part of the username (any case)' })),
  from: Type.Optional(
    Type.String({ maxLength: 40, description: "submitted at or after: 2026-12-01, or 2026-12-01T08:00 in the course's time zone, or with an offset" }),
  ),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'submitted before; a date alone takes that whole day in' })),
};

const csv = (reply: FastifyReply, filename: string, body: string) =>
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'private, no-store')
    .send(body);

export default async function studentRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get(
    '/users/:id',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary:
          "A student's record: identity, every submission with its gate (matches) and verdict, time to qualify, ratings and ranks, tournament results, similarity pairs, last activity",
        params: idParams,
        response: { 200: ok, ...refusals(400, 401, 403, 404) },
      },
    },
    async (request) => studentDetail(db, request.params.id),
  );

  app.get(
    '/submissions',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Every submission, newest first, filtered by game, status, language, user and date range, paged',
        querystring: query({ ...submissionFilterSchema, ...paging(500, 50) }),
        response: { 200: ok, ...refusals(400, 401, 403) },
      },
    },
    async (request) => {
      const { limit, offset, ...filters } = request.query;
      const { total, rows } = await listSubmissions(db, parseSubmissionFilters(filters), { limit, offset });
      return {
        total,
        limit,
        offset,
        submissions: rows.map((r) => ({
          ...r,
          links: { page: `/submissions/${r.id}`, api: `/api/submissions/${r.id}`, student: `/api/admin/users/${r.user.id}` },
        })),
      };
    },
  );

  app.get(
    '/exports/submissions.csv',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: "Every submission matching the list's filters as CSV, newest first",
        querystring: query(submissionFilterSchema),
        response: refusals(400, 401, 403),
      },
    },
    async (request, reply) => csv(reply, 'submissions.csv', await submissionsCsv(db, parseSubmissionFilters(request.query))),
  );

  app.get(
    '/exports/:game/grades.csv',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary:
          "A game's grades as CSV: one line per registered student (admins left out; those who never submitted or never qualified included) with submissions, first qualification, qualified player, best rank and rating, the latest finished tournament's standing, the highest similarity score",
        params: gameParams,
        response: refusals(400, 401, 403, 404),
      },
    },
    async (request, reply) => csv(reply, `${request.params.game}-grades.csv`, await gradesCsv(db, request.params.game)),
  );

  app.get(
    '/exports/grades.csv',
    {
      config: ADMIN,
      schema: { tags: TAGS, summary: 'The grades of every game as CSV: one line per registered student and game', response: refusals(401, 403) },
    },
    async (_request, reply) => csv(reply, 'grades.csv', await gradesCsv(db, null)),
  );
}
