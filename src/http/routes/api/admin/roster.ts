// The admin's API for a course's accounts: the roster import
// (POST /api/admin/roster, a CSV as text/csv or as the "file" of a multipart
// form) and a user's reset link (POST /api/admin/users/:id/reset-link). Admins
// only: this folder's autohooks.ts. The rules are
// the domain's (src/domain/roster.ts, src/domain/account-links.ts).

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { typed } from '../../../typed.ts';
import { createResetLink } from '../../../../domain/account-links.ts';
import { importRoster, rosterLinksCsv, ROSTER_DEFAULT_DAYS, ROSTER_MAX_BYTES, ROSTER_MAX_DAYS, ROSTER_MODES } from '../../../../domain/roster.ts';
import { requireAdmin } from '../../../auth.ts';
import { badRequest, multipartRefusal, tooLarge } from '../../../errors.ts';
import { idParams, query, refusals, stringEnum, Type } from '../../../schemas.ts';

/** The site's address as the request reached it (the links an admin sends start with it). */
export const siteOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** A roster from a multipart form: the "file" part (at most ROSTER_MAX_BYTES) and the text fields. */
export async function readRosterForm(request: FastifyRequest): Promise<{ csv: Buffer | null; fields: Record<string, string> }> {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  let csv: Buffer | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: ROSTER_MAX_BYTES, files: 1 } })) {
      if (part.type !== 'file') fields[part.fieldname] = String(part.value);
      else if (part.fieldname !== 'file') await part.toBuffer();
      else csv = await part.toBuffer();
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(`the roster is too large: at most ${ROSTER_MAX_BYTES} bytes`);
    throw multipartRefusal(err) ?? err;
  }
  return { csv, fields };
}

const rowSchema = {
  type: 'object',
  properties: {
    line: { type: 'integer' },
    studentId: { type: 'string' },
    fullName: { type: ['string', 'null'] },
    email: { type: ['string', 'null'] },
    username: { type: ['string', 'null'] },
    status: { type: 'string', enum: ['created', 'skipped'] },
    code: { type: ['string', 'null'] },
    reason: { type: ['string', 'null'] },
    link: { type: ['string', 'null'], description: 'the one-time link (shown once), absolute' },
    expiresAt: { type: ['string', 'null'] },
  },
} as const;

export default async function rosterRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;
  // A roster sent as the body itself.
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'buffer', bodyLimit: ROSTER_MAX_BYTES }, (_req, body, done) => done(null, body));

  app.post(
    '/roster',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: `Import a roster: a CSV (text/csv body, or the "file" of a multipart form) with a header row naming the student id, name and e-mail columns; ; or , separated, UTF-8 with or without BOM, at most ${ROSTER_MAX_BYTES} bytes. mode=invite (default): a one-time sign-up link per student, their id, name and e-mail locked; mode=account: a user per student with a one-time link to set the password. expiresInDays: 1-${ROSTER_MAX_DAYS} (default ${ROSTER_DEFAULT_DAYS}). Each row is created or skipped with a reason; linksCsv holds the links to send (shown once)`,
        querystring: query({
          mode: Type.Optional(stringEnum(ROSTER_MODES)),
          expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: ROSTER_MAX_DAYS })),
        }),
        response: {
          200: {
            type: 'object',
            properties: {
              mode: { type: 'string' },
              created: { type: 'integer' },
              skipped: { type: 'integer' },
              rows: { type: 'array', items: rowSchema },
              linksCsv: { type: 'string' },
            },
          },
          ...refusals(400, 401, 403, 413, 415),
        },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      let csv: Buffer | null;
      let mode: string | undefined = request.query.mode;
      let days = request.query.expiresInDays;
      if (request.isMultipart()) {
        const form = await readRosterForm(request);
        csv = form.csv;
        mode = form.fields.mode || mode;
        if (form.fields.expiresInDays) days = Number(form.fields.expiresInDays);
      } else {
        csv = Buffer.isBuffer(request.body) ? request.body : null;
      }
      if (!csv) throw badRequest('send the roster: a text/csv body, or a multipart form with the CSV as "file"');
      const result = await importRoster(db, admin.id, { csv, mode: mode ?? 'invite', ...(days !== undefined ? { expiresInDays: days } : {}) });
      const origin = siteOrigin(request);
      return { ...result, rows: result.rows.map((r) => ({ ...r, link: r.link ? origin + r.link : null })), linksCsv: rosterLinksCsv(result, origin) };
    },
  );

  app.post(
    '/users/:id/reset-link',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'A one-time link that sets the user’s password (valid 24 hours, once; a newer link replaces it; using it ends the user’s sessions). Audited',
        params: idParams,
        response: {
          201: {
            type: 'object',
            properties: {
              userId: { type: 'integer' },
              username: { type: 'string' },
              link: { type: 'string' },
              expiresAt: { type: 'string', format: 'date-time' },
            },
          },
          ...refusals(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const r = await createResetLink(db, admin.id, request.params.id);
      return reply
        .status(201)
        .send({ userId: request.params.id, username: r.username, link: siteOrigin(request) + r.path, expiresAt: r.expiresAt.toISOString() });
    },
  );
}
