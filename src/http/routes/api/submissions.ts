// Submissions: upload (multipart or JSON), status with the gate's matches,
// live status (SSE), source (owner/admin only), my submissions.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { typed } from '../../typed.ts';
import { sendSource } from '../../source-reply.ts';
import { createSubmission, decodeUtf8, parseIdempotencyKey } from '../../../domain/submissions.ts';
import { gateProgress, showsWait } from '../../../domain/gate-progress.ts';
import { liveStatus } from '../../../domain/gate.ts';
import { submissionWait } from '../../../domain/queue-overview.ts';
import { requireUser, requireOwnerOrAdmin } from '../../auth.ts';
import { badRequest, multipartRefusal, notFound, tooLarge } from '../../errors.ts';
import { submitRateLimit } from '../../rate-limits.ts';
import { botFileParts, readBotFile } from '../../file-form.ts';
import { statusOut, FINAL_STATUSES, matchOut } from '../../../domain/serialize.ts';
import { findSubmission, gateMatches, listUserSubmissions, submissionSource, submissionStatus } from '../../../domain/submission-reads.ts';
import { GATE_ORDER } from '../../../statuses.ts';
import { loadGames } from '../../../games/registry.ts';
import { claimStream, type JudgeEventMessage } from '../../events.ts';
import {
  idParams,
  mySubmissionsSchema,
  paging,
  query,
  refusals,
  submissionCreatedSchema,
  submissionJsonSchema,
  submissionMultipartSchema,
  submissionSchema,
  Type,
} from '../../schemas.ts';

/** SSE ids: a status's place in the gate (1 queued ... 5 verdict) times this, plus a count of the events after it. */
export const SSE_ID_STEP = 1_000_000;

/** 1 queued, 2 compiling, 3 self-play, 4 qualifying, 5 a verdict. */
function gateRank(status: string): number {
  if (FINAL_STATUSES.has(status)) return GATE_ORDER.length;
  const at = GATE_ORDER.indexOf(status as (typeof GATE_ORDER)[number]);
  return at < 0 ? 1 : at + 1;
}

/** Last-Event-ID: absent, or an id this stream gave (a non-negative integer). */
function parseLastEventId(value: string | string[] | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (!/^\d{1,15}$/.test(text.trim()))
    throw badRequest(`Last-Event-ID must be an id this stream sent (a number), got "${text.slice(0, 40)}"`, 'bad-last-event-id');
  return Number(text.trim());
}

/** A file as the API receives it, before the domain's checks. */
interface Upload {
  game: string | undefined;
  source: string;
  filename: string | undefined;
}

export default async function submissionRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = app.deps;
  const max = config.submissionMaxBytes;
  const gameIds = [...(await loadGames()).keys()];

  async function readUpload(request: FastifyRequest): Promise<Upload> {
    if (request.isMultipart()) {
      let game: string | undefined;
      let source: string | undefined;
      let filename: string | undefined;
      try {
        for await (const part of request.parts(botFileParts(max))) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file') throw badRequest(`unexpected file field "${part.fieldname}": send the bot as "file"`);
            const buf = await readBotFile(part, max);
            source = decodeUtf8(buf);
            filename = part.filename;
          } else if (part.fieldname === 'game') {
            game = String(part.value);
          } else if (part.fieldname === 'source' && typeof part.value === 'string') {
            source = part.value;
          }
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT') {
          throw tooLarge(code === 'FST_FILES_LIMIT' ? 'send one file only' : `file too large: more than ${max} bytes, at most ${max}`);
        }
        throw multipartRefusal(err) ?? err;
      }
      if (source === undefined) throw badRequest('no file: send the bot source as the multipart field "file"', 'no-file');
      return { game, source, filename };
    }
    const body = request.body as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('send multipart/form-data (game, file) or JSON {"game": "...", "source": "..."}');
    }
    const b = body as Record<string, unknown>;
    for (const key of Object.keys(b)) {
      if (!['game', 'source', 'filename'].includes(key)) throw badRequest(`unknown field "${key}" (expected game, source, filename)`);
    }
    if (typeof b.source !== 'string') throw badRequest('"source" must be the bot source as a string', 'no-file');
    if (b.game !== undefined && typeof b.game !== 'string') throw badRequest('"game" must be a string');
    if (b.filename !== undefined && (typeof b.filename !== 'string' || b.filename.length > 200)) throw badRequest('"filename" must be a short string');
    return { game: b.game as string | undefined, source: b.source, filename: b.filename as string | undefined };
  }

  app.post(
    '/submissions',
    {
      bodyLimit: max * 6 + 64 * 1024,
      config: { ...submitRateLimit(config), access: 'user' },
      // readUpload and the domain check the body, with messages that say more than a schema's (an
      // unknown game lists the known ones); multipart is streamed, so there is no parsed body to
      // validate. The schema documents the body, and Swagger UI's "Try it out" sends a file with it.
      attachValidation: true,
      schema: {
        tags: ['submissions'],
        summary: 'Submit a bot: multipart (file, optional game) or JSON {source, game?}. Answers 202 at once; the gate runs after.',
        description:
          "The file is checked at once as the website's form checks it: size, text, PLAYER_NAME and GAME, the name rules, and its syntax " +
          '(a file that does not compile is a 400 with code compile-error, its line and column, and nothing is stored or claimed; ' +
          "a C++ file is compiled by the judge before the answer, and the message is clang's diagnostics as it printed them, lines and carets kept). " +
          'Without "game", the file\'s `export const GAME` names it. The answer is 202 with a Location header to the submission; ' +
          'follow the gate there or on its events stream. An Idempotency-Key header makes a retried upload return the first one.',
        body: {
          content: { 'multipart/form-data': { schema: submissionMultipartSchema(gameIds) }, 'application/json': { schema: submissionJsonSchema(gameIds) } },
        },
        security: [{ bearer: [] }, { session: [] }],
        response: { 202: submissionCreatedSchema, ...refusals(400, 401, 403, 409, 413, 422, 429) },
      },
    },
    async (request, reply) => {
      const me = requireUser(request);
      const idempotencyKey = parseIdempotencyKey(request.headers['idempotency-key']);
      const upload = await readUpload(request);
      const sub = await createSubmission(app.deps, { userId: me.id, ...upload, idempotencyKey }, request.log, { syntaxCheck: true });
      if (sub.replayed) reply.header('idempotent-replayed', 'true');
      reply.header('location', `/api/submissions/${sub.id}`);
      return reply.status(202).send({
        id: sub.id,
        status: statusOut(sub.status),
        game: sub.game,
        player: sub.player.name,
        version: sub.version,
        filename: sub.filename,
        sizeBytes: sub.sizeBytes,
        links: { self: `/api/submissions/${sub.id}`, events: `/api/submissions/${sub.id}/events` },
      });
    },
  );

  async function loadSubmission(id: number) {
    const s = await findSubmission(db, id);
    if (!s) throw notFound(`no submission ${id}`);
    return s;
  }

  /** reasonDetail (what a bot threw, its stack) is its owner's or an admin's to read; others get null. */
  async function submissionOut(id: number, viewer: FastifyRequest['user']) {
    const s = await loadSubmission(id);
    const mayReadDetail = viewer !== null && (viewer.id === s.userId || viewer.isAdmin);
    const matches = (await gateMatches(db, id)).map(matchOut);
    // Compiling only while a worker runs the check; queued while it waits.
    const status = statusOut((await liveStatus(app.deps.queues, s)) as typeof s.status);
    const gate = gateProgress({ id: s.id, status, reasonDetail: s.reasonDetail }, matches);
    return {
      id: s.id,
      game: s.game,
      player: s.player.name,
      owner: s.user.username,
      version: s.version,
      filename: s.filename,
      sizeBytes: s.sizeBytes,
      status,
      reason: s.reason,
      reasonLine: s.reasonLine,
      reasonDetail: mayReadDetail ? s.reasonDetail : null,
      createdAt: s.createdAt,
      startedAt: s.startedAt,
      finishedAt: s.finishedAt,
      disabledAt: s.disabledAt,
      gate,
      gateMatches: matches,
      // No match of its gate started yet (showsWait): how many gates are ahead of it and how long until its verdict.
      wait: showsWait(gate) ? await submissionWait(app.deps, s.id) : null,
    };
  }

  app.get(
    '/submissions/:id',
    {
      config: { access: 'public' },
      schema: {
        tags: ['submissions'],
        summary: 'Status, reason, the gate step by step, and the gate matches',
        params: idParams,
        response: { 200: submissionSchema, ...refusals(400, 404) },
      },
    },
    async (request) => submissionOut(request.params.id, request.user),
  );

  app.get(
    '/submissions/:id/events',
    {
      config: { access: 'public' },
      schema: {
        tags: ['submissions'],
        summary: 'Server-sent events: the current status first, then every change until the verdict',
        description:
          'Events are typed: `status` (the submission moved on; the first one carries current: true), `match` (a gate match ' +
          'started, progressed or ended: matchId, status, round) and `verdict` (qualified or rejected, then the stream ends). ' +
          "Each has a numeric `id:` that grows along the gate: the status's place in it (1 queued ... 5 verdict) times " +
          `${SSE_ID_STEP} plus a count. A reconnect with Last-Event-ID resumes after it: the current status is sent again only ` +
          'when it moved on since, and a client that already had the verdict gets 204 (EventSource then stops).',
        params: idParams,
        headers: {
          type: 'object',
          properties: { 'last-event-id': { type: 'string', description: 'the id of the last event received (EventSource sends it on reconnect)' } },
        },
        response: {
          204: { type: 'null', description: 'the client already had the verdict (its Last-Event-ID): nothing more will come' },
          ...refusals(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      const lastEventId = parseLastEventId(request.headers['last-event-id']);
      await loadSubmission(id); // 404 before the stream starts
      const release = await claimStream(app.deps.limits, request.ip, config.sseMaxPerIp); // 429 before it starts too, across API replicas
      // Subscribe first, then read the current status: no change can fall between the two.
      // Events before the current status is read are already reflected in it (the recorder writes, then publishes).
      let live = false;
      let closed = false;
      let lastStatus = '';
      // The id of the last event sent (or the client's Last-Event-ID): every event's id is above it.
      let lastId = lastEventId ?? 0;
      const res = reply.raw;
      const send = (type: 'status' | 'match' | 'verdict', data: Record<string, unknown>) => {
        if (closed) return;
        // A status event starts its step's range; the others count on within the current one.
        const base = type === 'match' ? 0 : gateRank(String(data.status)) * SSE_ID_STEP;
        lastId = Math.max(base, lastId + 1);
        const out = { ...data, submissionId: id, ...(data.matchId !== undefined ? { matchId: Number(data.matchId) } : {}) };
        res.write(`id: ${lastId}\nevent: ${type}\ndata: ${JSON.stringify(out)}\n\n`);
      };
      const sendStatus = (data: { status: string; [key: string]: unknown }) => send(FINAL_STATUSES.has(data.status) ? 'verdict' : 'status', data);
      const cleanups: (() => void)[] = [release];
      const finish = () => {
        if (closed) return;
        closed = true;
        for (const c of cleanups) c();
        res.end();
      };
      const onStatus = (status: string) => {
        lastStatus = status;
        if (FINAL_STATUSES.has(status)) setImmediate(finish);
      };
      const hub = app.deps.events;
      if (hub) {
        cleanups.push(
          hub.subscribe((event: JudgeEventMessage) => {
            if (String(event.submissionId) !== String(id)) return;
            if (!live) return;
            if (event.matchId === undefined) {
              sendStatus(event);
              onStatus(event.status);
            } else send('match', event);
          }),
        );
        await Promise.race([hub.ready(), new Promise((ok) => setTimeout(ok, 2000))]).catch(() => {});
      }
      let current;
      try {
        current = await submissionStatus(db, id);
        if (current) current = { ...current, status: (await liveStatus(app.deps.queues, current)) as typeof current.status };
      } catch (err) {
        for (const c of cleanups) c();
        throw err;
      }
      if (!current) {
        for (const c of cleanups) c();
        throw notFound(`no submission ${id}`);
      }
      lastStatus = statusOut(current.status);
      // Resumed: the client saw this step already (its Last-Event-ID is in the step's range).
      const seen = lastEventId !== undefined && Math.floor(lastEventId / SSE_ID_STEP) >= gateRank(lastStatus);
      if (seen && FINAL_STATUSES.has(lastStatus)) {
        for (const c of cleanups) c();
        return reply.status(204).send(null);
      }
      reply.hijack();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      // A resumed stream may have nothing to send yet: the client still learns at once that it is connected.
      res.flushHeaders();
      request.raw.on('close', finish);
      res.on('close', finish);
      // The client may have gone while the stream was being set up: no 'close' is coming then.
      if (res.destroyed || request.raw.socket?.destroyed) return finish();
      if (!seen) sendStatus({ status: lastStatus, reason: current.reason, current: true });
      if (FINAL_STATUSES.has(lastStatus)) return finish();
      live = true;
      // A safety net for a lost message (or no Redis): poll the row now and then.
      const poll = setInterval(() => {
        submissionStatus(db, id)
          .then((row) => {
            if (!row) return finish();
            const s = statusOut(row.status);
            // The row says queued until the check's verdict: a check a worker took (its event) stays compiling.
            if (s !== lastStatus && !(s === 'queued' && lastStatus === 'compiling')) {
              sendStatus({ status: s, reason: row.reason });
              onStatus(s);
            }
          })
          .catch(() => {});
      }, 3000);
      const ping = setInterval(() => !closed && res.write(': ping\n\n'), 15000);
      cleanups.push(
        () => clearInterval(poll),
        () => clearInterval(ping),
      );
    },
  );

  app.get(
    '/submissions/:id/source',
    {
      config: { access: 'owner' },
      schema: { tags: ['submissions'], summary: 'The source file (its owner or an admin only)', params: idParams, response: refusals(400, 401, 403, 404) },
    },
    async (request, reply) => {
      const s = await submissionSource(db, request.params.id);
      if (!s) throw notFound(`no submission ${request.params.id}`);
      requireOwnerOrAdmin(request, s.userId, 'submission');
      return sendSource(reply, s.filename, s.source);
    },
  );

  app.get(
    '/me/submissions',
    {
      config: { access: 'user' },
      schema: {
        tags: ['submissions'],
        summary: 'My submissions, newest first',
        querystring: query({ ...paging(200, 50), game: Type.Optional(Type.String({ maxLength: 64 })) }),
        response: { 200: mySubmissionsSchema, ...refusals(400, 401) },
      },
    },
    async (request) => {
      const me = requireUser(request);
      const { rows, total } = await listUserSubmissions(db, { userId: me.id, ...request.query });
      return {
        total,
        limit: request.query.limit,
        offset: request.query.offset,
        submissions: rows.map((s) => ({
          id: s.id,
          game: s.game,
          player: s.player.name,
          nameLocked: s.player.locked,
          version: s.version,
          filename: s.filename,
          status: statusOut(s.status),
          reason: s.reason,
          createdAt: s.createdAt,
          finishedAt: s.finishedAt,
        })),
      };
    },
  );
}
